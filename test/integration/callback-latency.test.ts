/**
 * The network's answer time, in DynamoDB Local through the real repositories: the status callback
 * that answers a PENDING transfer (a payment to another participant) tells how long after the
 * transfer's commit it came, once; a callback of a transfer already answered, or of one we never
 * ordered, tells nothing. The status route publishes what it is told as ConnectorCallbackLatency,
 * whose p99 the stack alarms on (infra/constructs/connector-alarms.ts).
 */
import { randomUUID } from 'node:crypto';
import { payResolution } from '../../shared/domain/pay-resolution';
import { later } from '../../shared/domain/payments';
import { applyTransferStatus, endToEndIdOf, type TransferStatusDeps } from '../../shared/domain/transfer-orders';
import { dynamoSettlementStore } from '../../shared/data/payments-repository';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  HeldSettlements,
  otherParticipantKey,
  PARTICIPANT,
  paymentDeps,
  paymentRequest,
  storedMerchant,
  storedResolution,
} from '../support/payments';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('callback-latency');
});
afterAll(async () => {
  await table.drop();
});

const named = (id: string) => ({ transfer_id: id, end_to_end_id: endToEndIdOf(id) });

/** The status route's dependencies, its clock at `at`, and the answer times it was told. */
function statusDeps(at: string) {
  const told: number[] = [];
  const deps: TransferStatusDeps = {
    payments: dynamoSettlementStore,
    refunds: dynamoRefundStore,
    participant: PARTICIPANT,
    clock: { now: () => at },
    ids: { newId: () => randomUUID() },
    callbackLatency: { record: (ms) => void told.push(ms) },
  };
  return { deps, told };
}

it("tells the network's answer time once, from the transfer's commit to the callback that answered it", async () => {
  const tenant = `tenant-${randomUUID()}`;
  const payer = await storedMerchant(tenant, 500_00);
  const resolution = await storedResolution(payer, await otherParticipantKey());
  const payment = await payResolution(
    paymentDeps(new HeldSettlements()),
    tenant,
    paymentRequest(payer, resolution, '10.00'),
  );
  expect(payment.status).toBe('PENDING');

  const first = statusDeps(later(payment.created_at, 42_000));
  const answer = await applyTransferStatus(first.deps, payment.id, { ...named(payment.id), status: 'SETTLED' });
  expect(answer).toMatchObject({ status: 'SETTLED', applied: true });
  expect(first.told).toEqual([42_000]);

  // The bank's callback again (a retry of its own): the transfer was answered already, nothing is told.
  const again = statusDeps(later(payment.created_at, 90_000));
  expect(await applyTransferStatus(again.deps, payment.id, { ...named(payment.id), status: 'SETTLED' })).toMatchObject({
    applied: false,
  });
  expect(again.told).toEqual([]);

  const unknown = randomUUID();
  const none = statusDeps(new Date().toISOString());
  expect(await applyTransferStatus(none.deps, unknown, { ...named(unknown), status: 'SETTLED' })).toBeUndefined();
  expect(none.told).toEqual([]);
});
