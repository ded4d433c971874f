/** Reading why a DynamoDB transaction was cancelled, so a lost race becomes a clean 409. */
import { TransactionCanceledException, type CancellationReason } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

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
