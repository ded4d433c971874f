/**
 * The queries behind a list (docs/pagination.md): which index and partition a walk reads, its key
 * range, its filter, and the reads that visit its items in order, metered by DynamoDB's own
 * ConsumedCapacity. shared/data/pagination.ts finds pages and totals with them.
 */
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  type BatchGetCommandOutput,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import type { OrderKey, PageRequest } from '../domain/lists';
import { dynamo, tableName } from './client';
import { collectionPartition, scopePartition, type ItemKey } from './item-keys';
import { shardsRead } from './list-shards';
import { tableDefinition } from './table';

/** BatchGetItem's most keys in one call. */
const BATCH_GET_KEYS = 100;

/** A table key as one string: the entries of getAll's answer. */
export const keyText = (key: ItemKey): string => `${key.pk}\u0000${key.sk}`;

export type Item = Record<string, unknown>;
export type Key = Record<string, unknown>;

interface ListIndex {
  /** The index with whole items: pages are read here (undefined: the table itself). */
  readonly items: string | undefined;
  /**
   * Its KEYS_ONLY twin: counts and skips are read here when no filter needs other attributes. An
   * index without a twin in the table's definition counts and skips on its whole items.
   */
  readonly keys: string | undefined;
  /** Steps over whole items (no twin): each costs some six times what its keys would. */
  readonly stepsWhole: boolean;
  readonly pk: string;
  readonly sk: string;
}

const listIndex = (n: number): ListIndex => {
  const twin = tableDefinition.globalSecondaryIndexes.find((index) => index.indexName === `gsi${n}keys`);
  return {
    items: `gsi${n}`,
    keys: twin ? twin.indexName : `gsi${n}`,
    stepsWhole: !twin,
    pk: `gsi${n}pk`,
    sk: `gsi${n}sk`,
  };
};

const INDEXES: Record<'collection' | 'scope', Record<OrderKey, ListIndex>> = {
  collection: { created_at: listIndex(1), updated_at: listIndex(2) },
  scope: { created_at: listIndex(3), updated_at: listIndex(4) },
};

/** An item collection of the table read in its sort key's order: its items are small, no twin needed. */
const TABLE: ListIndex = { items: undefined, keys: undefined, stepsWhole: false, pk: 'pk', sk: 'sk' };

/** A condition on an item attribute that the index's key cannot express. */
export type FilterClause =
  | { readonly kind: 'equals'; readonly attribute: string; readonly value: string | number }
  | { readonly kind: 'range'; readonly attribute: string; readonly from?: string; readonly to?: string }
  /** The attribute (a string) holds the value somewhere in it. */
  | { readonly kind: 'contains'; readonly attribute: string; readonly value: string };

export interface ListSource {
  readonly tenant: string;
  readonly collection: string;
  /** A scope with its own partition in gsi3/gsi4 (and counter), e.g. `CUSTOMER#<id>` for accounts. */
  readonly scope?: string;
  /** Instead of an index, these items of one item collection of the table (an account's movements). */
  readonly itemCollection?: ItemCollection;
  /**
   * Its items are never updated (updated_at is created_at): they are in the creation-order indexes
   * only, which also answer a walk by update time.
   */
  readonly immutable?: boolean;
  /**
   * Its items expire (events: shared/data/events.ts): the list holds those created from `since` on (the
   * start of a UTC day), and counts them with its counters by day (counters.ts, dayCounterIncrements)
   * from that day on, where a counter of every item ever inserted would count the expired ones too.
   */
  readonly daily?: { readonly since: string };
}

/**
 * Items of one partition of the table whose sort key is `<prefix><created_at>#<ref>`: immutable
 * records, listed by creation only.
 */
export interface ItemCollection {
  readonly pk: string;
  readonly prefix: string;
  /**
   * The collection's count, kept on one item of the table in the same transactions as its items: read
   * only when that item also has `trustedIf` (it counted every item from the first).
   */
  readonly counter?: {
    readonly key: ItemKey;
    /** Where the count was kept before its item existed (a legacy account's own item): read with it. */
    readonly legacyKey?: ItemKey;
    readonly attribute: string;
    readonly trustedIf: string;
  };
}

export interface ListPageInput {
  readonly source: ListSource;
  readonly filters: readonly FilterClause[];
  readonly request: PageRequest;
  /**
   * The record the list is under (an account of its movements, a webhook of its deliveries), read with
   * the page, in the counter's call when the walk reads a counter, so that the list costs no call of
   * its own to find the record's owner. A record missing or of another tenant gives an empty page.
   */
  readonly parent?: { readonly key: ItemKey; readonly tenant: string };
  /** Another item each listed item is answered with (ListJoin). */
  readonly join?: ListJoin;
  /** Overrides MAX_STEP (tests). */
  readonly maxStep?: number;
}

/**
 * Another item each listed item is answered with (an account's balance item, a payment's details):
 * the item of the listed item's own partition with this sort key, read by key once the page is known,
 * in one BatchGetItem, which page 1 of a new walk shares with its counter. Strongly consistent: a
 * joined item just written (a legacy account's balance, moved out a moment ago) is never missed.
 */
export interface ListJoin {
  readonly sk: string;
  /** The listed item as answered, given its joined item (undefined: there is none). */
  readonly merge: (item: Item, joined: Item | undefined) => Item;
  /**
   * Whether the listed item cannot be answered without its joined item (they were written together):
   * a later page reads its items and their joined items eventually consistent, and reads again,
   * strongly consistent, a joined item such an item needs and the read missed. Unset: never.
   */
  readonly needs?: (item: Item) => boolean;
}

/** What answering a page cost, from DynamoDB's own ConsumedCapacity. */
export interface ListCost {
  readCalls: number;
  readCapacity: number;
  /**
   * Round trips one after another: the longest chain of calls each sent after the one before it was
   * answered (calls at once are one round). What a page waits on DynamoDB's network is about this
   * many calls' latency, whatever readCalls says.
   */
  rounds: number;
}

/** Calls DynamoDB for one page, adding up calls, rounds and consumed capacity. */
export class Meter {
  readonly cost: ListCost = { readCalls: 0, readCapacity: 0, rounds: 0 };

  /** The latest round among the calls answered so far: a call sent now is in the round after it. */
  private answeredRound = 0;

  private static units(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number {
    return [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
  }

  /**
   * Sends one call and meters it. A call sent after another was answered may depend on it, so it
   * counts a round more than every call answered before it was sent: a bound no ordering of the code
   * can get under, and what the page waits with a fixed latency per call.
   */
  private async send<T extends { readonly ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }>(
    call: () => Promise<T>,
  ): Promise<T> {
    const round = this.answeredRound + 1;
    const output = await call();
    this.answeredRound = Math.max(this.answeredRound, round);
    this.cost.rounds = Math.max(this.cost.rounds, round);
    this.cost.readCalls += 1;
    this.cost.readCapacity += Meter.units(output.ConsumedCapacity);
    return output;
  }

  query(input: Omit<QueryCommandInput, 'TableName'>): Promise<QueryCommandOutput> {
    return this.send(() =>
      dynamo().send(new QueryCommand({ TableName: tableName(), ...input, ReturnConsumedCapacity: 'TOTAL' })),
    );
  }

  async get(Key: ItemKey): Promise<Item | undefined> {
    const output = await this.send(() =>
      dynamo().send(
        new GetCommand({ TableName: tableName(), Key, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }),
      ),
    );
    return output.Item;
  }

  /**
   * Items by key, strongly consistent unless told: one call per 100 keys (BatchGetItem's limit), all
   * at once, and another for each part DynamoDB leaves unprocessed. Answered by key (`keyText`); a
   * key without an item has no entry.
   */
  async getAll(keys: readonly ItemKey[], consistent = true): Promise<Map<string, Item>> {
    const found = new Map<string, Item>();
    const unique = [...new Map(keys.map((key) => [keyText(key), { pk: key.pk, sk: key.sk }])).values()];
    const batches = Array.from({ length: Math.ceil(unique.length / BATCH_GET_KEYS) }, (_, i) =>
      unique.slice(i * BATCH_GET_KEYS, (i + 1) * BATCH_GET_KEYS),
    );
    await Promise.all(
      batches.map(async (batch) => {
        let wanted: Record<string, unknown>[] | undefined = batch;
        while (wanted?.length) {
          const Keys = wanted;
          const output: BatchGetCommandOutput = await this.send(() =>
            dynamo().send(
              new BatchGetCommand({
                RequestItems: { [tableName()]: { Keys, ConsistentRead: consistent } },
                ReturnConsumedCapacity: 'TOTAL',
              }),
            ),
          );
          for (const item of output.Responses?.[tableName()] ?? []) {
            found.set(keyText(item as unknown as ItemKey), item);
          }
          wanted = output.UnprocessedKeys?.[tableName()]?.Keys;
        }
      }),
    );
    return found;
  }
}

export interface Condition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/** A walk's query: which index partition, which key range, which filter, which way. */
export interface Plan {
  readonly index: ListIndex;
  /** The walk's list partition (of a sharded list, its shard 0: shared/data/list-shards.ts). */
  readonly partition: string;
  /** Every shard of the list, `partition` first: a walk reads them all, merged in its order. */
  readonly partitions: readonly string[];
  /** Inclusive bounds of the index sort key. */
  readonly lower?: string;
  readonly upper: string;
  /** No date filter narrows it, below or above the snapshot: counters can give the total. */
  readonly whole: boolean;
  /** Above every sort key of the walk's items, whatever the snapshot (an item collection's end). */
  readonly ceiling?: string;
  readonly counter?: ItemCollection['counter'];
  /** The list is counted by day (ListSource.daily) from this day (`YYYY-MM-DD`) on. */
  readonly countedFromDay?: string;
  readonly filter?: Condition;
  /** ScanIndexForward of the walk's order. */
  readonly forward: boolean;
}

function filterCondition(clauses: readonly FilterClause[]): Condition | undefined {
  const parts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  clauses.forEach((clause, i) => {
    const name = `#f${i}`;
    names[name] = clause.attribute;
    if (clause.kind === 'equals') {
      values[`:f${i}`] = clause.value;
      parts.push(`${name} = :f${i}`);
      return;
    }
    if (clause.kind === 'contains') {
      values[`:f${i}`] = clause.value;
      parts.push(`contains(${name}, :f${i})`);
      return;
    }
    if (clause.from !== undefined) {
      values[`:f${i}from`] = clause.from;
      parts.push(`${name} >= :f${i}from`);
    }
    if (clause.to !== undefined) {
      values[`:f${i}to`] = clause.to;
      parts.push(`${name} <= :f${i}to`);
    }
  });
  return parts.length === 0 ? undefined : { expression: parts.join(' AND '), names, values };
}

/** Sort keys are `<timestamp>#<id>`: `~` sorts after `#`, so `<t>~` bounds every item of instant t. */
const upperKey = (timestamp: string): string => `${timestamp}~`;

/** No filter narrows the walk below or above its snapshot: a counter can give its total. */
export const countable = (plan: Plan): boolean => !plan.filter && plan.whole;

export function planOf({ source, filters, request }: ListPageInput): Plan | undefined {
  const collection = source.itemCollection;
  // An immutable item's update order is its creation order: its creation index answers both.
  const indexOrder = source.immutable ? 'created_at' : request.orderKey;
  const index = collection ? TABLE : INDEXES[source.scope === undefined ? 'collection' : 'scope'][indexOrder];
  const partitionOf = (shard: number): string =>
    source.scope === undefined
      ? collectionPartition(source.tenant, source.collection, shard)
      : scopePartition(source.tenant, source.collection, source.scope, shard);
  const partitions = collection
    ? [collection.pk]
    : Array.from({ length: shardsRead(source.tenant, source.collection) }, (_, shard) => partitionOf(shard));
  const prefix = collection?.prefix ?? '';
  const [orderRange, otherRange, otherAttribute] =
    request.orderKey === 'created_at'
      ? [request.created, request.updated, 'updated_at']
      : [request.updated, request.created, 'created_at'];
  const upperTime = orderRange.to !== undefined && orderRange.to < request.snapshot ? orderRange.to : request.snapshot;
  // A list of expiring items starts at its window, which its counters by day count whole.
  const since = source.daily?.since;
  const narrowed = orderRange.from !== undefined && (since === undefined || orderRange.from > since);
  const lower = narrowed ? orderRange.from : since;
  if (lower !== undefined && lower > upperTime) return undefined;
  const clauses = [...filters];
  if (otherRange.from !== undefined || otherRange.to !== undefined) {
    clauses.push({ kind: 'range', attribute: otherAttribute, ...otherRange });
  }
  const filter = filterCondition(clauses);
  // An item collection's walk starts at its prefix: the partition's other items sort before or after.
  const lowerKey = lower === undefined ? (collection ? prefix : undefined) : `${prefix}${lower}`;
  return {
    index,
    partition: partitions[0]!,
    partitions,
    ...(lowerKey === undefined ? {} : { lower: lowerKey }),
    upper: `${prefix}${upperKey(upperTime)}`,
    whole: !narrowed && upperTime === request.snapshot,
    ...(collection ? { ceiling: `${prefix}~` } : {}),
    ...(collection?.counter ? { counter: collection.counter } : {}),
    ...(since === undefined ? {} : { countedFromDay: since.slice(0, 10) }),
    ...(filter ? { filter } : {}),
    forward: request.direction === 'asc',
  };
}

export type SortRange = { readonly kind: 'range'; readonly lower?: string; readonly upper: string };

/** A walk's key range, or its items after a sort key (those created after its snapshot). */
export type KeyRange = SortRange | { readonly kind: 'after'; readonly value: string };

/** The walk's whole key range: from its lower bound (if any) to its snapshot's. */
export const walkRange = (plan: Plan): SortRange => ({
  kind: 'range',
  ...(plan.lower === undefined ? {} : { lower: plan.lower }),
  upper: plan.upper,
});

/** The key condition of `range` in one partition of the walk (its first unless told). */
export function keyCondition(plan: Plan, range: KeyRange, partition = plan.partition): Condition {
  const names = { '#pk': plan.index.pk, '#sk': plan.index.sk };
  if (range.kind === 'after') {
    return plan.ceiling === undefined
      ? { expression: '#pk = :pk AND #sk > :after', names, values: { ':pk': partition, ':after': range.value } }
      : {
          expression: '#pk = :pk AND #sk BETWEEN :after AND :ceiling',
          names,
          values: { ':pk': partition, ':after': range.value, ':ceiling': plan.ceiling },
        };
  }
  return range.lower === undefined
    ? { expression: '#pk = :pk AND #sk <= :upper', names, values: { ':pk': partition, ':upper': range.upper } }
    : {
        expression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
        names,
        values: { ':pk': partition, ':lower': range.lower, ':upper': range.upper },
      };
}

export function queryInput(
  plan: Plan,
  indexName: string | undefined,
  condition: Condition,
  filter: Condition | undefined,
): Omit<QueryCommandInput, 'TableName'> {
  return {
    ...(indexName === undefined ? {} : { IndexName: indexName }),
    KeyConditionExpression: condition.expression,
    ...(filter ? { FilterExpression: filter.expression } : {}),
    ExpressionAttributeNames: { ...condition.names, ...filter?.names },
    ExpressionAttributeValues: { ...condition.values, ...filter?.values },
  };
}

export const keyOf = (plan: Plan, item: Item): Key => ({
  pk: item['pk'],
  sk: item['sk'],
  [plan.index.pk]: item[plan.index.pk],
  [plan.index.sk]: item[plan.index.sk],
});
