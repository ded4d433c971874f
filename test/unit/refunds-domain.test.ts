/**
 * The refund rules without DynamoDB: what can be refunded (direction, status, the window), how much
 * (the remainder by default, never more), the order of the checks of POST /v1/payments/{id}/refunds
 * with the store's answers given, the refund object and its events, and the network's answers.
 */
import type { StoredAccount } from '../../shared/domain/accounts';
import { AppError } from '../../shared/domain/errors';
import type { DomainEvent } from '../../shared/domain/events';
import type { StoredPayment } from '../../shared/domain/payments';
import { publicPayment } from '../../shared/domain/payments';
import { refundTransfer, settleRefund } from '../../shared/domain/refund-settlement';
import {
  createRefund,
  keyedRefundId,
  refundableCents,
  refundAmountCents,
  type CreateRefundDeps,
  type RefundAnswerResult,
  type RefundInsertResult,
  type RefundWrite,
  type StoredRefund,
} from '../../shared/domain/refunds';
import { sandboxNetwork, type NetworkTransfer } from '../../shared/domain/settlement';
import type { CustomerStatus } from '../../shared/schemas/customers';

const CREATED = '2026-08-01T12:00:00.000Z';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.parse(CREATED) + days * DAY).toISOString();

const payment = (overrides: Partial<StoredPayment> = {}): StoredPayment => ({
  id: '0b8c1f6e-6f7a-4c59-9a51-000000000001',
  tenant: 'client-a',
  customer_id: 'c1',
  account_id: 'a1',
  direction: 'INBOUND',
  status: 'SETTLED',
  amount_cents: 10_000,
  counterparty: {
    owner: { identification_type: 'CC', identification_number: '1020304050', type: 'PERSON', first_name: 'Ana' },
    participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
    account: { account_number: '4001002003', account_type: 'SAVINGS' },
  },
  created_at: CREATED,
  updated_at: CREATED,
  ...overrides,
});

const codeOf = async (promise: Promise<unknown>): Promise<string> =>
  promise.then(
    () => 'no error',
    (error: unknown) => (error instanceof AppError ? error.code : String(error)),
  );
const codeOfCall = (call: () => unknown): Promise<string> => codeOf(Promise.resolve().then(call));

describe('refundableCents', () => {
  test('a SETTLED INBOUND payment within the window: what is left of its amount', () => {
    expect(refundableCents(payment(), at(1), 90)).toBe(10_000);
    expect(refundableCents(payment({ refunded_amount_cents: 2_500 }), at(1), 90)).toBe(7_500);
    expect(refundableCents(payment({ refunded_amount_cents: 10_000 }), at(1), 90)).toBe(0);
  });

  test.each([
    ['OUTBOUND', 'SETTLED'],
    ['OUTBOUND', 'PENDING'],
    ['INBOUND', 'PROCESSING'],
    ['INBOUND', 'REJECTED'],
  ] as const)('a %s %s payment is PAYMENT_NOT_REFUNDABLE', async (direction, status) => {
    expect(await codeOfCall(() => refundableCents(payment({ direction, status }), at(1), 90))).toBe(
      'PAYMENT_NOT_REFUNDABLE',
    );
  });

  test('the window holds to its last millisecond, then REFUND_WINDOW_EXPIRED', async () => {
    expect(refundableCents(payment(), at(90), 90)).toBe(10_000);
    const justAfter = new Date(Date.parse(at(90)) + 1).toISOString();
    expect(await codeOfCall(() => refundableCents(payment(), justAfter, 90))).toBe('REFUND_WINDOW_EXPIRED');
    expect(await codeOfCall(() => refundableCents(payment(), at(8), 7))).toBe('REFUND_WINDOW_EXPIRED');
  });
});

describe('refundAmountCents', () => {
  test('without an amount: the whole remainder', () => {
    expect(refundAmountCents('p', undefined, 7_500)).toBe(7_500);
  });

  test('an amount up to the remainder, to the cent', () => {
    expect(refundAmountCents('p', { value: '75.00', currency: 'COP' }, 7_500)).toBe(7_500);
    expect(refundAmountCents('p', { value: '0.01', currency: 'COP' }, 7_500)).toBe(1);
  });

  test('more than the remainder, or nothing left, is REFUND_EXCEEDS_REMAINING; 0.00 is invalid', async () => {
    expect(await codeOfCall(() => refundAmountCents('p', { value: '75.01', currency: 'COP' }, 7_500))).toBe(
      'REFUND_EXCEEDS_REMAINING',
    );
    expect(await codeOfCall(() => refundAmountCents('p', undefined, 0))).toBe('REFUND_EXCEEDS_REMAINING');
    expect(await codeOfCall(() => refundAmountCents('p', { value: '0.00', currency: 'COP' }, 7_500))).toBe(
      'VALIDATION_FAILED',
    );
  });
});

describe('createRefund', () => {
  function deps(stored: StoredPayment | undefined, result: RefundInsertResult = { written: true }) {
    const writes: RefundWrite[] = [];
    const scheduled: string[] = [];
    const refunds = new Map<string, StoredRefund>();
    let ids = 0;
    const d: CreateRefundDeps = {
      clock: { now: () => at(1) },
      ids: { newId: () => `event-${++ids}` },
      payments: { get: async (id) => (stored?.id === id ? stored : undefined) },
      refunds: {
        get: async (id) => refunds.get(id),
        insert: async (write) => {
          writes.push(write);
          if (result.written) refunds.set(write.refund.id, write.refund);
          return result;
        },
      },
      queue: { schedule: async (id) => void scheduled.push(id) },
      delayMs: 1000,
      windowDays: 90,
      participantNit: '860000001',
    };
    return { d, writes, scheduled, refunds };
  }

  test('writes the refund PENDING with refund.created (data: the refund as GET answers it), then queues its job', async () => {
    const { d, writes, scheduled } = deps(payment({ refunded_amount_cents: 2_500 }));
    const answer = await createRefund(d, 'client-a', payment().id.toUpperCase(), { reason: 'Devolución' }, 'key-1');
    expect(answer).toEqual({
      id: keyedRefundId('client-a', 'key-1'),
      payment_id: payment().id,
      customer_id: 'c1',
      account_id: 'a1',
      amount: { currency: 'COP', value: '75.00' },
      reason: 'Devolución',
      status: 'PENDING',
      created_at: at(1),
      updated_at: at(1),
    });
    expect(writes).toHaveLength(1);
    expect(writes[0]!.paymentAmountCents).toBe(10_000);
    expect(writes[0]!.refund.counterparty).toEqual(payment().counterparty);
    expect(writes[0]!.workDueAt).toBe(new Date(Date.parse(at(1)) + 1000).toISOString());
    expect(writes[0]!.events.map((e: DomainEvent) => [e.type, e.tenant, e.data])).toEqual([
      ['refund.created', 'client-a', answer],
    ]);
    expect(scheduled).toEqual([answer.id]);
  });

  test('the checks in order: the key, the payment (another client: 404), refundable, the window, the amount', async () => {
    const settled = payment();
    expect(await codeOf(createRefund(deps(settled).d, 'client-a', settled.id, {}, undefined))).toBe(
      'IDEMPOTENCY_KEY_REQUIRED',
    );
    expect(await codeOf(createRefund(deps(undefined).d, 'client-a', settled.id, {}, 'k'))).toBe('NOT_FOUND');
    expect(await codeOf(createRefund(deps(settled).d, 'client-b', settled.id, {}, 'k'))).toBe('NOT_FOUND');
    const outbound = payment({ direction: 'OUTBOUND', created_at: at(-100) });
    expect(await codeOf(createRefund(deps(outbound).d, 'client-a', settled.id, {}, 'k'))).toBe(
      'PAYMENT_NOT_REFUNDABLE',
    );
    const old = payment({ created_at: at(-100), refunded_amount_cents: 10_000 });
    expect(await codeOf(createRefund(deps(old).d, 'client-a', settled.id, {}, 'k'))).toBe('REFUND_WINDOW_EXPIRED');
    const spent = payment({ refunded_amount_cents: 10_000 });
    expect(await codeOf(createRefund(deps(spent).d, 'client-a', settled.id, {}, 'k'))).toBe('REFUND_EXCEEDS_REMAINING');
  });

  const fromOwnMerchant = (overrides: Partial<StoredPayment> = {}) =>
    payment({
      counterparty: { ...payment().counterparty, participant: { name: 'Sponsor', identification_number: '860000001' } },
      ...overrides,
    });

  test("a payment from one of our own merchants: the refund names the payer's payment and account", async () => {
    const own = fromOwnMerchant({ own_payer: { payment_id: 'p-payer', account_id: 'a-payer' } });
    const { d, writes } = deps(own);
    const made = await createRefund(d, 'client-a', own.id, {}, 'k');
    expect(writes.map((write) => write.refund.own_payer)).toEqual([{ payment_id: 'p-payer', account_id: 'a-payer' }]);
    // Internal: the refund's answer does not show it.
    expect(made).not.toHaveProperty('own_payer');
  });

  test("one received before the payer's account was kept on it is PAYMENT_NOT_REFUNDABLE: nothing is written", async () => {
    const own = fromOwnMerchant();
    const { d, writes } = deps(own);
    expect(await codeOf(createRefund(d, 'client-a', own.id, {}, 'k'))).toBe('PAYMENT_NOT_REFUNDABLE');
    expect(writes).toEqual([]);
  });

  test("the transaction's refusals: the remainder taken meanwhile, the merchant's funds", async () => {
    const settled = payment();
    const raced = deps(settled, { written: false, reason: 'exceeds_remaining' });
    expect(await codeOf(createRefund(raced.d, 'client-a', settled.id, {}, 'k'))).toBe('REFUND_EXCEEDS_REMAINING');
    const poor = deps(settled, { written: false, reason: 'insufficient_funds' });
    // A conflict with the merchant's balance: 409, where a payment answers the same code 400.
    const refused = await createRefund(poor.d, 'client-a', settled.id, {}, 'k').catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_FUNDS', kind: 'conflict' });
    expect([...raced.scheduled, ...poor.scheduled]).toEqual([]);
  });

  test('a request under the same key that committed after the key was looked for: its refund, not the remainder it took', async () => {
    // The other request's refund is not there at the look-up, and has taken the whole remainder at the payment's read.
    const theirs = deps(payment());
    const first = await createRefund(theirs.d, 'client-a', payment().id, {}, 'k');
    const taken = deps(payment({ refunded_amount_cents: 10_000 }));
    let lookups = 0;
    taken.d.refunds.get = async (id) => (++lookups === 1 ? undefined : theirs.refunds.get(id));
    expect(await createRefund(taken.d, 'client-a', payment().id, {}, 'k')).toEqual(first);
    expect(taken.writes).toEqual([]);
    // Without one, the remainder's refusal stands.
    expect(
      await codeOf(createRefund(deps(payment({ refunded_amount_cents: 10_000 })).d, 'client-a', payment().id, {}, 'k')),
    ).toBe('REFUND_EXCEEDS_REMAINING');
  });

  test("a key's refund is answered again (its job queued again while PENDING); another request under it is 409", async () => {
    const { d, writes, scheduled } = deps(payment());
    const first = await createRefund(d, 'client-a', payment().id, { amount: { value: '10.00', currency: 'COP' } }, 'k');
    const again = await createRefund(d, 'client-a', payment().id, { amount: { value: '10.00', currency: 'COP' } }, 'k');
    expect(again).toEqual(first);
    expect(writes).toHaveLength(1);
    expect(scheduled).toEqual([first.id, first.id]);
    expect(
      await codeOf(createRefund(d, 'client-a', payment().id, { amount: { value: '11.00', currency: 'COP' } }, 'k')),
    ).toBe('IDEMPOTENCY_KEY_REUSED');
    // Keys are the client's own: another client's same key is another refund.
    expect(keyedRefundId('client-b', 'k')).not.toBe(keyedRefundId('client-a', 'k'));
  });
});

describe('the refund as a transfer, and its settlement', () => {
  const pending: StoredRefund = {
    id: 'r1',
    tenant: 'client-a',
    payment_id: payment().id,
    customer_id: 'c1',
    account_id: 'a1',
    amount_cents: 1_099,
    status: 'PENDING',
    counterparty: payment().counterparty,
    created_at: at(1),
    updated_at: at(1),
  };

  test('an OUTBOUND transfer of the merchant to the payer, under the refund id: the sandbox rejects .99', async () => {
    expect(refundTransfer(pending, 'E2E1')).toMatchObject({
      id: 'r1',
      direction: 'OUTBOUND',
      counterparty: pending.counterparty,
      // To the network, a return of the credit the payment came by.
      kind: 'RETURN',
      original_end_to_end_id: 'E2E1',
    });
    expect(await sandboxNetwork.answer(refundTransfer(pending, 'E2E1'))).toEqual({
      status: 'REJECTED',
      reason: 'NETWORK_REJECTED',
    });
    expect(await sandboxNetwork.answer(refundTransfer({ ...pending, amount_cents: 1_000 }, 'E2E1'))).toEqual({
      status: 'SETTLED',
    });
  });

  test("the network is asked for a RETURN of the refunded payment's credit, read from the payment", async () => {
    const asked: NetworkTransfer[] = [];
    const d = {
      clock: { now: () => at(2) },
      ids: { newId: () => 'e1' },
      network: {
        answer: async (transfer: NetworkTransfer) => {
          asked.push(transfer);
          return undefined;
        },
      },
      payments: {
        get: async (id: string) => (id === pending.payment_id ? payment({ end_to_end_id: 'E2E7' }) : undefined),
      },
      refunds: {
        markInReview: async () => false,
        get: async () => pending,
        answer: async () => ({ written: true }) as const,
      },
      accounts: { get: async () => undefined },
    };
    expect(await settleRefund(d, 'r1')).toBe(pending);
    expect(asked.map((transfer) => [transfer.id, transfer.kind, transfer.original_end_to_end_id])).toEqual([
      ['r1', 'RETURN', 'E2E7'],
    ]);
  });

  test('the job answers a PENDING refund once, with its event; an answered one is left as it is', async () => {
    const answered: [StoredRefund, readonly DomainEvent[]][] = [];
    let current = pending;
    const d = {
      clock: { now: () => at(2) },
      ids: { newId: () => 'e1' },
      network: sandboxNetwork,
      payments: { get: async () => payment({ end_to_end_id: 'E2E1' }) },
      refunds: {
        // Never past a review's wait here: no deps.review is given.
        markInReview: async () => false,
        get: async () => current,
        answer: async (refund: StoredRefund, events: readonly DomainEvent[]) => {
          answered.push([refund, events]);
          current = refund;
          return { written: true } as const;
        },
      },
      accounts: { get: async () => undefined },
    };
    const rejected = await settleRefund(d, 'r1');
    expect(rejected).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED', updated_at: at(2) });
    expect(answered.map(([, events]) => events.map((e) => e.type))).toEqual([['refund.rejected']]);
    expect(await settleRefund(d, 'r1')).toBe(current);
    expect(answered).toHaveLength(1);
  });

  describe("a refund to one of our own merchants: the payer's account credited, not the network asked", () => {
    // .99: the sandbox network would reject it, so a SETTLED answer shows it was not asked.
    const ownRefund: StoredRefund = { ...pending, own_payer: { payment_id: 'p-payer', account_id: 'a-payer' } };
    const payerAccount = (customerStatus: CustomerStatus) => ({ customer_status: customerStatus }) as StoredAccount;

    function settling(account: StoredAccount | undefined, firstAnswer: RefundAnswerResult = { written: true }) {
      const answered: StoredRefund[] = [];
      let current = ownRefund;
      const d = {
        clock: { now: () => at(2) },
        ids: { newId: () => 'e1' },
        network: {
          answer: async () => {
            throw new Error('the network is not asked');
          },
        },
        payments: { get: async () => payment() },
        refunds: {
          // Never past a review's wait here: no deps.review is given.
          markInReview: async () => false,
          get: async () => current,
          answer: async (refund: StoredRefund) => {
            answered.push(refund);
            if (answered.length === 1 && !firstAnswer.written) return firstAnswer;
            current = refund;
            return { written: true } as const;
          },
        },
        accounts: { get: async (id: string) => (id === 'a-payer' ? account : undefined) },
      };
      return { d, answered };
    }

    test('an ACTIVE merchant: SETTLED, its credit in the answer (the store writes them as one)', async () => {
      const { d, answered } = settling(payerAccount('ACTIVE'));
      expect(await settleRefund(d, 'r1')).toMatchObject({ status: 'SETTLED', own_payer: ownRefund.own_payer });
      expect(answered.map((refund) => refund.status)).toEqual(['SETTLED']);
    });

    test.each([
      ['no longer exists', undefined],
      ['is INACTIVE', payerAccount('INACTIVE')],
    ])('REJECTED PAYER_INACTIVE, its hold released, when the account %s', async (_, account) => {
      const { d, answered } = settling(account);
      expect(await settleRefund(d, 'r1')).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYER_INACTIVE' });
      expect(answered.map((refund) => refund.status)).toEqual(['REJECTED']);
    });

    test('REJECTED PAYER_INACTIVE when the account is gone by the time the credit is written', async () => {
      const { d, answered } = settling(payerAccount('ACTIVE'), { written: false, reason: 'payer_account_missing' });
      expect(await settleRefund(d, 'r1')).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYER_INACTIVE' });
      expect(answered.map((refund) => refund.status)).toEqual(['SETTLED', 'REJECTED']);
    });
  });
});

test('a payment shows refunded_amount when INBOUND only', () => {
  expect(publicPayment(payment({ refunded_amount_cents: 2_500 })).refunded_amount).toEqual({
    currency: 'COP',
    value: '25.00',
  });
  expect(publicPayment(payment()).refunded_amount).toEqual({ currency: 'COP', value: '0.00' });
  expect(publicPayment(payment({ direction: 'OUTBOUND' }))).not.toHaveProperty('refunded_amount');
});
