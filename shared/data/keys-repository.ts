/**
 * Bre-B keys in DynamoDB (docs/data-model.md, docs/keys.md). One transaction writes the key (listed
 * in the tenant's collection and in its customer's scope), its directory entry (the uniqueness guard
 * of the normalised type and value, shared with the sandbox's keys), checks that the customer and the
 * account are ACTIVE, and updates the counters of both lists. Status changes move the key and its
 * entry together; deleting removes the entry, so the value is free again.
 */
import type { DirectoryEntry } from '../domain/directory';
import type { InsertKeyResult, KeyListFilters, KeyStore, StoredKey, TransitionResult } from '../domain/keys';
import type { PageRequest, PageResult } from '../domain/lists';
import type { KeyStatus } from '../schemas/keys';
import { tableName } from './client';
import { listedRecordInsert } from './inserts';
import { itemKeys, updatedAtKeys } from './item-keys';
import { getRecord } from './records';
import { listRecords } from './pagination';
import { failedConditions, transactWrite, whileActive } from './transactions';

export const KEYS_COLLECTION = 'KEY';

/** The scope of a key in its collection: its customer (the customer_id filter reads only it). */
export const keyCustomerScope = (customerId: string): string => `CUSTOMER#${customerId}`;

export const directoryItem = (entry: DirectoryEntry) => ({
  ...itemKeys.directoryEntry(entry.key.key_type, entry.key.key_value),
  entity: 'DIRECTORY_ENTRY',
  ...entry,
});

export const dynamoKeyStore: KeyStore = {
  async insert(key: StoredKey, entry: DirectoryEntry): Promise<InsertKeyResult> {
    const listing = { collection: KEYS_COLLECTION, scope: keyCustomerScope(key.customer_id) };
    try {
      await transactWrite({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: directoryItem(entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          whileActive(itemKeys.customer(key.customer_id)),
          whileActive(itemKeys.account(key.account_id), 'account_status'),
          ...listedRecordInsert(key, itemKeys.brebKey(key.id), 'KEY', listing),
        ],
      });
      return { inserted: true };
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.has(0)) return { inserted: false, reason: 'value_taken' };
      if (failed?.has(1)) return { inserted: false, reason: 'customer_inactive' };
      if (failed?.has(2)) return { inserted: false, reason: 'account_inactive' };
      throw error;
    }
  },

  async get(id: string): Promise<StoredKey | undefined> {
    return getRecord<StoredKey>(itemKeys.brebKey(id));
  },

  list: (tenant: string, filters: KeyListFilters, request: PageRequest): Promise<PageResult<StoredKey>> =>
    listRecords<StoredKey>({
      tenant,
      collection: KEYS_COLLECTION,
      scope: filters.customerId && keyCustomerScope(filters.customerId),
      equals: { account_id: filters.accountId, key_type: filters.keyType, status: filters.status },
      request,
    }),

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
    const moved = updatedAtKeys(key.id, now, true);
    try {
      await transactWrite({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: itemKeys.brebKey(key.id),
              UpdateExpression: 'SET #status = :to, updated_at = :now, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk',
              ConditionExpression: '#status = :from',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: {
                ':to': to,
                ':from': key.status,
                ':now': now,
                ':gsi2sk': moved.gsi2sk,
                ':gsi4sk': moved.gsi4sk,
              },
            },
          },
          entryChange,
          // A key comes back into the directory only while its customer is ACTIVE.
          ...(to === 'ACTIVE' ? [whileActive(itemKeys.customer(key.customer_id))] : []),
        ],
      });
      return 'changed';
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.has(0) || failed?.has(1)) return 'conflict';
      if (failed?.has(2)) return 'customer_inactive';
      throw error;
    }
  },
};
