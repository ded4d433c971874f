/**
 * Moves on an account's ledger through the one write path of money (writePayment), at chosen times:
 * a SETTLED payment per move, INBOUND for a credit and OUTBOUND for a debit.
 */
import { randomUUID } from 'node:crypto';
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredPayment } from '../../shared/domain/payments';
import { writePayment, type PaymentWriteOutcome } from '../../shared/data/payments-repository';

/** A SETTLED payment of `cents` (signed) on the account at `at`, written with its move; false when refused. */
export async function moveAt(account: StoredAccount, at: string, cents: number): Promise<boolean> {
  const outcome = await writeMove(account, at, cents);
  return outcome.written;
}

/**
 * writePayment's outcome for a SETTLED payment of `cents` (signed) on the account at `at`, with its
 * move; `paymentId` names it, as a network credit's end-to-end id does (a copy writes the same id).
 */
export function writeMove(
  account: StoredAccount,
  at: string,
  cents: number,
  paymentId: string = randomUUID(),
): Promise<PaymentWriteOutcome> {
  const payment: StoredPayment = {
    id: paymentId,
    tenant: account.tenant,
    customer_id: account.customer_id,
    account_id: account.id,
    direction: cents < 0 ? 'OUTBOUND' : 'INBOUND',
    status: 'SETTLED',
    amount_cents: Math.abs(cents),
    counterparty: {
      owner: { identification_type: 'CC', identification_number: '1', type: 'PERSON' },
      participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      account: { account_number: '1', account_type: 'SAVINGS' },
    },
    created_at: at,
    updated_at: at,
    settled_at: at,
  };
  return writePayment({
    payments: [payment],
    moves: [{ accountId: account.id, paymentId: payment.id, amountCents: cents }],
    events: [],
  });
}
