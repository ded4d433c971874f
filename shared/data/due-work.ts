/**
 * The index of due work (docs/reliability.md, "The sweeper"): an item carries `duepk`/`duesk` only
 * while work after its commit is owed, written by the commit itself, so that a crash or a failed
 * SendMessage after it leaves work the sweeper finds. A PAYMENT while PENDING or PROCESSING (due: when
 * its settlement or decision should have run), a REFUND while PENDING (due: when its
 * settlement should have run), a DELIVERY while PENDING (due: next_attempt_at), an
 * EVENT until the dispatcher has made its deliveries (due: its creation). The answer's Put, the
 * delivery's last attempt and the dispatch remove the attributes (a PENDING REPORT: due from its
 * creation, then at the end of each run's time, until a run finishes it), so the index holds only
 * what is still owed: the sweeper's every Query is of due items, never a Scan.
 *
 * Sharding: `duepk` is `DUE#<n>`, n = a hash of the item's id modulo DUE_SHARDS, and `duesk` the due
 * time (ISO 8601, which sorts as time does). One index partition takes about 1,000 writes a second;
 * each payment, delivery and event writes its index entry about twice (in, then out), and a payment
 * to another participant makes some five items of work (the payment, two events, a delivery each),
 * so one partition would cap the service near 100 payments a second, of all clients together.
 * Eight shards keep that cap near 570 a second (measured: a payment's work writes 14 units to the
 * index; docs/scale.md), while the sweeper pays 8 Queries a sweep, each empty (0.5 read units) when
 * nothing is stranded. An item keeps its shard for life (its id decides it): its updates move its
 * sort key within one partition. More shards raise the cap (32: some 2,300) and the sweep's Queries
 * with it: on AWS, 32 a minute are nothing, but the local runtime's tests sweep every 300 ms against
 * one DynamoDB Local, and 32 Queries a sweep starved their other calls there (a CI run timed out).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import type { DomainEvent } from '../domain/events';
import type { DueWorkStore } from '../domain/sweep';
import { EVENT_ENTITY, REPORT_ENTITY, withoutStorageAttributes, type ItemKey } from './item-keys';
import { DUE_INDEX } from './table';

export const DUE_SHARDS = 8;

const duePartition = (shard: number): string => `DUE#${shard}`;

/** The shard of an id: a 31-bit string hash (ids are UUIDs, so any stable hash spreads them). */
export function dueShardOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) | 0;
  return Math.abs(hash) % DUE_SHARDS;
}

/** The attributes that put the item `id` in the index, due at `dueAt` (an ISO time). */
export const dueKeys = (id: string, dueAt: string) => ({ duepk: duePartition(dueShardOf(id)), duesk: dueAt });

/** The attributes an update removes to take an item out of the index. */
export const DUE_ATTRIBUTES = ['duepk', 'duesk'] as const;

/** An item found in the index: its table key (`ref`, its partition key) and the due time it was found at. */
export interface DueEntry {
  readonly ref: string;
  readonly key: ItemKey;
  readonly dueAt: string;
}

/** The items of one shard due at `upTo` or before, oldest first, at most `limit`. */
export async function dueIn(shard: number, upTo: string, limit: number): Promise<DueEntry[]> {
  const entries: DueEntry[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: DUE_INDEX,
        KeyConditionExpression: 'duepk = :shard AND duesk <= :upTo',
        ExpressionAttributeValues: { ':shard': duePartition(shard), ':upTo': upTo },
        Limit: limit - entries.length,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const key = { pk: String(item['pk']), sk: String(item['sk']) };
      entries.push({ ref: key.pk, key, dueAt: String(item['duesk']) });
    }
    start = page.LastEvaluatedKey;
  } while (start && entries.length < limit);
  return entries;
}

/**
 * Takes a due item for one restart of its work: moves its due time to `next`, only while it is still
 * due at the time it was found (the index is eventually consistent, and another sweep may have taken
 * it). Answers the whole item after, or undefined when it was gone, done or taken.
 */
export async function claimDue(entry: DueEntry, next: string): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entry.key,
        UpdateExpression: 'SET duesk = :next',
        ConditionExpression: 'duesk = :seen',
        ExpressionAttributeValues: { ':next': next, ':seen': entry.dueAt },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** Takes the item at `key` out of the index (its work is done); nothing when it is gone already. */
export async function clearDue(key: ItemKey): Promise<void> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: `REMOVE ${DUE_ATTRIBUTES.join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

/** The index of due work as the sweeper reads it (shared/domain/sweep.ts). */
export const dynamoDueWork: DueWorkStore<DueEntry> = {
  async due(upTo, limit) {
    const shards = Array.from({ length: DUE_SHARDS }, (_, shard) => dueIn(shard, upTo, limit));
    return (await Promise.all(shards)).flat();
  },

  async claim(entry, now) {
    const item = await claimDue(entry, now);
    if (!item) return undefined;
    const id = String(item['id']);
    switch (item['entity']) {
      case 'PAYMENT':
        return { kind: 'payment', id, waitingSince: String(item['created_at']) };
      case 'REFUND':
        return { kind: 'refund', id, waitingSince: String(item['created_at']) };
      case 'DELIVERY':
        return { kind: 'delivery', id, waitingSince: String(item['next_attempt_at'] ?? item['updated_at']) };
      case REPORT_ENTITY:
        // Due again at the end of the run that took it last: waiting since then.
        return { kind: 'report', id, waitingSince: entry.dueAt };
      case EVENT_ENTITY:
        return {
          kind: 'event',
          id,
          event: withoutStorageAttributes<DomainEvent>(item),
          waitingSince: String(item['created_at']),
        };
      default:
        throw new Error(`${entry.ref} is in the index of due work, but no work is known for its kind`);
    }
  },
};
