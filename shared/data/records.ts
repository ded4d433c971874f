/** Reading one stored record by its key: what every repository's `get` does. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { withoutStorageAttributes, type ItemKey } from './item-keys';

/**
 * The record at `key` without the table's own attributes, or undefined. `consistent` for a read that
 * must see a write just made (a retry meeting the first request's payment).
 */
export async function getRecord<T>(key: ItemKey, { consistent = false } = {}): Promise<T | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }),
  );
  return Item ? withoutStorageAttributes<T>(Item) : undefined;
}
