/**
 * Cursor-to-page pagination over DynamoDB, shared by every list (docs/pagination.md).
 *
 * DynamoDB only knows cursors (LastEvaluatedKey); the contract asks for page numbers and totals.
 * - A walk is one list query (tenant, collection, scope, filters, order, page size, bounds) pinned to
 *   a snapshot. A page is found by its position in the walk as the table holds it when the page is
 *   asked: from whichever end of the walk is nearer (the total says where the end is), stepping over
 *   the items in between on a KEYS_ONLY index. Nothing is written: a read never costs write units,
 *   and never fails because writes are throttled.
 * - Totals come from counters written in the same transaction as the items (minus the items created
 *   after the snapshot), from a keys-only count of a date range, or, when a filter rules both out,
 *   from a filtered count. Page 1 of a new walk (its snapshot is now) takes the counter as it is,
 *   read while the page is: two calls.
 * - A walk read in order from its start (the report worker's) reads each page from where the last
 *   one ended (walkPage): no item is stepped over twice, and no total is counted.
 */
import type { ConsumedCapacity } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, type QueryCommandInput, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { invalidField } from '../domain/errors';
import type { ListCursor, OrderKey, PageRequest, PageResult, WalkPage } from '../domain/lists';
import { dynamo, tableName } from './client';
import { counterShardsQuery, counterTotal } from './counters';
import { firstPageRoute, routeToPage, type PageRoute } from './page-routes';
import { collectionPartition, scopePartition, withoutStorageAttributes, type ItemKey } from './item-keys';

/**
 * The most items one request steps over to reach its page (≈ 2,000 RCU on the keys-only index): a
 * page farther than that from both ends of its walk is refused rather than billed; filters (a date
 * range) narrow the walk until it is near an end.
 */
export const MAX_STEP = 100_000;
/** A filtered read never asks DynamoDB for more than this many items at once. */
const MAX_BATCH = 1000;

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
  /** Overrides MAX_STEP (tests). */
  readonly maxStep?: number;
}

/** What answering a page cost, from DynamoDB's own ConsumedCapacity. */
export interface ListCost {
  readCalls: number;
  readCapacity: number;
}

export interface ListPage {
  /** Stored items, with their storage attributes, in the walk's order. */
  readonly items: Item[];
  readonly total: number;
  readonly cost: ListCost;
  /** How the page was reached (undefined past the end): for tests and the benchmark. */
  readonly route?: PageRoute;
  /**
   * Where the total came from: `counter` alone (page 1 of a new walk), the counter less the items
   * after the snapshot, a keys-only count of a date range, a filtered count.
   */
  readonly totalFrom: 'counter' | 'counter-at-snapshot' | 'keys-count' | 'filtered-count' | 'empty-range';
}

/** Calls DynamoDB for one page, adding up calls and consumed capacity. */
class Meter {
  readonly cost: ListCost = { readCalls: 0, readCapacity: 0 };

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

/** The walk's counter (undefined: an item collection counted only from some item on, or not at all). */
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

interface Total {
  readonly total: number;
  readonly from: ListPage['totalFrom'];
  /**
   * False when the total may be off by an item created while it was counted: the counter and the
   * items after the snapshot are read at once, and an insert committed between the two reads is in
   * one and not the other. Positions from the end of the walk need an exact total; positions from
   * its start do not.
   */
  readonly settled: boolean;
}

/** The items created (or, by update order, updated) after the snapshot: the counter holds them too. */
const countAfterSnapshot = (meter: Meter, plan: Plan): Promise<number> =>
  countItems(
    meter,
    queryInput(plan, plan.index.keys, keyCondition(plan, { kind: 'after', value: plan.upper }), undefined),
  );

/** Everything ever counted, minus what came after the snapshot; undefined without a counter to trust. */
async function totalAtSnapshot(meter: Meter, plan: Plan): Promise<Total | undefined> {
  // A list partition's counter is always there, read with the items after the snapshot. An item
  // collection's may not be trusted (an account linked before its ledger counted): it is read first.
  const [counted, after] =
    plan.ceiling === undefined
      ? await Promise.all([counterValue(meter, plan), countAfterSnapshot(meter, plan)])
      : await counterValue(meter, plan).then(
          async (value) => [value, value === undefined ? 0 : await countAfterSnapshot(meter, plan)] as const,
        );
  if (counted === undefined) return undefined;
  // Nothing after the snapshot: no insert since it, so none between the two reads either.
  return { total: Math.max(0, counted - after), from: 'counter-at-snapshot', settled: after === 0 };
}

/** The walk's items counted one by one: on the keys-only twin, or through the filter. */
async function countedTotal(meter: Meter, plan: Plan): Promise<Total> {
  const range: SortRange = {
    kind: 'range',
    ...(plan.lower === undefined ? {} : { lower: plan.lower }),
    upper: plan.upper,
  };
  if (!plan.filter) {
    return {
      total: await countItems(meter, queryInput(plan, plan.index.keys, keyCondition(plan, range), undefined)),
      from: 'keys-count',
      settled: true,
    };
  }
  return {
    total: await countItems(meter, queryInput(plan, plan.index.items, keyCondition(plan, range), plan.filter)),
    from: 'filtered-count',
    settled: true,
  };
}

/** No filter narrows the walk below or above its snapshot: a counter can give its total. */
const counted = (plan: Plan): boolean => !plan.filter && plan.whole;

async function computeTotal(meter: Meter, plan: Plan): Promise<Total> {
  return (counted(plan) ? await totalAtSnapshot(meter, plan) : undefined) ?? countedTotal(meter, plan);
}

/** A new walk's snapshot is this request's now: its counter, as it is, is its total. */
async function newWalkTotal(meter: Meter, plan: Plan): Promise<Total> {
  const total = await counterValue(meter, plan);
  return total === undefined ? countedTotal(meter, plan) : { total, from: 'counter', settled: true };
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

/** The page's items, in the walk's order, read along `route` from the end of the walk it starts at. */
async function readRoute(meter: Meter, plan: Plan, route: PageRoute): Promise<Item[]> {
  const scanForward = plan.forward !== route.backward;
  const condition = keyCondition(plan, {
    kind: 'range',
    ...(plan.lower === undefined ? {} : { lower: plan.lower }),
    upper: plan.upper,
  });
  const page: Item[] = [];
  const collect = (item: Item) => {
    page.push(item);
  };
  if (route.skip > 0 && !plan.filter) {
    // Step over the skipped items on the KEYS_ONLY twin, then read the page's whole items after them.
    let lastSkipped: Key | undefined;
    const passed = await visitMatching(
      meter,
      plan,
      plan.index.keys,
      condition,
      undefined,
      scanForward,
      undefined,
      route.skip,
      (item) => {
        lastSkipped = keyOf(plan, item);
      },
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
      undefined,
      route.skip + route.take,
      (item, i) => {
        if (i >= route.skip) collect(item);
      },
    );
  }
  return route.backward ? page.reverse() : page;
}

const fromTheStart = (page: number, pageSize: number): PageRoute => ({
  ...firstPageRoute(pageSize),
  skip: (page - 1) * pageSize,
});

/** One page of a list, with its walk's total. */
export async function listPage(input: ListPageInput): Promise<ListPage> {
  const meter = new Meter();
  const plan = planOf(input);
  if (!plan) return { items: [], total: 0, cost: meter.cost, totalFrom: 'empty-range' };
  const { pageNumber, pageSize, pinned } = input.request;

  // Page 1 is read from the start whatever the total: while the total is counted, not after. A new
  // walk's snapshot is this request's now: the counter is its total, and the page its only other call.
  const [{ total, from, settled }, firstPage] = await Promise.all([
    counted(plan) && !pinned && pageNumber === 1 ? newWalkTotal(meter, plan) : computeTotal(meter, plan),
    pageNumber === 1 ? readRoute(meter, plan, firstPageRoute(pageSize)) : undefined,
  ]);

  // A total that may be off is not trusted with positions: the page is read from the start, as far
  // as the walk goes (its snapshot bounds it), and it is past the end only if nothing is there.
  const route = settled ? routeToPage({ page: pageNumber, pageSize, total }) : fromTheStart(pageNumber, pageSize);
  if (!route) return { items: [], total, cost: meter.cost, totalFrom: from };
  if (route.skip > (input.maxStep ?? MAX_STEP)) {
    throw invalidField(
      'page_number',
      `is too far from both ends of the list (one request steps over at most ${input.maxStep ?? MAX_STEP} items): narrow the list with filters, such as a date range`,
    );
  }
  // The total may hold fewer items than the index showed page 1 (a delete the index has not caught up with).
  const items = firstPage ? firstPage.slice(0, route.take) : await readRoute(meter, plan, route);
  return { items, total, cost: meter.cost, route, totalFrom: from };
}

/**
 * The page of a walk read in order that follows `after` (the walk's first page without): read from
 * there on, so that reading a walk page by page reads each item once. `next` is where the page ends,
 * while the walk may go on.
 */
export async function walkPage(
  input: ListPageInput,
  after: ListCursor | undefined,
): Promise<WalkPage<Item> & { readonly cost: ListCost }> {
  const meter = new Meter();
  const plan = planOf(input);
  if (!plan) return { items: [], cost: meter.cost };
  const { pageSize } = input.request;
  const items: Item[] = [];
  const condition = keyCondition(plan, {
    kind: 'range',
    ...(plan.lower === undefined ? {} : { lower: plan.lower }),
    upper: plan.upper,
  });
  await visitMatching(meter, plan, plan.index.items, condition, plan.filter, plan.forward, after, pageSize, (item) => {
    items.push(item);
  });
  const last = items.at(-1);
  return { items, ...(items.length === pageSize && last ? { next: keyOf(plan, last) } : {}), cost: meter.cost };
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
export async function listRecords<T>(input: ListRecordsInput): Promise<PageResult<T>> {
  const page = await listPage(listPageInput(input));
  return { items: page.items.map((item) => withoutStorageAttributes<T>(item)), total: page.total };
}

function listPageInput({ tenant, collection, scope, equals = {}, request }: ListRecordsInput): ListPageInput {
  const filters: FilterClause[] = Object.entries(equals).flatMap(([attribute, value]) =>
    value === undefined ? [] : [{ kind: 'equals' as const, attribute, value }],
  );
  return { source: { tenant, collection, ...(scope === undefined ? {} : { scope }) }, filters, request };
}

/** A page of a walk of a tenant's records read in order (walkPage), as a repository's `walk` answers it. */
export async function walkRecords<T>(input: ListRecordsInput, after: ListCursor | undefined): Promise<WalkPage<T>> {
  const page = await walkPage(listPageInput(input), after);
  return {
    items: page.items.map((item) => withoutStorageAttributes<T>(item)),
    ...(page.next ? { next: page.next } : {}),
  };
}
