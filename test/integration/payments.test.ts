/**
 * Payments in DynamoDB Local, through the real payment flow and repositories: money moves with the
 * payment records in one transaction or not at all (insufficient funds, inactive payer, a failing
 * item of the caller's), each change with exactly its events, one payment per resolution also under
 * 25 concurrent requests, PENDING payments settled or rejected once by their jobs, the opening movement of a linked account, the list filters, and the sandbox shopper
 * paying QR codes (a DYNAMIC code once, also under concurrent payments).
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../../shared/domain/errors';
import { parsePageRequest } from '../../shared/domain/lists';
import { creditPaymentId } from '../../shared/domain/network-credits';
import { payQrCode } from '../../shared/domain/pay-qr-code';
import { endToEndIdOf } from '../../shared/domain/transfer-orders';
import { payResolution } from '../../shared/domain/pay-resolution';
import { settlePayment } from '../../shared/domain/settlement';
import { publicQrCode, type StoredQrCode } from '../../shared/domain/qrcodes';
import type { PayQrCodeRequest } from '../../shared/schemas/payments';
import { dynamoKeyStore } from '../../shared/data/keys-repository';
import { dynamoQrCodeStore } from '../../shared/data/qrcodes-repository';
import { paymentEvents, publicPayment, type StoredPayment } from '../../shared/domain/payments';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { dynamoResolutionStore } from '../../shared/data/directory-repository';
import { itemKeys } from '../../shared/data/item-keys';
import { dynamoPaymentReads } from '../../shared/data/payment-reads';
import { dynamoPaymentStore, writePayment } from '../../shared/data/payments-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  eventsOf,
  HeldSettlements,
  ledgerOf,
  otherParticipantKey,
  ourKey,
  paymentDeps,
  paymentRequest,
  qrPaymentDeps,
  settlementDeps,
  storedAccount,
  storedMerchant,
  storedQrCode,
  storedResolution,
  type Merchant,
} from '../support/payments';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('payments');
});
afterAll(() => table.drop());

const tenant = (): string => `tenant-${randomUUID()}`;
const deps = paymentDeps();
const ids = { newId: () => randomUUID() };

const errorOf = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
};

/** Every item a payment can write, for "nothing was written" checks. */
const paymentItems = (merchant: Merchant) =>
  table.scan(
    (item) =>
      (item['entity'] === 'PAYMENT' && item['account_id'] === merchant.account.id) ||
      (item['entity'] === 'MOVEMENT' && item['account_id'] === merchant.account.id && item['kind'] === 'PAYMENT'),
  );

describe('linking an account', () => {
  it('writes its opening balance as its first movement', async () => {
    const merchant = await storedMerchant(tenant(), 1_000_000_00);
    const ledger = await ledgerOf(merchant.account.id);
    expect(ledger.movements).toEqual([
      expect.objectContaining({
        pk: itemKeys.account(merchant.account.id).pk,
        sk: `MOVEMENT#${merchant.account.created_at}#OPENING`,
        entity: 'MOVEMENT',
        kind: 'OPENING_BALANCE',
        amount_cents: 1_000_000_00,
      }),
    ]);
    expect(ledger.balanceCents).toBe(ledger.movementsCents);
  });
});

describe('paying one of our merchants', () => {
  it("holds the payer's amount, credits the payee once its approval (off: NOT_REQUIRED) takes it, SETTLED", async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const payee = await storedMerchant(tenant(), 0);
    const resolution = await storedResolution(payer, await ourKey(payee));

    const payment = await payResolution(
      deps,
      payer.customer.tenant,
      paymentRequest(payer, resolution, '123.45', 'Pedido 7'),
    );
    expect(payment).toMatchObject({
      status: 'SETTLED',
      direction: 'OUTBOUND',
      account_id: payer.account.id,
      amount: { currency: 'COP', value: '123.45' },
      description: 'Pedido 7',
      resolution_id: resolution.id,
      settled_at: payment.updated_at,
    });

    const [payerLedger, payeeLedger] = await Promise.all([ledgerOf(payer.account.id), ledgerOf(payee.account.id)]);
    expect([payerLedger.balanceCents, payerLedger.movementsCents]).toEqual([376_55, 376_55]);
    expect([payeeLedger.balanceCents, payeeLedger.movementsCents]).toEqual([123_45, 123_45]);
    const [inboundItem] = await table.scan(
      (item) => item['entity'] === 'PAYMENT' && item['account_id'] === payee.account.id,
    );
    // Read whole (its details are in an item beside it: shared/data/payment-details.ts).
    const inbound = await dynamoPaymentStore.get(inboundItem!['id']);
    expect(inbound).toMatchObject({
      tenant: payee.customer.tenant,
      customer_id: payee.customer.id,
      direction: 'INBOUND',
      status: 'SETTLED',
      amount_cents: 123_45,
      description: 'Pedido 7',
      approval: 'NOT_REQUIRED',
      // The payee's credit: its id follows from the payer's payment's end_to_end_id.
      id: creditPaymentId(endToEndIdOf(payment.id)),
      end_to_end_id: endToEndIdOf(payment.id),
      counterparty: {
        owner: { identification_number: payer.customer.identification_number, type: 'BUSINESS' },
        account: { account_number: payer.account.number },
      },
    });
    expect((await dynamoResolutionStore.get(resolution.id))?.payment_id).toBe(payment.id);
    // Each side's events, to its own client: the payer's PENDING payment, then its answer.
    expect((await eventsOf(table, payment.id)).map((e) => [e.tenant, e.type, e.data.status])).toEqual([
      [payer.customer.tenant, 'payment.outbound.confirmed', 'PENDING'],
      [payer.customer.tenant, 'payment.settled', 'SETTLED'],
    ]);
    expect((await eventsOf(table, payment.id)).at(-1)!.data).toEqual(payment);
    const inboundPayment = publicPayment((await dynamoPaymentStore.get(inbound!['id']))!);
    expect((await eventsOf(table, inbound!['id'])).map((e) => [e.tenant, e.type, e.data])).toEqual([
      [payee.customer.tenant, 'payment.inbound.received', inboundPayment],
      [payee.customer.tenant, 'payment.inbound.confirmed', inboundPayment],
    ]);
  });

  it('a payment to an inactive merchant is REJECTED, its hold released: no money moves in the end', async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const payee = await storedMerchant(tenant(), 0);
    const resolution = await storedResolution(payer, await ourKey(payee));
    await dynamoCustomerStore.updateStatus(payee.customer, 'INACTIVE', new Date().toISOString());

    const payment = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '100.00'));
    expect(payment).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYEE_INACTIVE' });
    expect(payment.settled_at).toBeUndefined();
    const payerLedger = await ledgerOf(payer.account.id);
    expect([payerLedger.balanceCents, payerLedger.movementsCents]).toEqual([500_00, 500_00]);
    expect((await ledgerOf(payee.account.id)).movements).toHaveLength(1);
    expect(await paymentItems(payee)).toEqual([]);
    // The resolution is used: the same request answers the rejected payment, and writes no event.
    const again = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '100.00'));
    expect(again).toEqual(payment);
    expect((await eventsOf(table, payment.id)).map((e) => [e.type, e.data.status])).toEqual([
      ['payment.outbound.confirmed', 'PENDING'],
      ['payment.rejected', 'REJECTED'],
    ]);
  });
});

describe('a payment written before its details had an item of their own', () => {
  it('is read whole, its answer keeps its fields, and its list shows them', async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    const payment = await payResolution(
      paymentDeps(new HeldSettlements()),
      payer.customer.tenant,
      paymentRequest(payer, resolution, '10.00', 'Pedido viejo'),
    );
    // As it was written before: every field on the payment item, no detail item.
    const detailKey = itemKeys.paymentDetail(payment.id);
    const [detail] = await table.scan((i) => i['pk'] === detailKey.pk && i['sk'] === detailKey.sk);
    await table.documents.send(new DeleteCommand({ TableName: table.tableName, Key: detailKey }));
    await table.documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: itemKeys.payment(payment.id),
        UpdateExpression: 'SET counterparty = :c, resolution_id = :r, description = :d',
        ExpressionAttributeValues: {
          ':c': detail!['counterparty'],
          ':r': detail!['resolution_id'],
          ':d': detail!['description'],
        },
      }),
    );
    const before = (await dynamoPaymentStore.get(payment.id))!;
    expect(publicPayment(before)).toEqual(payment);

    const settled = (await settlePayment(settlementDeps(), payment.id))!;
    expect(settled.status).toBe('SETTLED');
    const after = (await dynamoPaymentStore.get(payment.id))!;
    expect(after).toEqual(settled);
    expect(after).toMatchObject({
      counterparty: payment.counterparty,
      resolution_id: resolution.id,
      description: 'Pedido viejo',
    });
    const listed = await dynamoPaymentReads.list(payer.customer.tenant, { customerId: payer.customer.id }, page());
    expect(listed.items).toEqual([settled]);
  });
});

describe('paying a key at another participant', () => {
  it('answers PENDING with its amount held, and its job settles it: SETTLED, each change with its event', async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const payee = await otherParticipantKey();
    const resolution = await storedResolution(payer, payee);
    const queue = new HeldSettlements();
    const payment = await payResolution(
      paymentDeps(queue),
      payer.customer.tenant,
      paymentRequest(payer, resolution, '0.01'),
    );
    expect(payment).toMatchObject({
      status: 'PENDING',
      counterparty: { key: payee.key, owner: payee.owner, participant: payee.participant, account: payee.account },
    });
    expect(payment.settled_at).toBeUndefined();
    expect(queue.scheduled).toEqual([payment.id]);
    // The hold: the available balance dropped at once.
    const held = await ledgerOf(payer.account.id);
    expect([held.balanceCents, held.movementsCents]).toEqual([499_99, 499_99]);
    expect(await eventsOf(table, payment.id)).toEqual([
      expect.objectContaining({ tenant: payer.customer.tenant, type: 'payment.outbound.confirmed', data: payment }),
    ]);

    const settled = (await settlePayment(settlementDeps(), payment.id))!;
    expect(settled).toMatchObject({ id: payment.id, status: 'SETTLED' });
    expect(settled.settled_at! >= payment.created_at).toBe(true);
    expect(settled.updated_at).toBe(settled.settled_at);
    expect(await dynamoPaymentStore.get(payment.id)).toEqual(settled);
    const ledger = await ledgerOf(payer.account.id);
    expect([ledger.balanceCents, ledger.movementsCents, ledger.movements.length]).toEqual([499_99, 499_99, 2]);
    const [item] = await table.scan((i) => i['pk'] === `PAYMENT#${payment.id}` && i['sk'] === 'PAYMENT');
    expect(item).toMatchObject({ gsi2sk: `${settled.updated_at}#${payment.id}` });
    expect((await eventsOf(table, payment.id)).map((e) => [e.type, e.data])).toEqual([
      ['payment.outbound.confirmed', payment],
      ['payment.settled', publicPayment(settled)],
    ]);
  });

  it('an amount ending in .99 is REJECTED by the sandbox network: the hold released once, by concurrent jobs', async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    const payment = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '10.99'));
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(489_01);

    const answers = await Promise.all(Array.from({ length: 5 }, () => settlePayment(settlementDeps(), payment.id)));
    expect(new Set(answers.map((a) => JSON.stringify(publicPayment(a!)))).size).toBe(1);
    expect(answers[0]).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
    expect(answers[0]!.settled_at).toBeUndefined();
    const ledger = await ledgerOf(payer.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([500_00, 500_00]);
    expect(ledger.movements.map((m) => [m['kind'], m['amount_cents']])).toEqual([
      ['OPENING_BALANCE', 500_00],
      ['PAYMENT', -10_99],
      ['HOLD_RELEASE', 10_99],
    ]);
    expect((await eventsOf(table, payment.id)).map((e) => [e.type, e.data])).toEqual([
      ['payment.outbound.confirmed', payment],
      ['payment.rejected', publicPayment(answers[0]!)],
    ]);
    // A job run again later changes nothing.
    await expect(settlePayment(settlementDeps(), payment.id)).resolves.toEqual(answers[0]);
    expect((await ledgerOf(payer.account.id)).movements).toHaveLength(3);
  });

  it('a payment left PENDING (its job lost with its request) is scheduled again by its retry, and settled once', async () => {
    const payer = await storedMerchant(tenant(), 500_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    // The first request wrote the payment; its settlement job never ran.
    const first = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '200.00'));
    expect(first.status).toBe('PENDING');

    const queue = new HeldSettlements();
    const retries = await Promise.all(
      Array.from({ length: 3 }, () =>
        payResolution(paymentDeps(queue), payer.customer.tenant, paymentRequest(payer, resolution, '200.00')),
      ),
    );
    expect(retries).toEqual([first, first, first]);
    expect(queue.scheduled).toEqual([first.id, first.id, first.id]);
    const settled = await Promise.all(queue.scheduled.map((id) => settlePayment(settlementDeps(), id)));
    expect(new Set(settled.map((p) => `${p!.id} ${p!.status} ${p!.settled_at}`)).size).toBe(1);
    expect(settled[0]).toMatchObject({ id: first.id, status: 'SETTLED' });
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(300_00);
    expect((await eventsOf(table, first.id)).map((e) => e.type)).toEqual([
      'payment.outbound.confirmed',
      'payment.settled',
    ]);
    // A retry after settlement answers the settled payment and schedules nothing.
    const request = paymentRequest(payer, resolution, '200.00');
    const after = await payResolution(paymentDeps(queue), payer.customer.tenant, request);
    expect(after).toEqual(publicPayment(settled[0]!));
    expect(queue.scheduled).toHaveLength(3);
  });
});

describe('nothing is written when', () => {
  it('the balance does not cover the amount (400 INSUFFICIENT_FUNDS); the resolution stays usable', async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const payee = await storedMerchant(tenant(), 0);
    const resolution = await storedResolution(payer, await ourKey(payee));
    const error = await errorOf(
      payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '100.01')),
    );
    expect(error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await paymentItems(payer)).toEqual([]);
    expect(await paymentItems(payee)).toEqual([]);
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(100_00);
    expect((await ledgerOf(payee.account.id)).balanceCents).toBe(0);
    expect((await dynamoResolutionStore.get(resolution.id))?.payment_id).toBeUndefined();
    // The whole balance is payable: never below zero, down to zero.
    const payment = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '100.00'));
    expect(payment.status).toBe('SETTLED');
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(0);
  });

  it('the payer was deactivated after its checks (the transaction checks it again)', async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    await dynamoCustomerStore.updateStatus(payer.customer, 'INACTIVE', new Date().toISOString());
    const at = new Date().toISOString();
    const payment: StoredPayment = {
      id: randomUUID(),
      tenant: payer.customer.tenant,
      customer_id: payer.customer.id,
      account_id: payer.account.id,
      direction: 'OUTBOUND',
      status: 'PENDING',
      amount_cents: 1_00,
      counterparty: { owner: resolution.owner, participant: resolution.participant, account: resolution.account },
      created_at: at,
      updated_at: at,
    };
    await expect(
      dynamoPaymentStore.insert({
        resolutionId: resolution.id,
        payerCustomerId: payer.customer.id,
        payments: [payment],
        moves: [{ accountId: payer.account.id, paymentId: payment.id, amountCents: -1_00 }],
        events: paymentEvents(ids, payment, 'payment.outbound.confirmed'),
        workDueAt: { [payment.id]: at },
      }),
    ).resolves.toEqual({ written: false, reason: 'payer_inactive' });
    expect(await paymentItems(payer)).toEqual([]);
    expect(await eventsOf(table, payment.id)).toEqual([]);
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(100_00);
  });

  it("an item of the caller's fails (how the sandbox QR pay guards its code), naming it", async () => {
    const payee = await storedMerchant(tenant(), 0);
    const at = new Date().toISOString();
    const inbound: StoredPayment = {
      id: randomUUID(),
      tenant: payee.customer.tenant,
      customer_id: payee.customer.id,
      account_id: payee.account.id,
      direction: 'INBOUND',
      status: 'SETTLED',
      amount_cents: 50_00,
      qr_code_id: randomUUID(),
      qr_code_reference: 'CO.COM.RBM.TRXIDPREF1',
      counterparty: {
        owner: { identification_type: 'CC', identification_number: '1', type: 'PERSON' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: '1', account_type: 'SAVINGS' },
      },
      created_at: at,
      updated_at: at,
      settled_at: at,
    };
    const write = {
      payments: [inbound],
      moves: [{ accountId: payee.account.id, paymentId: inbound.id, amountCents: 50_00 }],
      events: paymentEvents(ids, inbound, 'payment.inbound.received'),
    };
    const missingCode = {
      label: 'qr-code',
      item: {
        ConditionCheck: {
          TableName: table.tableName,
          Key: { pk: `QRCODE#${randomUUID()}`, sk: 'QRCODE' },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
    };
    const outcome = await writePayment(write, [missingCode]);
    expect(outcome.written).toBe(false);
    expect(!outcome.written && [...outcome.failed.keys()]).toEqual(['qr-code']);
    expect(await paymentItems(payee)).toEqual([]);
    expect(await eventsOf(table, inbound.id)).toEqual([]);

    // Without it, the credit and the INBOUND record are written.
    await expect(writePayment(write)).resolves.toEqual({ written: true });
    const ledger = await ledgerOf(payee.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([50_00, 50_00]);
    expect(await dynamoPaymentStore.get(inbound.id)).toEqual(inbound);
    expect((await eventsOf(table, inbound.id)).map((e) => [e.type, e.data])).toEqual([
      ['payment.inbound.received', publicPayment(inbound)],
    ]);
  });
});

describe('one payment per resolution', () => {
  it('25 concurrent requests: one payment, one debit, one credit; all answer it', async () => {
    const payer = await storedMerchant(tenant(), 1_000_00);
    const payee = await storedMerchant(tenant(), 0);
    const resolution = await storedResolution(payer, await ourKey(payee));
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '300.00')),
      ),
    );
    // The same bytes: the first answer and the replays that read the payment back.
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    const payments = await table.scan(
      (item) => item['entity'] === 'PAYMENT_DETAIL' && item['resolution_id'] === resolution.id,
    );
    expect(payments.map((p) => String(p['pk']))).toEqual([`PAYMENT#${answers[0]!.id}`]);
    const [payerLedger, payeeLedger] = await Promise.all([ledgerOf(payer.account.id), ledgerOf(payee.account.id)]);
    expect(payerLedger.movements).toHaveLength(2);
    expect(payerLedger.balanceCents).toBe(700_00);
    expect(payeeLedger.movements).toHaveLength(2);
    expect(payeeLedger.balanceCents).toBe(300_00);
    expect((await dynamoPaymentReads.list(payee.customer.tenant, {}, page())).total).toBe(1);
  }, 60_000);

  it('25 concurrent requests to another participant: one payment, one debit, one event, all PENDING', async () => {
    const payer = await storedMerchant(tenant(), 1_000_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    const answers = await Promise.all(
      Array.from({ length: 25 }, () =>
        payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '999.00')),
      ),
    );
    expect(new Set(answers.map((answer) => `${answer.id} ${answer.status}`))).toEqual(
      new Set([`${answers[0]!.id} PENDING`]),
    );
    const ledger = await ledgerOf(payer.account.id);
    expect([ledger.movements.length, ledger.balanceCents]).toEqual([2, 1_00]);
    expect((await eventsOf(table, answers[0]!.id)).map((e) => e.type)).toEqual(['payment.outbound.confirmed']);
  }, 60_000);

  it('another request with a used resolution is 409 RESOLUTION_ALREADY_USED naming the payment', async () => {
    const payer = await storedMerchant(tenant(), 1_000_00);
    const second = await storedAccount(payer.customer, 1_000_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    const first = await payResolution(deps, payer.customer.tenant, paymentRequest(payer, resolution, '10.00', 'a'));
    for (const request of [
      paymentRequest(payer, resolution, '10.01', 'a'),
      paymentRequest(payer, resolution, '10.00', 'b'),
      paymentRequest(payer, resolution, '10.00'),
      { ...paymentRequest(payer, resolution, '10.00', 'a'), account_id: second.id },
    ]) {
      const error = await errorOf(payResolution(deps, payer.customer.tenant, request));
      expect([error.code, error.extensions['payment_id']]).toEqual(['RESOLUTION_ALREADY_USED', first.id]);
    }
    // Ids are compared without case.
    const upper = paymentRequest(payer, resolution, '10.00', 'a');
    const again = await payResolution(deps, payer.customer.tenant, {
      ...upper,
      customer_id: upper.customer_id.toUpperCase(),
      resolution_id: upper.resolution_id.toUpperCase(),
    });
    expect(again).toEqual(first);
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(990_00);
    expect((await ledgerOf(second.id)).balanceCents).toBe(1_000_00);
  });
});

const page = (overrides: Record<string, unknown> = {}) =>
  parsePageRequest({ page_size: 100, ...overrides }, new Date().toISOString());

describe('listing payments', () => {
  it('filters by customer, account, direction, status and QR reference, with the list counters', async () => {
    const client = tenant();
    const payer = await storedMerchant(client, 1_000_00);
    const payee = await storedMerchant(client, 0);
    const other = await storedMerchant(client, 0);
    const out1 = await payResolution(
      deps,
      client,
      paymentRequest(payer, await storedResolution(payer, await ourKey(payee)), '1.00'),
    );
    const out2 = await payResolution(
      deps,
      client,
      paymentRequest(payer, await storedResolution(payer, await otherParticipantKey()), '2.00'),
    );
    const toOther = await storedResolution(payer, await ourKey(other));
    await dynamoCustomerStore.updateStatus(other.customer, 'INACTIVE', new Date().toISOString());
    const rejected = await payResolution(deps, client, paymentRequest(payer, toOther, '3.00'));

    const ids = async (filters: Parameters<typeof dynamoPaymentReads.list>[1]) =>
      (await dynamoPaymentReads.list(client, filters, page())).items.map((p) => p.id).sort();
    const all = await dynamoPaymentReads.list(client, {}, page());
    expect(all.total).toBe(4);
    const inbound = all.items.find((p) => p.direction === 'INBOUND')!;
    expect(inbound.account_id).toBe(payee.account.id);
    expect(await ids({ customerId: payer.customer.id })).toEqual([out1.id, out2.id, rejected.id].sort());
    expect(await ids({ customerId: payee.customer.id })).toEqual([inbound.id]);
    expect(await ids({ accountId: payee.account.id })).toEqual([inbound.id]);
    expect(await ids({ direction: 'OUTBOUND' })).toEqual([out1.id, out2.id, rejected.id].sort());
    expect(await ids({ status: 'REJECTED' })).toEqual([rejected.id]);
    expect(await ids({ status: 'SETTLED', direction: 'INBOUND' })).toEqual([inbound.id]);
    expect(await ids({ qrCodeReference: 'CO.COM.RBM.TRXIDPNONE' })).toEqual([]);
    expect(
      (await dynamoPaymentReads.list(client, { customerId: payer.customer.id }, page({ page_size: 2 }))).total,
    ).toBe(3);
  });
});

describe('the sandbox shopper paying a QR code', () => {
  const qrDeps = qrPaymentDeps();
  const pay = (merchant: Merchant, code: StoredQrCode, request: PayQrCodeRequest = {}) =>
    payQrCode(qrDeps, merchant.customer.tenant, code.id, request);

  it('a DYNAMIC code is paid once: of 10 concurrent payments one credits the account, the code is PAID', async () => {
    const merchant = await storedMerchant(tenant(), 0);
    const code = await storedQrCode(merchant, { type: 'DYNAMIC', amount: { value: '119000.00', currency: 'COP' } });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () => pay(merchant, code).catch((error: unknown) => error)),
    );
    const paid = outcomes.filter((o) => !(o instanceof AppError)) as Awaited<ReturnType<typeof pay>>[];
    expect(paid).toHaveLength(1);
    for (const refused of outcomes.filter((o) => o instanceof AppError) as AppError[]) {
      expect([refused.code, refused.extensions['qr_code_status']]).toEqual(['QR_CODE_STATUS_CONFLICT', 'PAID']);
    }
    expect(paid[0]).toMatchObject({
      status: 'SETTLED',
      direction: 'INBOUND',
      customer_id: merchant.customer.id,
      account_id: merchant.account.id,
      amount: { currency: 'COP', value: '119000.00' },
      qr_code_id: code.id,
      qr_code_reference: code.qr_code_reference,
      counterparty: { participant: { name: 'Banco Ejemplo' } },
    });
    const ledger = await ledgerOf(merchant.account.id);
    expect([ledger.balanceCents, ledger.movementsCents, ledger.movements.length]).toEqual([119_000_00, 119_000_00, 2]);
    const [item] = await table.scan((i) => i['pk'] === `QRCODE#${code.id}`);
    expect(item).toMatchObject({ status: 'PAID', updated_at: paid[0]!.created_at });
    // One payment's events, and one qr_code.paid: the code as GET answers it, without its image.
    expect((await eventsOf(table, paid[0]!.id)).map((e) => [e.type, e.data])).toEqual([
      ['payment.inbound.received', paid[0]],
      ['payment.inbound.confirmed', paid[0]],
    ]);
    const codeEvents = await table.scan((i) => i['entity'] === 'EVENT' && i['data']?.['id'] === code.id);
    expect(codeEvents.map((e) => [e['tenant'], e['type'], e['data']])).toEqual([
      [merchant.customer.tenant, 'qr_code.paid', publicQrCode((await dynamoQrCodeStore.get(code.id))!)],
    ]);
    const listed = await dynamoPaymentReads.list(
      merchant.customer.tenant,
      { qrCodeReference: code.qr_code_reference },
      page(),
    );
    expect(listed.items.map((p) => p.id)).toEqual([paid[0]!.id]);
  }, 60_000);

  it('a static code is paid again and again, each time what the payer types plus the code tip', async () => {
    const merchant = await storedMerchant(tenant(), 0);
    const code = await storedQrCode(merchant, { tip: { tip_type: 'PERCENTAGE', tip_percentage: '10.00000' } });
    const first = await pay(merchant, code, { amount: { value: '100.05', currency: 'COP' } });
    const second = await pay(merchant, code, { amount: { value: '20.00', currency: 'COP' } });
    // 10% of 100.05 is 10.005: half a cent rounds up.
    expect([first.amount.value, first.tip?.value]).toEqual(['110.06', '10.01']);
    expect([second.amount.value, second.tip?.value]).toEqual(['22.00', '2.00']);
    const ledger = await ledgerOf(merchant.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([132_06, 132_06]);
    expect((await table.scan((i) => i['pk'] === `QRCODE#${code.id}`))[0]).toMatchObject({ status: 'ACTIVE' });
  });

  it('nothing is written for a deleted code, an inactive merchant or a suspended key', async () => {
    const merchant = await storedMerchant(tenant(), 0);
    const deleted = await storedQrCode(merchant, { amount: { value: '5.00', currency: 'COP' } });
    await dynamoQrCodeStore.markDeleted(deleted, new Date().toISOString());
    const deletedError = await errorOf(pay(merchant, deleted));
    expect([deletedError.code, deletedError.extensions['qr_code_status']]).toEqual([
      'QR_CODE_STATUS_CONFLICT',
      'DELETED',
    ]);

    const suspended = await storedQrCode(merchant, { amount: { value: '5.00', currency: 'COP' } });
    const key = (await dynamoKeyStore.get(suspended.key_id))!;
    await dynamoKeyStore.transition(key, 'SUSPENDED', new Date().toISOString());
    const keyError = await errorOf(pay(merchant, suspended));
    expect([keyError.code, keyError.extensions['key_status']]).toEqual(['KEY_STATUS_CONFLICT', 'SUSPENDED']);

    const active = await storedQrCode(merchant, { type: 'DYNAMIC', amount: { value: '5.00', currency: 'COP' } });
    await dynamoCustomerStore.updateStatus(merchant.customer, 'INACTIVE', new Date().toISOString());
    expect((await errorOf(pay(merchant, active))).code).toBe('CUSTOMER_INACTIVE');
    // Still payable once the merchant is active again: the refusal wrote nothing, not even PAID.
    expect((await table.scan((i) => i['pk'] === `QRCODE#${active.id}`))[0]).toMatchObject({ status: 'ACTIVE' });

    expect(await paymentItems(merchant)).toEqual([]);
    expect((await ledgerOf(merchant.account.id)).balanceCents).toBe(0);
  });
});
