/**
 * The ledger of an account's available balance (docs/payments.md, docs/reconciliation.md): one
 * MOVEMENT item per change, in the account's item collection, written by the same transaction as the
 * change. The opening balance (the sponsor bank's, when the account is linked) is the first movement,
 * each payment's debit or credit and each refund's hold or release the next ones, so the balance is
 * always the sum of the account's movements.
 *
 * Ledger days: so that a day's statement never reads the days before it, the account's balance item
 * (shared/data/balances.ts) keeps the Colombian day of its latest movement (`lday`) and its balance
 * before that day's first movement (`lday_open`). Every move holds only while the account is on its day; the
 * first move of a new day rolls it (the opening is the balance DynamoDB holds at that commit) and
 * seals the day it leaves as a LEDGER_DAY item with that day's opening.
 */
import type { StoredAccount } from '../domain/accounts';
import { colombiaDay, dayBounds } from '../calendar/colombia-days';
import type { MovementKind } from '../domain/ledger';
import type { BalanceMove } from '../domain/payments';
import { tableName } from './client';
import { itemKeys } from './item-keys';
import type { TransactItem } from './transactions';

/** What a refused move showed of its account's ledger: the day it is on and that day's opening. */
export interface LedgerDaySeen {
  /** Undefined on an account linked before ledger days: its first move since starts one. */
  readonly day?: string;
  readonly openingCents?: number;
}

/** The ledger an account's old image shows. */
export const ledgerDaySeen = (old: Record<string, unknown>): LedgerDaySeen => ({
  ...(typeof old['lday'] === 'string' ? { day: old['lday'] } : {}),
  ...(typeof old['lday_open'] === 'number' ? { openingCents: old['lday_open'] } : {}),
});

/** What caused a movement: a payment, and for a refund's movements the refund too. */
interface MovementCause {
  readonly payment_id?: string;
  readonly refund_id?: string;
  readonly reversal_id?: string;
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

/** The sealed opening of a day the account's ledger left (a statement of that day reads it). */
const sealedDayPut = (accountId: string, day: string, openingCents: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...itemKeys.ledgerDay(accountId, day), entity: 'LEDGER_DAY', opening_balance_cents: openingCents },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** One change of an account's available balance: what it is, and the movement that records it. */
interface LedgerMove {
  readonly accountId: string;
  /** Signed: a debit is negative. */
  readonly amountCents: number;
  /** Unique among the account's movements of the same time: with it, the movement's sort key. */
  readonly ref: string;
  readonly kind: MovementKind;
  readonly cause: MovementCause;
  /** A debit the account takes whatever its balance (a reversal: the bank has taken the money already). */
  readonly overdraws?: boolean;
}

/** A balance move's transaction items (ledgerMoveItems). */
export interface MoveItems {
  readonly update: TransactItem;
  readonly movement: TransactItem;
  /** On the first move of a day, the seal of the day the ledger leaves. */
  readonly sealed: readonly TransactItem[];
  /** The ledger day the update holds for (undefined: none yet). */
  readonly heldForDay: string | undefined;
}

/**
 * The transaction items of one balance move: the account's update, its movement and, on the first move
 * of a day, the seal of the day the ledger leaves. A debit holds only while the available balance
 * covers it (never below zero); a credit only on an existing account; either only while the account
 * is on the ledger day `seen` says (by default, the move's own day).
 *
 * A move dated before the day its account is already on (it committed just after another one rolled
 * the day, a few milliseconds around midnight) is booked at the start of that day, so every day's
 * movements still lead from its opening to the next day's.
 *
 * The balance is not a change of the account: it moves in the account's balance item
 * (shared/data/balances.ts), and the account item, its updated_at and its four list copies stay.
 */
function ledgerMoveItems(move: LedgerMove, at: string, seen?: LedgerDaySeen): MoveItems {
  const debit = move.amountCents < 0;
  const bookedAt = seen?.day !== undefined && seen.day > colombiaDay(at) ? dayBounds(seen.day).start : at;
  const day = colombiaDay(bookedAt);
  const rolls = seen !== undefined && seen.day !== day;
  const covered = debit && !move.overdraws;
  const funds = covered ? 'available_balance_cents >= :needed' : 'attribute_exists(pk)';
  const onDay = !rolls ? 'lday = :day' : seen.day === undefined ? 'attribute_not_exists(lday)' : 'lday = :seenDay';
  return {
    update: {
      Update: {
        TableName: tableName(),
        Key: itemKeys.accountBalance(move.accountId),
        UpdateExpression:
          'ADD available_balance_cents :amount, moves :one' +
          // The opening is the balance before this move, as DynamoDB holds it at this commit.
          (rolls ? ' SET lday = :day, lday_open = available_balance_cents' : ''),
        ConditionExpression: `${funds} AND ${onDay}`,
        ExpressionAttributeValues: {
          ':amount': move.amountCents,
          ':one': 1,
          ':day': day,
          ...(rolls && seen.day !== undefined ? { ':seenDay': seen.day } : {}),
          ...(covered ? { ':needed': -move.amountCents } : {}),
        },
        // The old image says which: the funds, or a ledger day another move rolled; none, an account
        // without a balance item (a legacy one, or none at all).
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
      },
    },
    movement: movementPut(move.accountId, bookedAt, move.ref, move.kind, move.amountCents, move.cause),
    sealed: rolls && seen.day !== undefined ? [sealedDayPut(move.accountId, seen.day, seen.openingCents ?? 0)] : [],
    heldForDay: rolls ? seen.day : day,
  };
}

/**
 * A payment's balance move (ledgerMoveItems). A payment's release of its hold is a movement of its
 * own (another kind and sort key than the debit).
 */
export const balanceMoveItems = (
  move: BalanceMove,
  at: string,
  kind: 'PAYMENT' | 'HOLD_RELEASE' = 'PAYMENT',
  seen?: LedgerDaySeen,
): MoveItems =>
  ledgerMoveItems(
    {
      accountId: move.accountId,
      amountCents: move.amountCents,
      ref: kind === 'PAYMENT' ? move.paymentId : `${move.paymentId}#${kind}`,
      kind,
      cause: { payment_id: move.paymentId },
    },
    at,
    seen,
  );

/** A refund's balance move: the merchant's debit or its return, and the refunded payment. */
export interface RefundMove {
  readonly accountId: string;
  readonly refundId: string;
  readonly paymentId: string;
  readonly amountCents: number;
}

/**
 * A refund's balance move (docs/refunds.md, ledgerMoveItems): its hold (REFUND, a debit under the same
 * funds condition as a payment's) or the release of a rejected refund's hold (HOLD_RELEASE). Their
 * movements carry refund_id (and the refunded payment's id), and are keyed by the refund.
 */
export const refundMoveItems = (
  move: RefundMove,
  at: string,
  kind: 'REFUND' | 'HOLD_RELEASE',
  seen?: LedgerDaySeen,
): MoveItems =>
  ledgerMoveItems(
    {
      accountId: move.accountId,
      amountCents: move.amountCents,
      ref: kind === 'REFUND' ? move.refundId : `${move.refundId}#${kind}`,
      kind,
      cause: { payment_id: move.paymentId, refund_id: move.refundId },
    },
    at,
    seen,
  );

/**
 * What a refused move's account shows of its ledger when it was refused for its ledger day (the
 * account exists and is on another day than the move held for); undefined when the refusal is the
 * move's own (the funds, an account that does not exist).
 */
export function staleLedgerDay(
  heldForDay: string | undefined,
  old: Record<string, unknown> | undefined,
): LedgerDaySeen | undefined {
  if (!old) return undefined;
  const shown = ledgerDaySeen(old);
  return shown.day === heldForDay ? undefined : shown;
}

/**
 * A reversal's debit (docs/network.md, "Reversals"): taken in full, below zero if need be, keyed by
 * the reversal; its movement names the reversed payment and the reversal.
 */
export const reversalMoveItems = (
  move: {
    readonly accountId: string;
    readonly reversalId: string;
    readonly paymentId: string;
    readonly amountCents: number;
  },
  at: string,
  seen?: LedgerDaySeen,
): MoveItems =>
  ledgerMoveItems(
    {
      accountId: move.accountId,
      amountCents: -move.amountCents,
      ref: `REVERSAL#${move.reversalId}`,
      kind: 'REVERSAL',
      cause: { payment_id: move.paymentId, reversal_id: move.reversalId },
      overdraws: true,
    },
    at,
    seen,
  );
