/**
 * Refunds in DynamoDB Local, through the real refund flow and repositories: the hold, refunded_amount
 * and the event in one transaction or nothing (insufficient funds, the remainder), the network's
 * answer written once (settled: the debit stays; rejected: the hold released, refunded_amount
 * lowered), 10 refunds of one payment at once never refunding more than it, the sweeper finding a
 * refund whose job was lost, the connector's status callback, and the list filters. After every
 * step the merchant's balance is the sum of its movements.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/domain/errors';
import { parsePageRequest } from '../../shared/domain/lists';
import { publicPayment } from '../../shared/domain/payments';
import { settleRefund } from '../../shared/domain/refund-settlement';
import { createRefund, publicRefund, type PublicRefund } from '../../shared/domain/refunds';
import { applyTransferStatus } from '../../shared/domain/transfer-orders';
import { dynamoDueWork, type DueEntry } from '../../shared/data/due-work';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../shared/data/client';
import { itemKeys, type ItemKey } from '../../shared/data/item-keys';
import { dynamoPaymentStore, dynamoSettlementStore, writePayment } from '../../shared/data/payments-repository';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { creditPaymentId } from '../../shared/domain/network-credits';
import { payResolution } from '../../shared/domain/pay-resolution';
import { endToEndIdOf } from '../../shared/domain/transfer-orders';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  ledgerOf,
  ourKey,
  PARTICIPANT,
  paymentDeps,
  paymentRequest,
  storedMerchant,
  storedResolution,
  type Merchant,
} from '../support/payments';
import { HeldRefunds, receivedPayment, SHOPPER, refundDeps, refundSettlementDeps } from '../support/refunds';

/** A status callback's ids for transfer `id`, as the bank names it. */
const named = (id: string) => ({ transfer_id: id, end_to_end_id: endToEndIdOf(id) });

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('refunds');
});
afterAll(() => table.drop());

/** The stored item with the table's own attributes (the index of due work's). */
const rawItem = async (key: ItemKey) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const tenant = (): string => `tenant-${randomUUID()}`;
const cop = (value: string) => ({ value, currency: 'COP' as const });

const codeOf = (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'written',
    (error: unknown) => {
      if (error instanceof AppError) return error.code;
      throw error;
    },
  );

/** The merchant's balance, checked equal to the sum of its movements. */
async function balanceOf(merchant: Merchant): Promise<number> {
  const ledger = await ledgerOf(merchant.account.id);
  expect(ledger.balanceCents).toBe(ledger.movementsCents);
  return ledger.balanceCents;
}

/** The merchant pays `cents` to someone at another participant (settled): its balance drops. */
async function spend(merchant: Merchant, cents: number): Promise<void> {
  const at = new Date().toISOString();
  const id = randomUUID();
  const outcome = await writePayment({
    payments: [
      {
        id,
        tenant: merchant.customer.tenant,
        customer_id: merchant.customer.id,
        account_id: merchant.account.id,
        direction: 'OUTBOUND',
        status: 'SETTLED',
        amount_cents: cents,
        counterparty: SHOPPER,
        created_at: at,
        updated_at: at,
      },
    ],
    moves: [{ accountId: merchant.account.id, paymentId: id, amountCents: -cents }],
    events: [],
  });
  expect(outcome.written).toBe(true);
}

const refundedCents = async (paymentId: string): Promise<number | undefined> =>
  (await dynamoPaymentStore.get(paymentId))?.refunded_amount_cents;

const eventsOfRefund = async (refundId: string) =>
  (await table.scan((item) => item['entity'] === 'EVENT' && item['data']?.['id'] === refundId)).map((event) => [
    event['type'],
    event['tenant'],
    event['data'],
  ]);

const refundMovements = async (merchant: Merchant, refundId: string) =>
  (await ledgerOf(merchant.account.id)).movements
    .filter((movement) => movement['refund_id'] === refundId)
    .map((movement) => [movement['kind'], movement['amount_cents'], movement['payment_id']]);

/** A merchant that received a payment of 100.00 and holds 100.00 more of its own. */
async function paidMerchant() {
  const merchant = await storedMerchant(tenant(), 100_00);
  const payment = await receivedPayment(merchant, 100_00);
  return { merchant, payment };
}

describe('a refund', () => {
  it('holds its amount at once, with refunded_amount, its movement, its event and its due work, in one write', async () => {
    const { merchant, payment } = await paidMerchant();
    expect(await balanceOf(merchant)).toBe(200_00);
    const queue = new HeldRefunds();
    const refund = await createRefund(
      refundDeps(queue),
      merchant.customer.tenant,
      payment.id,
      { amount: cop('40.00') },
      'k1',
    );

    expect(refund).toMatchObject({ status: 'PENDING', amount: cop('40.00'), payment_id: payment.id });
    expect(await balanceOf(merchant)).toBe(160_00);
    expect(await refundMovements(merchant, refund.id)).toEqual([['REFUND', -40_00, payment.id]]);
    expect(await refundedCents(payment.id)).toBe(40_00);
    expect(publicPayment((await dynamoPaymentStore.get(payment.id))!).refunded_amount).toEqual(cop('40.00'));
    expect(await eventsOfRefund(refund.id)).toEqual([['refund.created', merchant.customer.tenant, refund]]);
    const stored = await rawItem(itemKeys.refund(refund.id));
    expect(stored?.['duepk']).toMatch(/^DUE#/);
    expect(queue.scheduled).toEqual([refund.id]);
  });

  it('settles through the network once: the debit stays, refund.settled, out of the due work', async () => {
    const { merchant, payment } = await paidMerchant();
    const refund = await createRefund(refundDeps(), merchant.customer.tenant, payment.id, {}, 'k1');
    expect(refund.amount).toEqual(cop('100.00'));

    const [a, b] = await Promise.all([
      settleRefund(refundSettlementDeps(), refund.id),
      settleRefund(refundSettlementDeps(), refund.id),
    ]);
    expect([a?.status, b?.status]).toEqual(['SETTLED', 'SETTLED']);
    expect(await balanceOf(merchant)).toBe(100_00);
    expect(await refundMovements(merchant, refund.id)).toEqual([['REFUND', -100_00, payment.id]]);
    expect(await refundedCents(payment.id)).toBe(100_00);
    const settled = publicRefund((await dynamoRefundStore.get(refund.id))!);
    expect((await eventsOfRefund(refund.id)).map(([type]) => type).sort()).toEqual([
      'refund.created',
      'refund.settled',
    ]);
    expect((await eventsOfRefund(refund.id)).find(([type]) => type === 'refund.settled')?.[2]).toEqual(settled);
    expect((await rawItem(itemKeys.refund(refund.id)))?.['duepk']).toBeUndefined();
    // Refunded in full: nothing is left.
    expect(await codeOf(createRefund(refundDeps(), merchant.customer.tenant, payment.id, {}, 'k2'))).toBe(
      'REFUND_EXCEEDS_REMAINING',
    );
  });

  it('rejected (.99): the hold released once, refunded_amount lowered, refund.rejected; the rest refundable again', async () => {
    const { merchant, payment } = await paidMerchant();
    const refund = await createRefund(
      refundDeps(),
      merchant.customer.tenant,
      payment.id,
      { amount: cop('10.99') },
      'k1',
    );
    expect(await balanceOf(merchant)).toBe(200_00 - 10_99);

    const answers = await Promise.all([1, 2, 3].map(() => settleRefund(refundSettlementDeps(), refund.id)));
    expect(answers.map((r) => r?.status)).toEqual(['REJECTED', 'REJECTED', 'REJECTED']);
    expect(await balanceOf(merchant)).toBe(200_00);
    expect(await refundMovements(merchant, refund.id)).toEqual([
      ['REFUND', -10_99, payment.id],
      ['HOLD_RELEASE', 10_99, payment.id],
    ]);
    expect(await refundedCents(payment.id)).toBe(0);
    const rejected = await dynamoRefundStore.get(refund.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
    expect((await eventsOfRefund(refund.id)).map(([type]) => type).sort()).toEqual([
      'refund.created',
      'refund.rejected',
    ]);
    // A rejected refund does not count: the whole payment can be refunded again.
    const again = await createRefund(refundDeps(), merchant.customer.tenant, payment.id, {}, 'k2');
    expect(again.amount).toEqual(cop('100.00'));
  });

  it("is refused INSUFFICIENT_FUNDS when the merchant's balance does not cover it, writing nothing", async () => {
    const merchant = await storedMerchant(tenant(), 0);
    const payment = await receivedPayment(merchant, 50_00);
    // The merchant spent most of it meanwhile.
    await spend(merchant, 30_00);
    const before = await table.scan((item) => item['payment_id'] === payment.id || item['id'] === payment.id);

    expect(await codeOf(createRefund(refundDeps(), merchant.customer.tenant, payment.id, {}, 'k1'))).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(await table.scan((item) => item['payment_id'] === payment.id || item['id'] === payment.id)).toEqual(before);
    expect(await refundedCents(payment.id)).toBeUndefined();
    expect(await balanceOf(merchant)).toBe(20_00);
    // What the balance covers is refundable.
    const part = await createRefund(refundDeps(), merchant.customer.tenant, payment.id, { amount: cop('20.00') }, 'k2');
    expect(part.status).toBe('PENDING');
    expect(await balanceOf(merchant)).toBe(0);
  });
});

describe('refunds racing', () => {
  it('10 refunds of 30.00 of one payment of 100.00 at once, each with its own key: 3 written, 7 refused', async () => {
    const { merchant, payment } = await paidMerchant();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createRefund(refundDeps(), merchant.customer.tenant, payment.id, { amount: cop('30.00') }, `race-${i}`).then(
          (refund: PublicRefund) => refund.id,
          (error: unknown) => (error instanceof AppError ? error.code : Promise.reject(error)),
        ),
      ),
    );
    const written = results.filter((r) => r !== 'REFUND_EXCEEDS_REMAINING');
    expect(written).toHaveLength(3);
    expect(results.filter((r) => r === 'REFUND_EXCEEDS_REMAINING')).toHaveLength(7);
    expect(await refundedCents(payment.id)).toBe(90_00);
    expect(await balanceOf(merchant)).toBe(200_00 - 90_00);
    const page = await dynamoRefundStore.list(
      merchant.customer.tenant,
      { paymentId: payment.id },
      parsePageRequest({}, new Date().toISOString()),
    );
    expect(page.items.map((r) => r.id).sort()).toEqual([...written].sort());
  });

  it('the same key at once: one refund, every request answered it', async () => {
    const { merchant, payment } = await paidMerchant();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        createRefund(refundDeps(), merchant.customer.tenant, payment.id, { amount: cop('5.00') }, 'same'),
      ),
    );
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await refundedCents(payment.id)).toBe(5_00);
    expect(await balanceOf(merchant)).toBe(195_00);
  });
});

describe('a refund whose job was lost', () => {
  it('is found in the index of due work and taken as a refund', async () => {
    const { merchant, payment } = await paidMerchant();
    const refund = await createRefund(refundDeps(), merchant.customer.tenant, payment.id, {}, 'lost');
    const due = (await dynamoDueWork.due(new Date(Date.now() + 60_000).toISOString(), 1000)).filter(
      (entry: DueEntry) => entry.ref === itemKeys.refund(refund.id).pk,
    );
    expect(due).toHaveLength(1);
    const now = new Date().toISOString();
    const work = await dynamoDueWork.claim(due[0]!, now, now);
    expect(work).toEqual({
      kind: 'refund',
      id: refund.id,
      tenant: merchant.customer.tenant,
      waitingSince: refund.created_at,
    });
    await settleRefund(refundSettlementDeps(), refund.id);
    expect((await rawItem(itemKeys.refund(refund.id)))?.['duepk']).toBeUndefined();
  });
});

describe("the connector's status callback", () => {
  it('applies to a refund once, under its own transfer id', async () => {
    const { merchant, payment } = await paidMerchant();
    const refund = await createRefund(
      refundDeps(),
      merchant.customer.tenant,
      payment.id,
      { amount: cop('20.00') },
      'k',
    );
    const deps = {
      payments: dynamoSettlementStore,
      refunds: dynamoRefundStore,
      participant: PARTICIPANT,
      clock: { now: () => new Date().toISOString() },
      ids: { newId: () => randomUUID() },
    };
    const first = await applyTransferStatus(deps, refund.id, {
      ...named(refund.id),
      status: 'REJECTED',
      reason: 'AC03',
    });
    expect(first).toMatchObject({ transfer_id: refund.id, status: 'REJECTED', applied: true });
    const again = await applyTransferStatus(deps, refund.id, { ...named(refund.id), status: 'SETTLED' });
    expect(again).toMatchObject({ status: 'REJECTED', applied: false });
    expect(await balanceOf(merchant)).toBe(200_00);
    const unknown = randomUUID();
    expect(await applyTransferStatus(deps, unknown, { ...named(unknown), status: 'SETTLED' })).toBeUndefined();
  });
});

describe('listing refunds', () => {
  it('filters by payment, customer and status', async () => {
    const { merchant, payment } = await paidMerchant();
    const other = await receivedPayment(merchant, 10_00);
    const who = merchant.customer.tenant;
    const a = await createRefund(refundDeps(), who, payment.id, { amount: cop('1.99') }, 'a');
    const b = await createRefund(refundDeps(), who, payment.id, { amount: cop('2.00') }, 'b');
    const c = await createRefund(refundDeps(), who, other.id, {}, 'c');
    await settleRefund(refundSettlementDeps(), a.id);
    const page = (filters: object) =>
      dynamoRefundStore
        .list(who, filters, parsePageRequest({}, new Date().toISOString()))
        .then((p) => p.items.map((r) => r.id).sort());
    expect(await page({ paymentId: payment.id })).toEqual([a.id, b.id].sort());
    expect(await page({ customerId: merchant.customer.id })).toEqual([a.id, b.id, c.id].sort());
    expect(await page({ status: 'REJECTED' })).toEqual([a.id]);
    expect(await page({ paymentId: payment.id, status: 'PENDING' })).toEqual([b.id]);
    expect(await page({ customerId: randomUUID() })).toEqual([]);
  });
});

describe('a refund to one of our own merchants', () => {
  /** Merchant `payer` pays `cents` to merchant `payee` through the real flow: the payee's INBOUND payment. */
  async function ownMerchantPayment(payer: Merchant, payee: Merchant, value: string) {
    const resolution = await storedResolution(payer, await ourKey(payee));
    const paid = await payResolution(paymentDeps(), payer.customer.tenant, paymentRequest(payer, resolution, value));
    expect(paid.status).toBe('SETTLED');
    const inbound = await dynamoPaymentStore.get(creditPaymentId(endToEndIdOf(paid.id)));
    expect(inbound).toMatchObject({ status: 'SETTLED', direction: 'INBOUND', account_id: payee.account.id });
    // What a refund credits, kept on the payee's record and never shown.
    expect(inbound!.own_payer).toEqual({ payment_id: paid.id, account_id: payer.account.id });
    expect(publicPayment(inbound!)).not.toHaveProperty('own_payer');
    return { paid, inbound: inbound! };
  }

  it("two settlement jobs of one refund credit the payer's account once, in the SETTLED answer's transaction", async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const payee = await storedMerchant(tenant(), 0);
    const { paid, inbound } = await ownMerchantPayment(payer, payee, '40.00');
    expect([await balanceOf(payer), await balanceOf(payee)]).toEqual([60_00, 40_00]);

    // .99: the sandbox network would reject it; it is not asked.
    const refund = await createRefund(refundDeps(), payee.customer.tenant, inbound.id, { amount: cop('10.99') }, 'k1');
    expect(refund).toMatchObject({ status: 'PENDING', account_id: payee.account.id });
    expect(refund).not.toHaveProperty('own_payer');
    expect([await balanceOf(payer), await balanceOf(payee)]).toEqual([60_00, 29_01]);
    // Never ordered from the network: a status for it is a transfer we do not know (the route's 404).
    const statusDeps = { ...refundSettlementDeps(), payments: dynamoSettlementStore, participant: PARTICIPANT };
    expect(
      await applyTransferStatus(statusDeps, refund.id, { ...named(refund.id), status: 'REJECTED', reason: 'AC03' }),
    ).toBeUndefined();

    const settled = await Promise.all([0, 1].map(() => settleRefund(refundSettlementDeps(), refund.id)));
    expect(settled.map((answer) => answer?.status)).toEqual(['SETTLED', 'SETTLED']);
    expect([await balanceOf(payer), await balanceOf(payee)]).toEqual([70_99, 29_01]);
    // Again later: answered already, nothing moves.
    await settleRefund(refundSettlementDeps(), refund.id);
    expect(await balanceOf(payer)).toBe(70_99);

    const credits = (await ledgerOf(payer.account.id)).movements.filter((movement) => movement['kind'] === 'REFUND');
    expect(credits).toEqual([
      expect.objectContaining({ amount_cents: 10_99, refund_id: refund.id, payment_id: paid.id }),
    ]);
    // The payee's client is told; the payer's sees its balance and movement only.
    expect((await eventsOfRefund(refund.id)).map(([type, client]) => [type, client]).sort()).toEqual([
      ['refund.created', payee.customer.tenant],
      ['refund.settled', payee.customer.tenant],
    ]);
  });

  it('a payer whose merchant is no longer ACTIVE: REJECTED PAYER_INACTIVE, the hold released', async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const payee = await storedMerchant(tenant(), 0);
    const { inbound } = await ownMerchantPayment(payer, payee, '40.00');
    const refund = await createRefund(refundDeps(), payee.customer.tenant, inbound.id, {}, 'k1');
    await dynamoAccountStore.propagateCustomerStatus(payer.customer.id, 'INACTIVE', 1_000);

    const rejected = await settleRefund(refundSettlementDeps(), refund.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYER_INACTIVE' });
    expect([await balanceOf(payer), await balanceOf(payee)]).toEqual([60_00, 40_00]);
    expect(await refundedCents(inbound.id)).toBe(0);
  });

  it("a payment from one of our merchants received before the payer's account was kept: PAYMENT_NOT_REFUNDABLE", async () => {
    const payee = await storedMerchant(tenant(), 0);
    const old = await receivedPayment(payee, 20_00, undefined, {
      ...SHOPPER,
      participant: { name: PARTICIPANT.name, identification_number: PARTICIPANT.nit },
    });
    expect(await codeOf(createRefund(refundDeps(), payee.customer.tenant, old.id, {}, 'k1'))).toBe(
      'PAYMENT_NOT_REFUNDABLE',
    );
    expect(await balanceOf(payee)).toBe(20_00);
  });
});
