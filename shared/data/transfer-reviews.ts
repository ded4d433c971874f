/**
 * A transfer put in review (docs/network.md, "Review"): the payment's or refund's item updated with
 * its `review` and new `updated_at` (its list keys follow), only while it is PENDING and in no review
 * yet, so that of two jobs at once one writes it. It stays in the index of due work: the network may
 * still answer, and the sweeper keeps asking.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client';
import type { TransactItem } from './transactions';

/** Sets every field of `put`'s item but its keys, while PENDING and in no review; false when it is not. */
export async function writeReview(put: NonNullable<TransactItem['Put']>): Promise<boolean> {
  const item = put.Item!;
  const fields = Object.entries(item).filter(([name]) => name !== 'pk' && name !== 'sk');
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: put.TableName,
        Key: { pk: item['pk'], sk: item['sk'] },
        UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: '#status = :pending AND attribute_not_exists(#review)',
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          '#status': 'status',
          '#review': 'review',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
          ':pending': 'PENDING',
        },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
