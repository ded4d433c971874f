/**
 * List counters: every list partition (a tenant's collection, or one scope of it) keeps its number
 * of items in a few sharded counter items, incremented in the same transaction as the insert, so a
 * list's total is one small query (shared/data/pagination.ts) whatever the list's size.
 */
import { createHash } from 'node:crypto';
import { tableName } from './client';
import { itemKeys } from './item-keys';

/** Counters are spread over shards so that concurrent inserts rarely meet on one item. */
export const COUNTER_SHARDS = 4;

/**
 * Increments of the counters of every list partition an inserted item joins, for its transaction;
 * `step` -1 takes a deleted item back out (it falls on the same shard: the shard is its id's).
 */
export function counterIncrements(partitions: readonly string[], itemId: string, step = 1) {
  return counterIncrementsOf([{ partitions, itemId, step }]);
}

/**
 * The counter increments of several items inserted by one transaction (a payment and the payee's
 * record of it). Two of them may fall on the same counter shard, and a transaction may touch an
 * item only once: their increments are added up into one update.
 */
export function counterIncrementsOf(
  inserts: readonly { partitions: readonly string[]; itemId: string; step?: number }[],
) {
  const shards = new Map<string, { partition: string; shard: number; count: number }>();
  for (const { partitions, itemId, step = 1 } of inserts) {
    const shard = createHash('sha256').update(itemId).digest()[0]! % COUNTER_SHARDS;
    for (const partition of partitions) {
      const counter = shards.get(`${shard}#${partition}`) ?? { partition, shard, count: 0 };
      counter.count += step;
      shards.set(`${shard}#${partition}`, counter);
    }
  }
  return [...shards.values()].map(({ partition, shard, count }) => ({
    Update: {
      TableName: tableName(),
      Key: itemKeys.counterShard(partition, shard),
      UpdateExpression: 'SET entity = :entity ADD #count :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':entity': 'COUNTER', ':count': count },
    },
  }));
}

/** The query (key condition only) that reads every shard of a partition's counter. */
export const counterShardsQuery = (partition: string) => ({
  KeyConditionExpression: 'pk = :pk',
  ExpressionAttributeValues: { ':pk': itemKeys.counterPartition(partition) },
});

/** The keys of every shard of a partition's counter: read with another item in one call. */
export const counterShardKeys = (partition: string) =>
  Array.from({ length: COUNTER_SHARDS }, (_, shard) => itemKeys.counterShard(partition, shard));

/** The count of a partition: the sum of its shards. */
export const counterTotal = (shards: readonly Record<string, unknown>[]): number =>
  shards.reduce((sum, item) => sum + Number(item['count'] ?? 0), 0);

/**
 * Increments of the counters by day of the list partitions the inserted items join, for their
 * transaction: each item counted on the UTC day of its `created_at`, the items of one transaction that
 * fall on one counter shard added up (a transaction touches an item once). Each counter expires with
 * `expiresAt(day)`, after every item it counts.
 */
export function dayCounterIncrements(
  inserts: readonly { partitions: readonly string[]; itemId: string; createdAt: string }[],
  expiresAt: (day: string) => number,
) {
  const shards = new Map<string, { partition: string; day: string; shard: number; count: number }>();
  for (const { partitions, itemId, createdAt } of inserts) {
    const shard = createHash('sha256').update(itemId).digest()[0]! % COUNTER_SHARDS;
    const day = createdAt.slice(0, 10);
    for (const partition of partitions) {
      const key = `${shard}#${day}#${partition}`;
      const counter = shards.get(key) ?? { partition, day, shard, count: 0 };
      counter.count += 1;
      shards.set(key, counter);
    }
  }
  return [...shards.values()].map(({ partition, day, shard, count }) => ({
    Update: {
      TableName: tableName(),
      Key: itemKeys.dayCounterShard(partition, day, shard),
      UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD #count :count',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':entity': 'DAY_COUNTER', ':expires': expiresAt(day), ':count': count },
    },
  }));
}

/** The query (key condition only) of a partition's counters by day, from `fromDay` (`YYYY-MM-DD`) on. */
export const dayCountersQuery = (partition: string, fromDay: string) => ({
  KeyConditionExpression: 'pk = :pk AND sk >= :from',
  ExpressionAttributeValues: { ':pk': itemKeys.dayCounterPartition(partition), ':from': fromDay },
});
