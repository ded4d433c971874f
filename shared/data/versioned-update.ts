/**
 * Changes of records that carry a version. A change made on what was read holds only while the item
 * is at the version it was read at: two requests that read the same version cannot both write, so
 * neither overwrites what the other did without seeing it. A change that does not depend on what was
 * there (a PUT's replacement of some fields) is made again on what it reads until it is written
 * (shared/data/approval-settings-repository.ts), and moves the version too.
 */
import { tableName } from './client';
import type { ItemKey } from './item-keys';
import type { TransactItem } from './transactions';

/** The version a record read from the table carries (the stores' get answers the item, version included). */
export const versionOf = (record: object): number => (record as { readonly version: number }).version;

/**
 * Sets `changes` (undefined ones left out), updated_at = `now` and the table attributes `indexed`
 * (index keys that follow updated_at) on the item at `key`, and takes the attributes `removed` away,
 * while its version is `seen`'s: an item of
 * a transaction (the change is written with its audit event, shared/data/audit-trail.ts), and the
 * record it makes, what DynamoDB will store (a transaction answers no item). The transaction is
 * refused, its condition failing, when the record changed (or went) since `seen` was read.
 */
export function versionedUpdateItem<T>(
  key: ItemKey,
  seen: object,
  changes: Readonly<Record<string, unknown>>,
  now: string,
  indexed: Readonly<Record<string, string>> = {},
  removed: readonly string[] = [],
): { readonly item: TransactItem; readonly after: T } {
  const version = versionOf(seen);
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  const expression = updateExpression({ ...changes, ...indexed }, now, 'version = :next', {
    ':next': version + 1,
    ':seen': version,
  });
  // Attributes the change takes away (`removed`), each named apart from the fields set.
  const names = { ...expression.ExpressionAttributeNames, ...Object.fromEntries(removed.map((n, i) => [`#r${i}`, n])) };
  const removal = removed.length ? ` REMOVE ${removed.map((_, i) => `#r${i}`).join(', ')}` : '';
  const after = { ...seen, ...defined, updated_at: now, version: version + 1 } as Record<string, unknown>;
  for (const name of removed) delete after[name];
  return {
    item: {
      Update: {
        TableName: tableName(),
        Key: key,
        ...expression,
        UpdateExpression: `${expression.UpdateExpression}${removal}`,
        ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
        ConditionExpression: 'version = :seen',
      },
    },
    after: after as T,
  };
}

/** SET the defined `changes`, updated_at = `now` and the version as `version` says. */
function updateExpression(
  changes: Readonly<Record<string, unknown>>,
  now: string,
  version: string,
  versionValues: Record<string, number>,
) {
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  return {
    UpdateExpression: `SET ${[...fields.map((_, i) => `#f${i} = :f${i}`), 'updated_at = :now', version].join(', ')}`,
    ...(fields.length
      ? { ExpressionAttributeNames: Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])) }
      : {}),
    ExpressionAttributeValues: {
      ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
      ':now': now,
      ...versionValues,
    },
  };
}
