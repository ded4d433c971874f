/**
 * Cursor-to-page pagination over DynamoDB, shared by every list (docs/pagination.md).
 *
 * DynamoDB only knows cursors (LastEvaluatedKey); the contract asks for page numbers and totals.
 * - A walk is one list query (tenant, collection, scope, filters, order, page size, bounds) pinned to
 *   a snapshot. The first and last keys of the pages it serves are kept in the table under the walk's
 *   hash for an hour (TTL), with the walk's total, so page N starts from the nearest known page
 *   instead of re-reading the N-1 pages before it.
 * - Without a cached neighbour, a page is reached from whichever end of the walk is nearer (the total
 *   says where the end is), stepping over the items in between on a KEYS_ONLY index; boundaries of
 *   every tenth page met on the way are cached for later jumps.
 * - Totals come from counters written in the same transaction as the items (minus the items created
 *   after the snapshot), from a keys-only count of a date range, or, when a filter rules both out,
 *   from one filtered count per walk (then cached with the walk).
 */
import { createHash } from 'node:crypto';
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandInput,
  type QueryCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { invalidField } from '../domain/errors';
import type { OrderKey, PageRequest, PageResult } from '../domain/lists';
import { dynamo, tableName } from './client';
import { counterShardsQuery, counterTotal } from './counters';
import { boundsWorthCaching, firstPageRoute, routeToPage, type PageRoute } from './page-routes';
import { collectionPartition, itemKeys, scopePartition, withoutStorageAttributes, type ItemKey } from './item-keys';

/** How long the boundaries of a walk's pages are kept after they were last written. */
export const WALK_TTL_SECONDS = 60 * 60;
/** While stepping over pages to reach a far one, the bounds of every tenth page are cached. */
export const CHECKPOINT_EVERY = 10;
/**
 * The most items one request steps over to reach its page (≈ 2,000 RCU on the keys-only index): a
 * deeper cold jump is refused rather than billed; the checkpoints of nearer jumps get there.
 */
export const MAX_STEP = 100_000;
/** A filtered read never asks DynamoDB for more than this many items at once. */
const MAX_BATCH = 1000;
const MAX_BATCH_WRITE = 25;

export type Item = Record<string, unknown>;
type Key = Record<string, unknown>;

interface ListIndex {
  /** The index with whole items: pages are read here (undefined: the table itself). */
  readonly items: string | undefined;
  /** Its KEYS_ONLY twin: counts and skips are read here when no filter needs other attributes. */
  readonly keys: string | undefined;
  readonly pk: string;
  readonly sk: string;
}

const listIndex = (n: number): ListIndex => ({
  items: `gsi${n}`,
  keys: `gsi${n}keys`,
  pk: `gsi${n}pk`,
  sk: `gsi${n}sk`,
});

const INDEXES: Record<'collection' | 'scope', Record<OrderKey, ListIndex>> = {
  collection: { created_at: listIndex(1), updated_at: listIndex(2) },
  scope: { created_at: listIndex(3), updated_at: listIndex(4) },
};

/** An item collection of the table read in its sort key's order: its items are small, no twin needed. */
const TABLE: ListIndex = { items: undefined, keys: undefined, pk: 'pk', sk: 'sk' };

/** A condition on an item attribute that the index's key cannot express. */
export type FilterClause =
  | { readonly kind: 'equals'; readonly attribute: string; readonly value: string }
  | { readonly kind: 'range'; readonly attribute: string; readonly from?: string; readonly to?: string };

export interface ListSource {
  readonly tenant: string;
  readonly collection: string;
  /** A scope with its own partition in gsi3/gsi4 (and counter), e.g. `CUSTOMER#<id>` for accounts. */
  readonly scope?: string;
  /** Instead of an index, these items of one item collection of the table (an account's movements). */
  readonly itemCollection?: ItemCollection;
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
  readonly counter?: { readonly key: ItemKey; readonly attribute: string; readonly trustedIf: string };
}

export interface ListPageInput {
  readonly source: ListSource;
  readonly filters: readonly FilterClause[];
  readonly request: PageRequest;
  /** The clock, for the cache's TTL. */
  readonly nowMs?: number;
  /** Overrides MAX_STEP (tests). */
  readonly maxStep?: number;
}

/** What answering a page cost, from DynamoDB's own ConsumedCapacity. */
export interface ListCost {
  readCalls: number;
  writeCalls: number;
  readCapacity: number;
  writeCapacity: number;
}

export interface ListPage {
  /** Stored items, with their storage attributes, in the walk's order. */
  readonly items: Item[];
  readonly total: number;
  readonly cost: ListCost;
  /** How the page was reached (undefined past the end): for tests and the benchmark. */
  readonly route?: PageRoute;
  /** Where the total came from. */
  readonly totalFrom: 'cache' | 'counter' | 'keys-count' | 'filtered-count' | 'empty-range';
}

/** Calls DynamoDB for one page, adding up calls and consumed capacity. */
class Meter {
  readonly cost: ListCost = { readCalls: 0, writeCalls: 0, readCapacity: 0, writeCapacity: 0 };

  private static units(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number {
    return [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
  }

  async query(input: Omit<QueryCommandInput, 'TableName'>): Promise<QueryCommandOutput> {
    const output = await dynamo().send(
      new QueryCommand({ TableName: tableName(), ...input, ReturnConsumedCapacity: 'TOTAL' }),
    );
    this.cost.readCalls += 1;
    this.cost.readCapacity += Meter.units(output.ConsumedCapacity);
    return output;
  }

  async get(Key: ItemKey): Promise<Item | undefined> {
    const output = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key, ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL' }),
    );
    this.cost.readCalls += 1;
    this.cost.readCapacity += Meter.units(output.ConsumedCapacity);
    return output.Item;
  }

  async put(item: Item): Promise<void> {
    const output = await dynamo().send(
      new PutCommand({ TableName: tableName(), Item: item, ReturnConsumedCapacity: 'TOTAL' }),
    );
    this.cost.writeCalls += 1;
    this.cost.writeCapacity += Meter.units(output.ConsumedCapacity);
  }

  async batchPut(items: readonly Item[]): Promise<void> {
    for (let i = 0; i < items.length; i += MAX_BATCH_WRITE) {
      const output = await dynamo().send(
        new BatchWriteCommand({
          RequestItems: {
            [tableName()]: items.slice(i, i + MAX_BATCH_WRITE).map((Item) => ({ PutRequest: { Item } })),
          },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      // Cached boundaries are an optimisation: items DynamoDB leaves unprocessed are simply not cached.
      this.cost.writeCalls += 1;
      this.cost.writeCapacity += Meter.units(output.ConsumedCapacity);
    }
  }
}

interface Condition {
  readonly expression: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, unknown>;
}

/** A walk's query: which index partition, which key range, which filter, which way. */
interface Plan {
  readonly index: ListIndex;
  readonly partition: string;
  /** Inclusive bounds of the index sort key. */
  readonly lower?: string;
  readonly upper: string;
  /** No date filter narrows it, below or above the snapshot: counters can give the total. */
  readonly whole: boolean;
  /** Above every sort key of the walk's items, whatever the snapshot (an item collection's end). */
  readonly ceiling?: string;
  readonly counter?: ItemCollection['counter'];
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

function planOf({ source, filters, request }: ListPageInput): Plan | undefined {
  const collection = source.itemCollection;
  const index = collection ? TABLE : INDEXES[source.scope === undefined ? 'collection' : 'scope'][request.orderKey];
  const partition = collection
    ? collection.pk
    : source.scope === undefined
      ? collectionPartition(source.tenant, source.collection)
      : scopePartition(source.tenant, source.collection, source.scope);
  const prefix = collection?.prefix ?? '';
  const [orderRange, otherRange, otherAttribute] =
    request.orderKey === 'created_at'
      ? [request.created, request.updated, 'updated_at']
      : [request.updated, request.created, 'created_at'];
  const upperTime = orderRange.to !== undefined && orderRange.to < request.snapshot ? orderRange.to : request.snapshot;
  const lower = orderRange.from;
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
    partition,
    ...(lowerKey === undefined ? {} : { lower: lowerKey }),
    upper: `${prefix}${upperKey(upperTime)}`,
    whole: lower === undefined && upperTime === request.snapshot,
    ...(collection ? { ceiling: `${prefix}~` } : {}),
    ...(collection?.counter ? { counter: collection.counter } : {}),
    ...(filter ? { filter } : {}),
    forward: request.direction === 'asc',
  };
}

/** The walk: everything that decides which items a page holds. Equal queries share cached pages. */
function walkId(input: ListPageInput, plan: Plan): string {
  const { request, source } = input;
  const identity = JSON.stringify([
    1,
    source.tenant,
    source.collection,
    source.scope ?? null,
    source.itemCollection?.pk ?? null,
    plan.index.items ?? null,
    plan.lower ?? null,
    plan.upper,
    plan.filter?.expression ?? null,
    plan.filter ? Object.entries(plan.filter.names) : null,
    plan.filter ? Object.entries(plan.filter.values) : null,
    request.direction,
    request.pageSize,
  ]);
  return createHash('sha256').update(identity).digest('base64url');
}

type SortRange = { readonly kind: 'range'; readonly lower?: string; readonly upper: string };

function keyCondition(plan: Plan, range: SortRange | { readonly kind: 'after'; readonly value: string }): Condition {
  const names = { '#pk': plan.index.pk, '#sk': plan.index.sk };
  if (range.kind === 'after') {
    return plan.ceiling === undefined
      ? { expression: '#pk = :pk AND #sk > :after', names, values: { ':pk': plan.partition, ':after': range.value } }
      : {
          expression: '#pk = :pk AND #sk BETWEEN :after AND :ceiling',
          names,
          values: { ':pk': plan.partition, ':after': range.value, ':ceiling': plan.ceiling },
        };
  }
  return range.lower === undefined
    ? { expression: '#pk = :pk AND #sk <= :upper', names, values: { ':pk': plan.partition, ':upper': range.upper } }
    : {
        expression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
        names,
        values: { ':pk': plan.partition, ':lower': range.lower, ':upper': range.upper },
      };
}

function queryInput(
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

async function countItems(meter: Meter, input: Omit<QueryCommandInput, 'TableName'>): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Key | undefined;
  do {
    const page = await meter.query({ ...input, Select: 'COUNT', ExclusiveStartKey });
    count += page.Count ?? 0;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

async function counterValue(meter: Meter, plan: Plan): Promise<number | undefined> {
  if (plan.ceiling !== undefined) {
    if (!plan.counter) return undefined;
    const item = await meter.get(plan.counter.key);
    const value = item?.[plan.counter.attribute];
    return item?.[plan.counter.trustedIf] !== undefined && typeof value === 'number' ? value : undefined;
  }
  const { Items = [] } = await meter.query(counterShardsQuery(plan.partition));
  return counterTotal(Items);
}

async function computeTotal(meter: Meter, plan: Plan): Promise<{ total: number; from: ListPage['totalFrom'] }> {
  const range: SortRange = {
    kind: 'range',
    ...(plan.lower === undefined ? {} : { lower: plan.lower }),
    upper: plan.upper,
  };
  if (!plan.filter && plan.whole) {
    // Everything ever counted, minus what was created (or, by update order, updated) after the snapshot.
    const [counted, after] = await Promise.all([
      counterValue(meter, plan),
      countItems(
        meter,
        queryInput(plan, plan.index.keys, keyCondition(plan, { kind: 'after', value: plan.upper }), undefined),
      ),
    ]);
    if (counted !== undefined) return { total: Math.max(0, counted - after), from: 'counter' };
  }
  if (!plan.filter) {
    return {
      total: await countItems(meter, queryInput(plan, plan.index.keys, keyCondition(plan, range), undefined)),
      from: 'keys-count',
    };
  }
  return {
    total: await countItems(meter, queryInput(plan, plan.index.items, keyCondition(plan, range), plan.filter)),
    from: 'filtered-count',
  };
}

interface WalkPage {
  readonly page: number;
  readonly total: number;
  readonly first?: Key;
  readonly last?: Key;
}

function walkPageOf(item: Item | undefined, nowSeconds: number): WalkPage | undefined {
  // TTL deletes lazily: an expired record may still be read, and must be ignored.
  if (!item || Number(item['expires_at']) < nowSeconds) return undefined;
  return {
    page: itemKeys.walkPageNumber(String(item['sk'])),
    total: Number(item['total']),
    ...(item['first'] ? { first: item['first'] as Key } : {}),
    ...(item['last'] ? { last: item['last'] as Key } : {}),
  };
}

/** The nearest cached pages of the walk at or before `page`, and (if that is not adjacent) after it. */
async function nearestPages(
  meter: Meter,
  walk: string,
  page: number,
  nowSeconds: number,
): Promise<{ below?: WalkPage; above?: WalkPage }> {
  const { pk, sk } = itemKeys.walkPage(walk, page);
  const nearest = (forward: boolean) =>
    meter.query({
      KeyConditionExpression: forward ? 'pk = :pk AND sk > :sk' : 'pk = :pk AND sk <= :sk',
      ExpressionAttributeValues: { ':pk': pk, ':sk': sk },
      ScanIndexForward: forward,
      Limit: 1,
      // Written by the previous request of the walk, a moment ago.
      ConsistentRead: true,
    });
  const below = walkPageOf((await nearest(false)).Items?.[0], nowSeconds);
  if (below && below.page >= page - 1) return { below };
  const above = walkPageOf((await nearest(true)).Items?.[0], nowSeconds);
  return { ...(below ? { below } : {}), ...(above ? { above } : {}) };
}

const keyOf = (plan: Plan, item: Item): Key => ({
  pk: item['pk'],
  sk: item['sk'],
  [plan.index.pk]: item[plan.index.pk],
  [plan.index.sk]: item[plan.index.sk],
});

/**
 * Visits `need` items matching the plan's filter from `start` on, in read order, keeping none of them
 * itself. Limit applies before the filter, so the read goes on until enough items match, sizing each
 * call by the share of items that matched so far. Answers how many items it visited.
 */
async function visitMatching(
  meter: Meter,
  plan: Plan,
  indexName: string | undefined,
  condition: Condition,
  filter: Condition | undefined,
  scanForward: boolean,
  start: Key | undefined,
  need: number,
  visit: (item: Item, position: number) => void,
): Promise<number> {
  let matched = 0;
  let scanned = 0;
  let ExclusiveStartKey = start;
  while (matched < need) {
    const remaining = need - matched;
    const share = scanned === 0 ? 1 : Math.max(matched / scanned, 0.05);
    const limit = Math.min(Math.max(remaining, Math.ceil(remaining / share)), Math.max(remaining, MAX_BATCH));
    const page = await meter.query({
      ...queryInput(plan, indexName, condition, filter),
      ScanIndexForward: scanForward,
      Limit: filter ? limit : remaining,
      ...(ExclusiveStartKey ? { ExclusiveStartKey } : {}),
    });
    scanned += page.ScannedCount ?? 0;
    for (const item of page.Items ?? []) {
      if (matched === need) break;
      visit(item, matched);
      matched += 1;
    }
    if (!page.LastEvaluatedKey) break;
    ExclusiveStartKey = page.LastEvaluatedKey;
  }
  return matched;
}

interface RouteRead {
  /** Page items, in the walk's order. */
  readonly items: Item[];
  /** Keys met on the way that bound a page worth caching, by their position in the walk. */
  readonly positions: Map<number, Key>;
}

/** Positions in the walk that are the first or last item of a page cached as a checkpoint. */
function isCheckpointBound(offset: number, pageSize: number, total: number): boolean {
  const page = Math.floor(offset / pageSize) + 1;
  if (page % CHECKPOINT_EVERY !== 0) return false;
  return offset === (page - 1) * pageSize || offset === Math.min(page * pageSize, total) - 1;
}

async function readRoute(
  meter: Meter,
  plan: Plan,
  route: PageRoute,
  near: { below?: WalkPage; above?: WalkPage },
  pageSize: number,
  total: number,
): Promise<RouteRead> {
  const scanForward = plan.forward !== route.backward;
  let range: SortRange = {
    kind: 'range',
    ...(plan.lower === undefined ? {} : { lower: plan.lower }),
    upper: plan.upper,
  };
  let start: Key | undefined;
  switch (route.anchor.kind) {
    case 'page': {
      const bounds = [near.below?.first?.[plan.index.sk], near.below?.last?.[plan.index.sk]].map(String).sort();
      range = { kind: 'range', lower: bounds[0]!, upper: bounds[1]! };
      break;
    }
    case 'after':
      start = near.below?.last;
      break;
    case 'before':
      start = near.above?.first;
      break;
    default:
      break;
  }
  const condition = keyCondition(plan, range);
  const step = route.backward ? -1 : 1;
  const positions = new Map<number, Key>();
  const page: Item[] = [];
  let lastSkipped: Key | undefined;
  // Stepped-over items are not kept: only the keys that bound checkpoint pages, and the last one.
  const passOver = (item: Item, i: number) => {
    const offset = route.firstOffset + step * i;
    lastSkipped = keyOf(plan, item);
    if (isCheckpointBound(offset, pageSize, total)) positions.set(offset, lastSkipped);
  };
  const collect = (item: Item, i: number) => {
    positions.set(route.firstOffset + step * (route.skip + i), keyOf(plan, item));
    page.push(item);
  };

  if (route.skip > 0 && !plan.filter) {
    // Step over the skipped items on the KEYS_ONLY twin, then read the page's whole items after them.
    const passed = await visitMatching(
      meter,
      plan,
      plan.index.keys,
      condition,
      undefined,
      scanForward,
      start,
      route.skip,
      passOver,
    );
    if (passed === route.skip) {
      await visitMatching(
        meter,
        plan,
        plan.index.items,
        condition,
        undefined,
        scanForward,
        lastSkipped,
        route.take,
        collect,
      );
    }
  } else {
    await visitMatching(
      meter,
      plan,
      plan.index.items,
      condition,
      plan.filter,
      scanForward,
      start,
      route.skip + route.take,
      (item, i) => (i < route.skip ? passOver(item, i) : collect(item, i - route.skip)),
    );
  }
  return { items: route.backward ? page.reverse() : page, positions };
}

/**
 * The pages whose bounds a read met: the page asked for (unless no later request of its walk needs
 * them: shared/data/page-routes.ts), and every tenth page stepped over.
 */
function pagesToCache(
  request: PageRequest,
  total: number,
  route: PageRoute,
  read: RouteRead,
): { page: number; first: Key; last: Key }[] {
  const { pageSize, pageNumber } = request;
  const records: { page: number; first: Key; last: Key }[] = [];
  if (route.anchor.kind !== 'page' && read.items.length > 0 && boundsWorthCaching(route, pageNumber, pageSize, total)) {
    // A read that ran out early (the list shrank since the total was taken) caches nothing unsure.
    const first = read.positions.get((pageNumber - 1) * pageSize);
    const last = read.positions.get((pageNumber - 1) * pageSize + read.items.length - 1);
    if (first && last) records.push({ page: pageNumber, first, last });
  }
  const offsets = [...read.positions.keys()];
  if (offsets.length === 0) return records;
  const firstPage = Math.floor(Math.min(...offsets) / pageSize) + 1;
  const lastPage = Math.floor(Math.max(...offsets) / pageSize) + 1;
  for (
    let page = Math.ceil(firstPage / CHECKPOINT_EVERY) * CHECKPOINT_EVERY;
    page <= lastPage;
    page += CHECKPOINT_EVERY
  ) {
    if (page === pageNumber || page < 1) continue;
    const first = read.positions.get((page - 1) * pageSize);
    const last = read.positions.get(Math.min(page * pageSize, total) - 1);
    if (first && last) records.push({ page, first, last });
  }
  return records;
}

async function cachePages(
  meter: Meter,
  walk: string,
  total: number,
  records: readonly { page: number; first?: Key; last?: Key }[],
  nowMs: number,
): Promise<void> {
  const expires_at = Math.floor(nowMs / 1000) + WALK_TTL_SECONDS;
  const items = records.map((record) => ({
    ...itemKeys.walkPage(walk, record.page),
    entity: 'WALK_PAGE',
    total,
    ...(record.first ? { first: record.first } : {}),
    ...(record.last ? { last: record.last } : {}),
    expires_at,
  }));
  if (items.length === 1) await meter.put(items[0]!);
  else if (items.length > 1) await meter.batchPut(items);
}

/** One page of a list, with its walk's total. */
export async function listPage(input: ListPageInput): Promise<ListPage> {
  const nowMs = input.nowMs ?? Date.now();
  const meter = new Meter();
  const plan = planOf(input);
  if (!plan) return { items: [], total: 0, cost: meter.cost, totalFrom: 'empty-range' };
  const { pageNumber, pageSize } = input.request;
  const walk = walkId(input, plan);

  // A walk that starts now has nothing cached yet.
  const near = input.request.pinned ? await nearestPages(meter, walk, pageNumber, Math.floor(nowMs / 1000)) : {};
  const cachedTotal = near.below?.total ?? near.above?.total;
  // Page 1 is read from the start whatever the total: while the total is counted, not after.
  const [{ total, from }, firstPage] = await Promise.all([
    cachedTotal === undefined ? computeTotal(meter, plan) : { total: cachedTotal, from: 'cache' as const },
    cachedTotal === undefined && pageNumber === 1
      ? readRoute(meter, plan, firstPageRoute(pageSize), near, pageSize, Number.POSITIVE_INFINITY)
      : undefined,
  ]);

  const route = routeToPage({
    page: pageNumber,
    pageSize,
    total,
    ...(near.below ? { below: near.below.page } : {}),
    ...(near.above ? { above: near.above.page } : {}),
  });
  if (!route) {
    // Past the end: keep the total, so the next request of the walk does not count again (page 1 of
    // an empty list is the whole walk: nothing to keep).
    if (from !== 'cache' && pageNumber > 1) await cachePages(meter, walk, total, [{ page: 0 }], nowMs);
    return { items: [], total, cost: meter.cost, totalFrom: from };
  }
  if (route.skip > (input.maxStep ?? MAX_STEP)) {
    throw invalidField(
      'page_number',
      `is too far from the pages served so far in this walk (one request steps over at most ${input.maxStep ?? MAX_STEP} items): ask for nearer pages first, or narrow the list with filters`,
    );
  }
  // The total may hold fewer items than the index showed page 1 (a delete the index has not caught up with).
  const read = firstPage
    ? { ...firstPage, items: firstPage.items.slice(0, route.take) }
    : await readRoute(meter, plan, route, near, pageSize, total);
  await cachePages(meter, walk, total, pagesToCache(input.request, total, route, read), nowMs);
  return { items: read.items, total, cost: meter.cost, route, totalFrom: from };
}

export interface ListRecordsInput {
  readonly tenant: string;
  readonly collection: string;
  /** Read only this scope's partition (e.g. `CUSTOMER#<id>` for a customer_id filter). */
  readonly scope?: string | undefined;
  /** Keep the items whose attribute equals the value; an undefined value is no filter. */
  readonly equals?: Readonly<Record<string, string | undefined>>;
  readonly request: PageRequest;
}

/** A page of a tenant's records, as a repository's `list` answers it: stored records and the total. */
export async function listRecords<T>({
  tenant,
  collection,
  scope,
  equals = {},
  request,
}: ListRecordsInput): Promise<PageResult<T>> {
  const filters: FilterClause[] = Object.entries(equals).flatMap(([attribute, value]) =>
    value === undefined ? [] : [{ kind: 'equals' as const, attribute, value }],
  );
  const page = await listPage({
    source: { tenant, collection, ...(scope === undefined ? {} : { scope }) },
    filters,
    request,
  });
  return { items: page.items.map((item) => withoutStorageAttributes<T>(item)), total: page.total };
}
