/**
 * Changes of records that carry a version. A change made on what was read holds only while the item
 * is at the version it was read at: two requests that read the same version cannot both write, so
 * neither overwrites what the other did without seeing it. A change that does not depend on what was
 * there (a PUT's replacement of some fields) is written whatever the version, and moves it, so that
 * the changes made on an earlier read notice it.
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
export function updateVersioned<T>(
  key: ItemKey,
  seen: object,
  changes: Readonly<Record<string, unknown>>,
  now: string,
  indexed: Readonly<Record<string, string>> = {},
): Promise<T | undefined> {
  const version = versionOf(seen);
  return updateWhere<T>(key, { ...changes, ...indexed }, now, {
    condition: 'version = :seen',
    version: { expression: ':next', values: { ':seen': version, ':next': version + 1 } },
  });
}

/**
 * Sets `changes` (undefined ones left out) and updated_at = `now` on the item at `key` whatever its
 * version, and moves the version on; answers the record as stored afterwards, or undefined when there
 * is no such item.
 */
export function updateAnyVersion<T>(
  key: ItemKey,
  changes: Readonly<Record<string, unknown>>,
  now: string,
): Promise<T | undefined> {
  return updateWhere<T>(key, changes, now, {
    condition: 'attribute_exists(pk)',
    version: { expression: 'version + :one', values: { ':one': 1 } },
  });
}

async function updateWhere<T>(
  key: ItemKey,
  changes: Readonly<Record<string, unknown>>,
  now: string,
  rule: { readonly condition: string; readonly version: { expression: string; values: Record<string, number> } },
): Promise<T | undefined> {
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET ${[...fields.map((_, i) => `#f${i} = :f${i}`), 'updated_at = :now', `version = ${rule.version.expression}`].join(', ')}`,
        ConditionExpression: rule.condition,
        ...(fields.length
          ? { ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])) }
          : {}),
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
          ':now': now,
          ...rule.version.values,
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
