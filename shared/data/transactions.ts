/** Reading why a DynamoDB transaction was cancelled, so a lost race becomes a clean 409. */
import { setTimeout as sleep } from 'node:timers/promises';
import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo, tableName } from './client';
import { holdTransaction } from './held-transaction';
import type { ItemKey } from './item-keys';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Attempts of a transaction that DynamoDB cancels for a conflict (list counters are shared items). */
const CONFLICT_ATTEMPTS = 6;

const isTransactionConflict = (error: unknown): boolean =>
  error instanceof TransactionCanceledException &&
  (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');

/**
 * Runs a write transaction. DynamoDB cancels one of two transactions touching the same item at the
 * same moment with `TransactionConflict` (the SDK does not retry it): retried briefly, the loser then
 * meets the winner's item and fails its condition, which the caller turns into a clean 409, or (when
 * the shared item was only a list counter) simply succeeds.
 *
 * Inside holdingTransaction (shared/data/held-transaction.ts) it sends nothing: the items are held, to
 * be committed with the request's answer.
 */
export async function transactWrite(input: TransactWriteCommandInput): Promise<void> {
  if (holdTransaction(input.TransactItems ?? [])) return;
  for (let attempt = 1; ; attempt += 1) {
    try {
      await dynamo().send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) throw error;
      // Exponential backoff with full jitter: 0-20 ms, 0-40 ms, ... 0-320 ms.
      await sleep(Math.floor(Math.random() * 10 * 2 ** attempt));
    }
  }
}

/**
 * The items whose condition failed, by position in the transaction (their old image when the
 * operation asked for ReturnValuesOnConditionCheckFailure), or undefined when the cancellation had
 * another cause.
 */
export function failedConditions(error: unknown): Map<number, Record<string, unknown> | undefined> | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  const reasons: CancellationReason[] = error.CancellationReasons ?? [];
  const failed = new Map<number, Record<string, unknown> | undefined>();
  reasons.forEach((reason, index) => {
    if (reason.Code === 'ConditionalCheckFailed') failed.set(index, reason.Item ? unmarshall(reason.Item) : undefined);
  });
  const onlyConditions = reasons.every((r) => !r.Code || r.Code === 'None' || r.Code === 'ConditionalCheckFailed');
  return failed.size > 0 && onlyConditions ? failed : undefined;
}

/**
 * A transaction item that holds only while the item's status is ACTIVE (`status` on customers and
 * keys, `account_status` on accounts): a check made in the same transaction as the write it guards.
 */
export const whileActive = (Key: ItemKey, statusAttribute = 'status') => ({
  ConditionCheck: {
    TableName: tableName(),
    Key,
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': statusAttribute },
    ExpressionAttributeValues: { ':active': 'ACTIVE' },
  },
});

/** An item of a write whose condition may fail, and what the write answers when it does. */
export interface Condition<R> {
  readonly item: TransactItem;
  /** `old` is the item's old image, when it asked for it (ReturnValuesOnConditionCheckFailure). */
  readonly refused: (old: Record<string, unknown> | undefined) => R | Promise<R>;
}

/** whileActive, answering `refusal` when the item is not ACTIVE. */
export const activeOr = <R>(refusal: R, key: ItemKey, statusAttribute?: string): Condition<R> => ({
  item: whileActive(key, statusAttribute),
  refused: () => refusal,
});

/**
 * Writes the conditions' items, then `items`, in one transaction. Undefined when written; when the
 * transaction was refused for conditions only, the answer of the first of `conditions` that failed.
 */
export async function writeUnless<R>(
  conditions: readonly Condition<R>[],
  items: readonly TransactItem[] = [],
): Promise<R | undefined> {
  try {
    await transactWrite({ TransactItems: [...conditions.map(({ item }) => item), ...items] });
    return undefined;
  } catch (error) {
    const failed = failedConditions(error);
    const first = conditions.findIndex((_, index) => failed?.has(index));
    if (first < 0) throw error;
    return conditions[first]!.refused(failed?.get(first));
  }
}
