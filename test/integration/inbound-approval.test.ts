/**
 * Inbound approval in DynamoDB Local, through the real flow and repositories: the decision job
 * queued before a payment's PROCESSING write decides a payment whose request died, once, under the
 * client's auto_approve_on_error; the request's decision and the job racing write one decision; a
 * refused connection to the callback is no decision. The balance moves only with a SETTLED payment.
 */
import { randomUUID } from 'node:crypto';
import { approvalSecretOwner, type StoredApprovalSettings } from '../../shared/domain/inbound-approval';
import { payQrCode } from '../../shared/domain/pay-qr-code';
import { publicPayment, type StoredPayment } from '../../shared/domain/payments';
import { SANDBOX_SHOPPER } from '../../shared/domain/sandbox-inbound';
import { decidePayment, UNDECIDED_AFTER_MS } from '../../shared/domain/receive-payment';
import { settlePayment } from '../../shared/domain/settlement';
import { dynamoApprovalSettingsStore } from '../../shared/data/approval-settings-repository';
import { dynamoInboundPaymentStore } from '../../shared/data/payments-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  eventsOf,
  HeldSettlements,
  ledgerOf,
  qrPaymentDeps,
  settlementDeps,
  storedMerchant,
  storedQrCode,
  type Merchant,
} from '../support/payments';
import { testSealer } from '../support/sealer';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('inbound-approval');
});
afterAll(() => table.drop());

const tenant = (): string => `tenant-${randomUUID()}`;

/** Approval on for `merchant`'s client, with a callback nothing listens at (a refused connection). */
async function approvalOn(merchant: Merchant, autoApproveOnError: boolean): Promise<void> {
  const now = new Date().toISOString();
  const settings: StoredApprovalSettings = {
    tenant: merchant.customer.tenant,
    callback_url: 'http://127.0.0.1:1/approve',
    enabled: true,
    auto_approve_on_error: autoApproveOnError,
    secrets: await testSealer.seal(
      [{ secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` }],
      approvalSecretOwner(merchant.customer.tenant),
    ),
    created_at: now,
    updated_at: now,
  };
  expect(await dynamoApprovalSettingsStore.insert(settings)).toBe(true);
  expect(await dynamoApprovalSettingsStore.insert(settings)).toBe(false);
}

/** What a request writes before it asks the callback: the payment PROCESSING, nothing credited. */
async function processingPayment(merchant: Merchant, cents: number): Promise<StoredPayment> {
  const code = await storedQrCode(merchant);
  const now = new Date().toISOString();
  const payment: StoredPayment = {
    id: randomUUID(),
    tenant: merchant.customer.tenant,
    customer_id: merchant.customer.id,
    account_id: merchant.account.id,
    direction: 'INBOUND',
    status: 'PROCESSING',
    amount_cents: cents,
    qr_code_id: code.id,
    qr_code_reference: code.qr_code_reference,
    counterparty: SANDBOX_SHOPPER,
    created_at: now,
    updated_at: now,
  };
  expect(
    await dynamoInboundPaymentStore.receive({ payment, workDueAt: now, keyId: code.key_id, code, events: [] }),
  ).toEqual({
    written: true,
  });
  return payment;
}

describe.each([
  [false, 'REJECTED', 'AUTO_REJECTED', 0],
  [true, 'SETTLED', 'AUTO_APPROVED', 250_00],
])('auto_approve_on_error %s: a payment its request left PROCESSING', (auto, status, approval, credited) => {
  it(`is ${status} (${approval}) by its decision job, once, whatever number of jobs run`, async () => {
    const merchant = await storedMerchant(tenant(), 0);
    await approvalOn(merchant, auto);
    const payment = await processingPayment(merchant, 250_00);

    const jobs = await Promise.all(Array.from({ length: 5 }, () => settlePayment(settlementDeps(), payment.id)));
    expect(new Set(jobs.map((job) => JSON.stringify(publicPayment(job!)))).size).toBe(1);
    const [decided] = jobs as [StoredPayment];
    expect(decided).toMatchObject({
      status,
      approval,
      approval_error: 'No decision was recorded: the request that asked the approval callback ended first',
    });
    const ledger = await ledgerOf(merchant.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([credited, credited]);
    expect((await eventsOf(table, payment.id)).map((e) => [e['type'], e['data']])).toEqual([
      [status === 'SETTLED' ? 'payment.inbound.confirmed' : 'payment.rejected', publicPayment(decided)],
    ]);
  });
});

it("the request's decision and the job's, at once: one is written, and the balance follows it", async () => {
  const merchant = await storedMerchant(tenant(), 0);
  await approvalOn(merchant, false);
  const payment = await processingPayment(merchant, 40_00);
  const deps = qrPaymentDeps();
  const [fromRequest, ...fromJobs] = await Promise.all([
    decidePayment(deps, payment, { approval: 'ACCEPTED' }),
    ...Array.from({ length: 4 }, () => settlePayment(settlementDeps(), payment.id)),
  ]);
  const final = (await dynamoInboundPaymentStore.get(payment.id))!;
  expect(['ACCEPTED', 'AUTO_REJECTED']).toContain(final.approval);
  expect(fromJobs).toEqual(fromJobs.map(() => final));
  expect(fromRequest).toEqual(final);
  const credited = final.status === 'SETTLED' ? 40_00 : 0;
  expect((await ledgerOf(merchant.account.id)).balanceCents).toBe(credited);
  expect(await eventsOf(table, payment.id)).toHaveLength(1);
});

it('a callback that refuses the connection is no decision; the job queued first then finds it decided', async () => {
  const merchant = await storedMerchant(tenant(), 0);
  await approvalOn(merchant, false);
  const code = await storedQrCode(merchant);
  const jobs = new HeldSettlements();
  const payment = await payQrCode(qrPaymentDeps(jobs), merchant.customer.tenant, code.id, {
    amount: { value: '12.00', currency: 'COP' },
  });
  expect(payment).toMatchObject({
    status: 'REJECTED',
    approval: 'AUTO_REJECTED',
    approval_error: 'Connection refused by 127.0.0.1:1',
    rejection_reason: 'APPROVAL_FAILED',
  });
  expect(jobs.scheduled).toEqual([payment.id]);
  expect(publicPayment((await settlePayment(settlementDeps(), payment.id))!)).toEqual(payment);
  expect((await ledgerOf(merchant.account.id)).balanceCents).toBe(0);
  expect((await eventsOf(table, payment.id)).map((e) => e['type'])).toEqual([
    'payment.inbound.received',
    'payment.rejected',
  ]);
  expect(UNDECIDED_AFTER_MS).toBeGreaterThanOrEqual(30_000);
});

it('a decision job for a payment that was never written (its write failed) finds nothing to do', async () => {
  await expect(settlePayment(settlementDeps(), randomUUID())).resolves.toBeUndefined();
});

it("the settings store: a PUT's replacement is one write, keeps the secrets, and a rotation read before it must read again", async () => {
  const store = dynamoApprovalSettingsStore;
  const owner = tenant();
  const fields = { callback_url: 'https://approvals.example.com/a', enabled: false, auto_approve_on_error: false };
  expect(await store.replace(owner, fields, new Date().toISOString())).toBeUndefined();
  const first: StoredApprovalSettings = {
    tenant: owner,
    ...fields,
    // The store keeps the sealed value as given: any opaque string stands for one here.
    secrets: 'sealed-first',
    created_at: '2026-11-25T10:00:00.000Z',
    updated_at: '2026-11-25T10:00:00.000Z',
  };
  expect(await store.insert(first)).toBe(true);
  const seen = (await store.get(owner))!;

  const changes = { callback_url: 'https://approvals.example.com/b', enabled: true, auto_approve_on_error: true };
  const replaced = await store.replace(owner, changes, '2026-11-25T10:00:01.000Z');
  expect(replaced).toEqual({ ...first, ...changes, updated_at: '2026-11-25T10:00:01.000Z', version: 2 });
  expect(await store.get(owner)).toEqual(replaced);
  // A rotation made on the settings as they were before the PUT writes nothing.
  expect(await store.update(seen, { secrets: 'sealed-lost' }, '2026-11-25T10:00:02.000Z')).toBeUndefined();
  expect((await store.get(owner))!.secrets).toBe('sealed-first');
});
