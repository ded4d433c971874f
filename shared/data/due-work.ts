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
 * time (ISO 8601, which sorts as time does). One index partition takes about 1,000 writes a second,
 * and the index is every client's: a payment's work (the payment, its events, their deliveries) writes
 * 14 units to it, each item about twice (in, then out; docs/scale.md), so one partition would cap the
 * whole service near 70 payments a second. 32 shards cap it near 2,300 a second (8 did so near 570:
 * issue 31 asks for 1,000 a second of one client, with room to spare).
 *
 * An item's shard follows from its id, so its updates move its sort key within one partition. Raising
 * DUE_SHARDS moves no stored item: one written under the old count (8 until issue 31: DUE#0..7) keeps
 * its partition until a commit writes its due keys again (a delivery's next attempt), which puts it in
 * its shard under the new count. The sweeper reads every shard below DUE_SHARDS, the old ones among
 * them, so DUE_SHARDS may grow but never shrink: items in a dropped shard would never be read.
 *
 * Reading: each shard is a Query a page (0.5 read units when nothing is due), a run reading the next
 * pages of the shards that had more while it has time. On AWS the sweeper runs once a minute and reads
 * all 32 at each run. The local runtime's tests sweep every few hundred milliseconds
 * against one DynamoDB Local on a 2-core machine, where 32 Queries a sweep starved their other calls (a
 * CI run timed out); so sweeps 30 s apart or less share the shards, in turns (sweptDueWork): k sweeps
 * in a row read every shard once, DUE_SHARDS / k each, k the most of 1, 2 and 4 that fit in a minute
 * and leave each sweep at least 8 shards. Whatever SWEEP_INTERVAL_MS, every shard is read at least
 * once a minute (once a sweep, where sweeps are rarer), which bounds how late the sweeper finds work
 * (docs/reliability.md, "The sweeper"); and sweeps 15 s apart or less read 8 shards each, what every
 * sweep read before the index had 32. A rotating sweep takes its turn from a counter in the table (one
 * UpdateItem): sweeps of several processes on one table, or of a process started again, still take
 * the turns in order, where a counter in memory would repeat or skip some.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import type { DomainEvent } from '../domain/events';
import type { DuePage, DueWork, DueWorkKind, DueWorkStore } from '../domain/sweep';
import {
  EVENT_ENTITY,
  REPORT_ENTITY,
  SETTLEMENT_FILE_ENTITY,
  withoutStorageAttributes,
  type ItemKey,
} from './item-keys';
import { DUE_INDEX } from './table';

/** A power of two, so that the sweeps of a round (1, 2 or 4) share the shards evenly. Never lowered. */
export const DUE_SHARDS = 32;

/**
 * The fewest shards a sweep reads: what every sweep read while the index had 8 shards, and what the
 * local tests' frequent sweeps read now (no heavier on their DynamoDB Local than before).
 */
export const MIN_SHARDS_PER_SWEEP = 8;

/** Every shard is read at least this often (or once a sweep, where sweeps are rarer): the deployed schedule's period. */
export const SWEEP_ROUND_MS = 60_000;

const duePartition = (shard: number): string => `DUE#${shard}`;

/** The shard of an id: a 31-bit string hash (ids are UUIDs, so any stable hash spreads them). */
export function dueShardOf(id: string): number {
  let hash = 0;
  for (let i = 0; i < id.length; i++) hash = (Math.imul(hash, 31) + id.charCodeAt(i)) | 0;
  return Math.abs(hash) % DUE_SHARDS;
}

/**
 * How many sweeps share the shards between them, each reading DUE_SHARDS / k: the most (1, 2 or 4)
 * whose sweeps, `intervalMs` apart, still read every shard within SWEEP_ROUND_MS, each reading at
 * least MIN_SHARDS_PER_SWEEP. 1 for the deployed schedule (every minute: all shards each run); 4 for the
 * local tests' 300 ms (8 shards a sweep, every shard every 1.2 s).
 */
export function sweepsPerRound(intervalMs: number): number {
  let sweeps = 1;
  while (2 * sweeps * intervalMs <= SWEEP_ROUND_MS && DUE_SHARDS / (2 * sweeps) >= MIN_SHARDS_PER_SWEEP) sweeps *= 2;
  return sweeps;
}

/** The shards the sweep of turn `turn` reads when `sweeps` share them: a run of DUE_SHARDS / sweeps. */
export function shardsOfTurn(turn: number, sweeps: number): number[] {
  const count = DUE_SHARDS / sweeps;
  const first = (turn % sweeps) * count;
  return Array.from({ length: count }, (_, i) => first + i);
}

/** Every shard, as a sweep reads them when it does not share them (and the tests). */
const ALL_SHARDS = Array.from({ length: DUE_SHARDS }, (_, shard) => shard);

/**
 * The counter of the sweeps' turns: one item, in no index (no index attributes). Only rotating sweeps
 * write it, so a deployed table (a sweep a minute) holds none.
 */
export const SWEEP_TURN_KEY: ItemKey = { pk: 'SWEEP#DUE', sk: 'TURN' };
export const SWEEP_TURN_ENTITY = 'SWEEP_TURN';

/**
 * Takes the next turn: adds one to the counter and answers the turn before. Sweeps at once get turns
 * of their own; a sweep that fails after taking its turn leaves its shards to the next round.
 */
async function nextTurn(): Promise<number> {
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: SWEEP_TURN_KEY,
      UpdateExpression: 'SET entity = :entity ADD turns :one',
      ExpressionAttributeValues: { ':entity': SWEEP_TURN_ENTITY, ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.['turns'] ?? 1) - 1;
}

/** The attributes that put the item `id` in the index, due at `dueAt` (an ISO time). */
export const dueKeys = (id: string, dueAt: string) => ({ duepk: duePartition(dueShardOf(id)), duesk: dueAt });

/** The attributes an update removes to take an item out of the index. */
export const DUE_ATTRIBUTES = ['duepk', 'duesk'] as const;

/** An item found in the index: its table key (`ref`, its partition key) and the due time it was found at. */
export interface DueEntry {
  readonly ref: string;
  readonly kind?: DueWorkKind;
  readonly key: ItemKey;
  readonly dueAt: string;
}

/** The work of an item of the index, by its sort key (its entity's): undefined for one no work is known of. */
const KIND_OF_SORT_KEY: Readonly<Record<string, DueWorkKind>> = {
  PAYMENT: 'payment',
  REFUND: 'refund',
  DELIVERY: 'delivery',
  EVENT: 'event',
  REPORT: 'report',
  FILE: 'reconciliation',
};

const entryOf = (item: Record<string, unknown>): DueEntry => {
  const key = { pk: String(item['pk']), sk: String(item['sk']) };
  const kind = KIND_OF_SORT_KEY[key.sk];
  return { ref: key.pk, ...(kind ? { kind } : {}), key, dueAt: String(item['duesk']) };
};

/**
 * One page of a shard: up to `limit` items due at `upTo` or before, oldest first, from after the
 * item `after` (a position only: it may have left the index since).
 */
export async function duePage(
  shard: number,
  upTo: string,
  limit: number,
  after?: DueEntry,
): Promise<DuePage<DueEntry>> {
  const page = await dynamo().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: DUE_INDEX,
      KeyConditionExpression: 'duepk = :shard AND duesk <= :upTo',
      ExpressionAttributeValues: { ':shard': duePartition(shard), ':upTo': upTo },
      Limit: limit,
      ...(after ? { ExclusiveStartKey: { ...after.key, duepk: duePartition(shard), duesk: after.dueAt } } : {}),
    }),
  );
  const entries = (page.Items ?? []).map(entryOf);
  const last = entries.at(-1);
  return { entries, ...(page.LastEvaluatedKey && last ? { after: last } : {}) };
}

/** The items of one shard due at `upTo` or before, oldest first, at most `limit`. */
export async function dueIn(shard: number, upTo: string, limit: number): Promise<DueEntry[]> {
  const entries: DueEntry[] = [];
  let after: DueEntry | undefined;
  do {
    const page = await duePage(shard, upTo, limit - entries.length, after);
    entries.push(...page.entries);
    after = page.after;
  } while (after && entries.length < limit);
  return entries;
}

/** A further condition of a claim, with the values it names. */
interface ClaimCondition {
  readonly condition: string;
  readonly values: Readonly<Record<string, string>>;
}

/**
 * A report's run holds it under a lease (shared/data/reports-repository.ts): the sweeper takes it only
 * once the lease has ended at `now`, whatever its due time says (a run's clock behind the sweeper's).
 */
const leaseEnded = (now: string): ClaimCondition => ({
  condition: '(attribute_not_exists(lease_expires_at) OR lease_expires_at <= :now)',
  values: { ':now': now },
});

/**
 * Takes a due item for one restart of its work: moves its due time to `next`, only while it is still
 * due at the time it was found (the index is eventually consistent, and another sweep may have taken
 * it), and `also` holds. Answers the whole item after, or undefined when it was gone, done or taken.
 */
export async function claimDue(
  entry: DueEntry,
  next: string,
  also?: ClaimCondition,
): Promise<Record<string, unknown> | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: entry.key,
        UpdateExpression: 'SET duesk = :next',
        ConditionExpression: also ? `duesk = :seen AND ${also.condition}` : 'duesk = :seen',
        ExpressionAttributeValues: { ':next': next, ':seen': entry.dueAt, ...also?.values },
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

/**
 * The index of due work as a sweep reads it (shared/domain/sweep.ts): `shards` names the shards one
 * run reads; and `due`, every one of them at once, up to `limit` items shared between them.
 */
function dueWorkIn(shards: () => Promise<readonly number[]>): DueWorkStore<DueEntry> & {
  due(upTo: string, limit: number): Promise<DueEntry[]>;
} {
  return {
    shards,
    page: duePage,
    async due(upTo, limit) {
      const read = await shards();
      const each = Math.ceil(limit / read.length);
      return (await Promise.all(read.map((shard) => dueIn(shard, upTo, each)))).flat();
    },
    claim: claimEntry,
  };
}

/** The whole index: every shard at each run. */
export const dynamoDueWork = dueWorkIn(async () => ALL_SHARDS);

/**
 * The index as the runs of a sweeper `intervalMs` apart read it: every shard at each run, or, when
 * sweepsPerRound shares them, the shards of the next turn.
 */
export function sweptDueWork(intervalMs: number): DueWorkStore<DueEntry> {
  const sweeps = sweepsPerRound(intervalMs);
  return sweeps === 1 ? dynamoDueWork : dueWorkIn(async () => shardsOfTurn(await nextTurn(), sweeps));
}

async function claimEntry(entry: DueEntry, dueAgainAt: string, now: string): Promise<DueWork | undefined> {
  const item = await claimDue(entry, dueAgainAt, entry.kind === 'report' ? leaseEnded(now) : undefined);
  if (!item) return undefined;
  const id = String(item['id']);
  const tenant = String(item['tenant']);
  switch (item['entity']) {
    case 'PAYMENT':
      return { kind: 'payment', id, tenant, waitingSince: String(item['created_at']) };
    case 'REFUND':
      return { kind: 'refund', id, tenant, waitingSince: String(item['created_at']) };
    case 'DELIVERY':
      return { kind: 'delivery', id, tenant, waitingSince: String(item['next_attempt_at'] ?? item['updated_at']) };
    case REPORT_ENTITY:
      // Due again at the end of the run that took it last: waiting since then.
      return { kind: 'report', id, waitingSince: entry.dueAt };
    case SETTLEMENT_FILE_ENTITY:
      // A day's file, due as a report is: its id is its day.
      return { kind: 'reconciliation', id: String(item['date']), waitingSince: entry.dueAt };
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
}
