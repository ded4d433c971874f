/**
 * The ledger of an account's available balance (docs/payments.md): one MOVEMENT item per change, in
 * the account's item collection, written by the same transaction as the change. The opening balance
 * (the sponsor bank's, when the account is linked) is the first movement, each payment's debit or
 * credit the next ones, so the balance is always the sum of the account's movements.
 */
import type { StoredAccount } from '../domain/accounts';
import type { BalanceMove } from '../domain/payments';
import { tableName } from './client';
import { itemKeys } from './item-keys';

/** HOLD_RELEASE: a rejected payment's amount given back to the payer (docs/payments.md). */
export type MovementKind = 'OPENING_BALANCE' | 'PAYMENT' | 'HOLD_RELEASE';

const movementPut = (
  accountId: string,
  at: string,
  ref: string,
  kind: MovementKind,
  amountCents: number,
  paymentId?: string,
) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...itemKeys.movement(accountId, at, ref),
      entity: 'MOVEMENT',
      account_id: accountId,
      kind,
      amount_cents: amountCents,
      ...(paymentId ? { payment_id: paymentId } : {}),
      created_at: at,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The first movement of a newly linked account: its opening available balance. */
export const openingMovement = (account: StoredAccount) =>
  movementPut(account.id, account.created_at, 'OPENING', 'OPENING_BALANCE', account.available_balance_cents);

/**
 * The transaction items of one balance move: the account's update and its movement. A debit holds
 * only while the available balance covers it (never below zero); a credit only on an existing
 * account. A payment's release of its hold is a movement of its own (another kind and sort key than
 * the debit).
 *
 * The balance moves with every payment and is not a change of the account: its updated_at (and its
 * place in the account lists by update, gsi2 and gsi4 with their keys-only twins) stays. Moving it
 * cost 16 of a payment's 60 write units (a delete and a put in four indexes, doubled in the
 * transaction), and at 1,000 payments a second of one client it would write 4,000 units a second to
 * the client's one account-list partition of each index, four times what a partition takes
 * (docs/scale.md).
 */
export function balanceMoveItems(move: BalanceMove, at: string, kind: 'PAYMENT' | 'HOLD_RELEASE' = 'PAYMENT') {
  const debit = move.amountCents < 0;
  return {
    update: {
      Update: {
        TableName: tableName(),
        Key: itemKeys.account(move.accountId),
        UpdateExpression: 'ADD available_balance_cents :amount',
        ConditionExpression: debit ? 'available_balance_cents >= :needed' : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':amount': move.amountCents,
          ...(debit ? { ':needed': -move.amountCents } : {}),
        },
      },
    },
    movement: movementPut(
      move.accountId,
      at,
      kind === 'PAYMENT' ? move.paymentId : `${move.paymentId}#${kind}`,
      kind,
      move.amountCents,
      move.paymentId,
    ),
  };
}
