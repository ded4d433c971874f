/** Queries that read every page: one partition's item collection, or one partition of an index. */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';

/** Every item the query finds, page after page. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey }));
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items;
}

/** Every item of one partition whose sort key starts with a prefix (strongly consistent). */
export const queryItemCollection = (
  pk: string,
  skPrefix: string,
  projection?: string,
): Promise<Record<string, unknown>[]> =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
    ...(projection ? { ProjectionExpression: projection } : {}),
    ConsistentRead: true,
  });
