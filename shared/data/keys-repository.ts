/**
 * Bre-B keys in DynamoDB (docs/data-model.md, docs/keys.md). One transaction writes the key (listed
 * in the tenant's collection and in its customer's scope), its directory entry (the uniqueness guard
 * of the normalised type and value, shared with the sandbox's keys), checks that the customer and the
 * account are ACTIVE, and updates the counters of both lists. Status changes move the key and its
 * entry together; deleting removes the entry, so the value is free again. Every change writes its
 * audit event in its own transaction.
 */
import type { AuditAction } from '../domain/audit';
import type { DirectoryEntry } from '../domain/directory';
import type { InsertKeyResult, KeyListFilters, KeyStore, StoredKey, TransitionResult } from '../domain/keys';
import type { KeyStatus } from '../schemas/keys';
import { auditItems } from './audit-trail';
import { tableName } from './client';
import { itemKeys } from './item-keys';
import { insertListed, listedStore, recordGetter, underCustomer, walkedStore } from './listed-records';
import { statusUpdate } from './status-changes';
import { activeOr, writeUnless } from './transactions';

const KEYS = underCustomer<StoredKey, KeyListFilters>('KEY', itemKeys.brebKey, (filters) => ({
  account_id: filters.accountId,
  key_type: filters.keyType,
  status: filters.status,
}));

/** What an audit event says of the key it is about. */
const audited = (key: StoredKey) => ({ resourceType: 'KEY' as const, resourceId: key.id });

/** A key's status changes, as audit actions. */
const TRANSITION_ACTIONS = {
  ACTIVE: 'key.activated',
  SUSPENDED: 'key.suspended',
  DELETED: 'key.deleted',
} as const satisfies Record<KeyStatus, AuditAction>;

export const directoryItem = (entry: DirectoryEntry) => ({
  ...itemKeys.directoryEntry(entry.key.key_type, entry.key.key_value),
  entity: 'DIRECTORY_ENTRY',
  ...entry,
});

/** The keys' get and writes, without the list reads (listedStore). */
export const dynamoKeyWrites: Omit<KeyStore, 'list' | 'walk'> = {
  ...recordGetter(KEYS),

  insert: (key: StoredKey, entry: DirectoryEntry): Promise<InsertKeyResult> =>
    insertListed(
      KEYS,
      key,
      [
        {
          item: {
            Put: {
              TableName: tableName(),
              Item: directoryItem(entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          refused: () => ({ inserted: false, reason: 'value_taken' }),
        },
        activeOr({ inserted: false, reason: 'customer_inactive' }, itemKeys.customer(key.customer_id)),
        activeOr({ inserted: false, reason: 'account_inactive' }, itemKeys.account(key.account_id), 'account_status'),
      ],
      auditItems({ action: 'key.registered', ...audited(key), after: key, at: key.created_at }),
    ),

  async transition(key: StoredKey, to: KeyStatus, now: string): Promise<TransitionResult> {
    const TableName = tableName();
    const entryKey = itemKeys.directoryEntry(key.key_type, key.key_value);
    const sameKey = { ConditionExpression: 'key_id = :id', ExpressionAttributeValues: { ':id': key.id } };
    const entryChange =
      to === 'DELETED'
        ? { Delete: { TableName, Key: entryKey, ...sameKey } }
        : {
            Update: {
              TableName,
              Key: entryKey,
              UpdateExpression: 'SET #status = :to, updated_at = :now',
              ConditionExpression: sameKey.ConditionExpression,
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':id': key.id, ':to': to, ':now': now },
            },
          };
    const refusal = await writeUnless<TransitionResult>(
      [
        {
          item: { Update: statusUpdate(itemKeys.brebKey(key.id), key.id, { from: key.status, to, now }) },
          refused: () => 'conflict',
        },
        { item: entryChange, refused: () => 'conflict' },
        // A key comes back into the directory only while its customer is ACTIVE.
        ...(to === 'ACTIVE'
          ? [activeOr<TransitionResult>('customer_inactive', itemKeys.customer(key.customer_id))]
          : []),
      ],
      auditItems({
        action: TRANSITION_ACTIONS[to],
        ...audited(key),
        before: key,
        after: { ...key, status: to, updated_at: now },
        at: now,
      }),
    );
    return refusal ?? 'changed';
  },
};

/** Every read and write of the keys, lists included. */
export const dynamoKeyStore: KeyStore = /* @__PURE__ */ listedStore(KEYS, dynamoKeyWrites);

/** The keys' get, writes and walk, without a list's pages (a customer's revocation walks its keys). */
export const dynamoKeyWalks: Omit<KeyStore, 'list'> = /* @__PURE__ */ walkedStore(KEYS, dynamoKeyWrites);
