/** Reads every item of one partition whose sort key starts with a prefix (strongly consistent). */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';

export async function queryItemCollection(
  pk: string,
  skPrefix: string,
  projection?: string,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
        ...(projection ? { ProjectionExpression: projection } : {}),
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}
