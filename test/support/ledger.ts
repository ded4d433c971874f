/**
 * Moves on an account's ledger through the write paths of money (writePayment, the refund store), at
 * chosen times: a SETTLED payment per move, INBOUND for a credit and OUTBOUND for a debit; a refund of
 * a received payment (its hold) and the rejection that releases it.
 */
import { randomUUID } from 'node:crypto';
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredPayment } from '../../shared/domain/payments';
import type { RefundInsertResult, StoredRefund } from '../../shared/domain/refunds';
import { writePayment, type PaymentWriteOutcome } from '../../shared/data/payments-repository';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';

/** Why the store refused a refund. */
type RefundRefusal = Extract<RefundInsertResult, { written: false }>['reason'];

const COUNTERPARTY: StoredPayment['counterparty'] = {
  owner: { identification_type: 'CC', identification_number: '1', type: 'PERSON' },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '1', account_type: 'SAVINGS' },
};

const settledPayment = (account: StoredAccount, at: string, cents: number, paymentId: string): StoredPayment => ({
  id: paymentId,
  tenant: account.tenant,
  customer_id: account.customer_id,
  account_id: account.id,
  direction: cents < 0 ? 'OUTBOUND' : 'INBOUND',
  status: 'SETTLED',
  amount_cents: Math.abs(cents),
  counterparty: COUNTERPARTY,
  created_at: at,
  updated_at: at,
  settled_at: at,
});

/** Writes a SETTLED payment with its account's move of `cents` (signed). */
const writeSettled = (payment: StoredPayment, cents: number): Promise<PaymentWriteOutcome> =>
  writePayment({
    payments: [payment],
    moves: [{ accountId: payment.account_id, paymentId: payment.id, amountCents: cents }],
    events: [],
  });

/** A SETTLED payment of `cents` (signed) on the account at `at`, written with its move; undefined when refused. */
export async function paymentAt(account: StoredAccount, at: string, cents: number): Promise<StoredPayment | undefined> {
  const payment = settledPayment(account, at, cents, randomUUID());
  const outcome = await writeSettled(payment, cents);
  return outcome.written ? payment : undefined;
}

/**
 * writePayment's outcome for a SETTLED payment of `cents` (signed) on the account at `at`, with its
 * move; `paymentId` names it, as a network credit's end-to-end id does (a copy writes the same id).
 */
export const writeMove = (
  account: StoredAccount,
  at: string,
  cents: number,
  paymentId: string = randomUUID(),
): Promise<PaymentWriteOutcome> => writeSettled(settledPayment(account, at, cents, paymentId), cents);

/** paymentAt, answering whether it was written. */
export const moveAt = async (account: StoredAccount, at: string, cents: number): Promise<boolean> =>
  (await paymentAt(account, at, cents)) !== undefined;

/**
 * A PENDING refund of `cents` of a received payment at `at`, written with its hold; the store's
 * refusal when refused.
 */
export async function refundAt(
  payment: StoredPayment,
  at: string,
  cents: number,
): Promise<StoredRefund | RefundRefusal> {
  const refund: StoredRefund = {
    id: randomUUID(),
    tenant: payment.tenant,
    payment_id: payment.id,
    customer_id: payment.customer_id,
    account_id: payment.account_id,
    amount_cents: cents,
    status: 'PENDING',
    counterparty: payment.counterparty,
    created_at: at,
    updated_at: at,
  };
  const outcome = await dynamoRefundStore.insert({
    refund,
    paymentAmountCents: payment.amount_cents,
    paymentReversedCents: payment.reversed_amount_cents ?? 0,
    events: [],
    workDueAt: at,
  });
  return outcome.written ? refund : outcome.reason;
}

/** The network's rejection of a PENDING refund at `at`: its hold released; false when answered already. */
export const rejectRefundAt = async (refund: StoredRefund, at: string): Promise<boolean> =>
  (
    await dynamoRefundStore.answer(
      { ...refund, status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED', updated_at: at },
      [],
    )
  ).written;
