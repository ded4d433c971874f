/**
 * The transaction items every insert is made of: a guard that makes a value unique (a NIT per
 * client, an account number per customer, a QR reference per merchant), and a new record listed in
 * its client's collection and in one scope of it, with the counters of both lists
 * (shared/data/pagination.ts reads them for `total_elements`).
 */
import { tableName } from './client';
import { collectionKeys, collectionPartition, creationKeys, scopePartition, type ItemKey } from './item-keys';
import { counterIncrements } from './counters';
import { shardOf } from './list-shards';
import { getRecord } from './records';
import type { Condition, TransactItem } from './transactions';

const NOT_YET_THERE = 'attribute_not_exists(pk)';

/**
 * A guard item: its key exists once, so of two concurrent writes of one value only one passes. It
 * holds the id of the record that took the value, under `holder` (e.g. account_id); when the value is
 * taken, the insert answers `taken` with the holder's id, from the failed guard's old image or, when
 * DynamoDB sent none, read from the guard.
 */
export function uniqueGuard<R>(
  key: ItemKey,
  entity: string,
  holder: string,
  id: string,
  taken: (existingId: string) => R,
): Condition<R> {
  return {
    item: {
      Put: {
        TableName: tableName(),
        Item: { ...key, entity, [holder]: id },
        ConditionExpression: NOT_YET_THERE,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    refused: async (old) =>
      taken(String(old?.[holder] ?? (await getRecord<Record<string, unknown>>(key, { consistent: true }))?.[holder])),
  };
}

/** What a listed record carries: its client, its id, and the times it is ordered by. */
export interface ListedRecord {
  readonly tenant: string;
  readonly id: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/**
 * Where a record is listed: its client's collection, and a scope in it (its customer, its NIT), or
 * none for a kind that is only ever listed whole (a client's webhooks).
 */
export interface Listing {
  readonly collection: string;
  readonly scope: string | undefined;
  /** A record never updated: listed by creation only (its lists by update read that order). */
  readonly immutable?: boolean;
}

/**
 * The list partitions a record joins, each with a counter: its collection's and its scope's, in the
 * record's shard (shared/data/list-shards.ts), which its id and creation decide for life.
 */
export function listPartitions(record: Omit<ListedRecord, 'updated_at'>, { collection, scope }: Listing): string[] {
  const shard = shardOf(record.tenant, collection, record.id, record.created_at);
  return [
    collectionPartition(record.tenant, collection, shard),
    ...(scope === undefined ? [] : [scopePartition(record.tenant, collection, scope, shard)]),
  ];
}

/** The Put of a new record under `key`, with the index keys that list it. */
export function listedRecordPut(record: ListedRecord, key: ItemKey, entity: string, listing: Listing): TransactItem {
  const { tenant, id, created_at, updated_at } = record;
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...key,
        ...(listing.immutable
          ? creationKeys(tenant, listing.collection, id, created_at, listing.scope)
          : collectionKeys(tenant, listing.collection, id, created_at, updated_at, listing.scope)),
        entity,
        ...record,
      },
      ConditionExpression: NOT_YET_THERE,
    },
  };
}

/** A new record and the increments of the counters of the lists it joins. */
export const listedRecordInsert = (
  record: ListedRecord,
  key: ItemKey,
  entity: string,
  listing: Listing,
): TransactItem[] => [
  listedRecordPut(record, key, entity, listing),
  ...counterIncrements(listPartitions(record, listing), record.id),
];
