/**
 * A change that holds only while the item is at the version it was read at: two requests that read
 * the same version cannot both write, so neither overwrites what the other did without seeing it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { withoutStorageAttributes, type ItemKey } from './item-keys';

/** The version a record read from the table carries (the stores' get answers the item, version included). */
export const versionOf = (record: object): number => (record as { readonly version: number }).version;

/**
 * Sets `changes` (undefined ones left out), updated_at = `now` and the table attributes `indexed`
 * (index keys that follow updated_at) on the item at `key`, while its version is `seen`'s; answers the
 * record as stored afterwards, or undefined when it changed (or went) meanwhile.
 */
export async function updateVersioned<T>(
  key: ItemKey,
  seen: object,
  changes: Readonly<Record<string, unknown>>,
  now: string,
  indexed: Readonly<Record<string, string>> = {},
): Promise<T | undefined> {
  const fields = Object.entries({ ...changes, ...indexed }).filter(([, value]) => value !== undefined);
  const version = versionOf(seen);
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${[...fields.map((_, i) => `#f${i} = :f${i}`), 'updated_at = :now', 'version = :next'].join(', ')}`,
        ConditionExpression: 'version = :seen',
        ...(fields.length
          ? { ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])) }
          : {}),
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
          ':now': now,
          ':seen': version,
          ':next': version + 1,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutStorageAttributes<T>(Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
