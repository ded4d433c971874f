/**
 * The ledger of an account's available balance (docs/payments.md): one MOVEMENT item per change, in
 * the account's item collection, written by the same transaction as the change. The opening balance
 * (the sponsor bank's, when the account is linked) is the first movement, each payment's debit or
 * credit the next ones, so the balance is always the sum of the account's movements.
 */
import type { StoredAccount } from '../domain/accounts';
import type { BalanceMove } from '../domain/payments';
import { tableName } from './client';
import { itemKeys, updatedAtKeys } from './item-keys';

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
 * account. The balance is part of the account's representation, so its updated_at moves too. A
 * payment's release of its hold is a movement of its own (another kind and sort key than the debit).
 */
export function balanceMoveItems(move: BalanceMove, at: string, kind: 'PAYMENT' | 'HOLD_RELEASE' = 'PAYMENT') {
  const debit = move.amountCents < 0;
  const moved = updatedAtKeys(move.accountId, at, true);
  return {
    update: {
      Update: {
        TableName: tableName(),
        Key: itemKeys.account(move.accountId),
        UpdateExpression:
          'ADD available_balance_cents :amount SET updated_at = :at, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk',
        ConditionExpression: debit ? 'available_balance_cents >= :needed' : 'attribute_exists(pk)',
        ExpressionAttributeValues: {
          ':amount': move.amountCents,
          ':at': at,
          ':gsi2sk': moved.gsi2sk,
          ':gsi4sk': moved.gsi4sk,
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
