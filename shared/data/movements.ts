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

/**
 * HOLD_RELEASE: a rejected payment's or refund's amount given back to the account (docs/payments.md);
 * REFUND: a refund's hold, the merchant's debit (docs/refunds.md).
 */
export type MovementKind = 'OPENING_BALANCE' | 'PAYMENT' | 'REFUND' | 'HOLD_RELEASE';

/** What caused a movement: a payment, and for a refund's movements the refund too. */
interface MovementCause {
  readonly payment_id?: string;
  readonly refund_id?: string;
}

const movementPut = (
  accountId: string,
  at: string,
  ref: string,
  kind: MovementKind,
  amountCents: number,
  cause: MovementCause = {},
) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...itemKeys.movement(accountId, at, ref),
      entity: 'MOVEMENT',
      account_id: accountId,
      kind,
      amount_cents: amountCents,
      ...cause,
      created_at: at,
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The first movement of a newly linked account: its opening available balance. */
export const openingMovement = (account: StoredAccount) =>
  movementPut(account.id, account.created_at, 'OPENING', 'OPENING_BALANCE', account.available_balance_cents);

/**
 * The transaction items of one payment's balance move: the account's update and its movement. A
 * payment's release of its hold is a movement of its own (another kind and sort key than the debit).
 */
export function balanceMoveItems(move: BalanceMove, at: string, kind: 'PAYMENT' | 'HOLD_RELEASE' = 'PAYMENT') {
  return {
    update: balanceUpdate(move.accountId, move.amountCents, at),
    movement: movementPut(
      move.accountId,
      at,
      kind === 'PAYMENT' ? move.paymentId : `${move.paymentId}#${kind}`,
      kind,
      move.amountCents,
      { payment_id: move.paymentId },
    ),
  };
}

/**
 * The items of a refund's balance move (docs/refunds.md): its hold (REFUND, a debit under the same
 * funds condition as a payment's) or the release of a rejected refund's hold (HOLD_RELEASE). Their
 * movements carry refund_id (and the refunded payment's id), and are keyed by the refund.
 */
export function refundMoveItems(
  move: {
    readonly accountId: string;
    readonly refundId: string;
    readonly paymentId: string;
    readonly amountCents: number;
  },
  at: string,
  kind: 'REFUND' | 'HOLD_RELEASE',
) {
  return {
    update: balanceUpdate(move.accountId, move.amountCents, at),
    movement: movementPut(
      move.accountId,
      at,
      kind === 'REFUND' ? move.refundId : `${move.refundId}#${kind}`,
      kind,
      move.amountCents,
      { payment_id: move.paymentId, refund_id: move.refundId },
    ),
  };
}

/**
 * The update of an account's available balance by `amountCents`: a debit holds only while the
 * balance covers it (never below zero); a credit only on an existing account. The balance is part of
 * the account's representation, so its updated_at moves too.
 */
function balanceUpdate(accountId: string, amountCents: number, at: string) {
  const debit = amountCents < 0;
  const moved = updatedAtKeys(accountId, at, true);
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.account(accountId),
      UpdateExpression: 'ADD available_balance_cents :amount SET updated_at = :at, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk',
      ConditionExpression: debit ? 'available_balance_cents >= :needed' : 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':amount': amountCents,
        ':at': at,
        ':gsi2sk': moved.gsi2sk,
        ':gsi4sk': moved.gsi4sk,
        ...(debit ? { ':needed': -amountCents } : {}),
      },
    },
  };
}
