/**
 * Cursor-to-page pagination over DynamoDB, shared by every list (docs/pagination.md).
 *
 * DynamoDB only knows cursors (LastEvaluatedKey); the contract asks for page numbers and totals.
 * - A walk is one list query (tenant, collection, scope, filters, order, page size, bounds) pinned to
 *   a snapshot. A page is found by its position in the walk as the table holds it when the page is
 *   asked: from whichever end of the walk is nearer (the total says where the end is), stepping over
 *   the items in between on a KEYS_ONLY index. Nothing is written: a read never costs write units,
 *   and never fails because writes are throttled.
 * - Totals (shared/data/list-totals.ts) come from counters written in the same transaction as the
 *   items (minus the items created after the snapshot), from a keys-only count of a date range, or,
 *   when a filter rules both out, from a filtered count. Page 1 of a new walk (its snapshot is now)
 *   takes the counter as it is, read while the page is: two calls.
 * - A list under a record reads it with the page, and a list joined to another item of each of its
 *   items reads those by key (shared/data/page-companions.ts): in the same calls on page 1.
 * - A walk read in order from its start (the report worker's) reads each page from where the last
 *   one ended (walkPage): no item is stepped over twice, and no total is counted.
 */
import { invalidField } from '../domain/errors';
import type { ListCursor, PageRequest, PageResult, PageUnder, WalkPage } from '../domain/lists';
import { counterShardKeys, counterTotal } from './counters';
import { firstPageRoute, routeToPage, type PageRoute } from './page-routes';
import { withoutStorageAttributes, type ItemKey } from './item-keys';
import { computeTotal, filteredFirstPage, newWalkTotal, type TotalSource } from './list-totals';
import { joinAll, joinedItem, joinKey, ParentRead } from './page-companions';
import { visitMatching } from './list-visits';
import {
  countable,
  keyOf,
  keyText,
  Meter,
  planOf,
  type FilterClause,
  type Item,
  type Key,
  type ListCost,
  type ListJoin,
  type ListPageInput,
  type ListSource,
  type Plan,
} from './list-plans';

export type { FilterClause, Item, ItemCollection, ListCost, ListJoin, ListPageInput, ListSource } from './list-plans';

/**
 * The most items one request steps over to reach its page (≈ 2,000 RCU on the keys-only index): a
 * page farther than that from both ends of its walk is refused rather than billed; filters (a date
 * range) narrow the walk until it is near an end.
 */
export const MAX_STEP = 100_000;

/** MAX_STEP on an index without a keys-only twin, whose steps read whole items: ≈ 2,000 RCU too. */
export const MAX_WHOLE_STEP = 20_000;

export interface ListPage {
  /** Stored items, with their storage attributes, in the walk's order. */
  readonly items: Item[];
  readonly total: number;
  readonly cost: ListCost;
  /** How the page was reached (undefined past the end): for tests and the benchmark. */
  readonly route?: PageRoute;
  /** Where the total came from. */
  readonly totalFrom: TotalSource;
  /** With ListPageInput.parent: the parent record as read (undefined: there is none). */
  readonly parent?: Item | undefined;
}

/**
 * The page's items, in the walk's order, read along `route` from the end of the walk it starts at,
 * each with its joined item when the list has one (ListJoin).
 */
async function readRoute(meter: Meter, plan: Plan, route: PageRoute, join?: ListJoin): Promise<Item[]> {
  const scanForward = plan.forward !== route.backward;
  const inOrder = (page: Item[]) => (route.backward ? page.reverse() : page);
  // The first `count` keys of the walk on its KEYS_ONLY twin (without a filter: it needs whole items).
  const visitKeys = (count: number, visit: (item: Item, position: number) => void) =>
    visitMatching(meter, plan, { index: plan.index.keys, forward: scanForward, need: count }, visit);
  if (route.skip > 0 && !plan.filter && join) {
    // The skipped items and the page's keys in one read of the keys; then the page's items and their
    // joined items by key, in one BatchGetItem: the page's own read would be a call more.
    const keys: ItemKey[] = [];
    await visitKeys(route.skip + route.take, (item, i) => {
      if (i >= route.skip) keys.push({ pk: String(item['pk']), sk: String(item['sk']) });
    });
    // Eventually consistent, as the index the keys come from (half the units: a batch charges each
    // item apart). What the read missed of an item just written, or of what it needs (ListJoin.needs),
    // is read again strongly consistent.
    const found = await meter.getAll([...keys, ...keys.map((key) => joinKey(join, key))], false);
    const missed = keys.flatMap((key) => {
      const item = found.get(keyText(key));
      const joined = joinKey(join, key);
      if (!item) return [key, joined];
      return join.needs?.(item) && !found.has(keyText(joined)) ? [joined] : [];
    });
    if (missed.length > 0) for (const [key, item] of await meter.getAll(missed)) found.set(key, item);
    // An item deleted since the index showed its key is left out, as a page read from the index would.
    const items = keys.flatMap((key) => [found.get(keyText(key))].filter((item) => item !== undefined));
    return inOrder(items.map((item) => joinedItem(join, item, found)));
  }
  const page: Item[] = [];
  const collect = (item: Item) => {
    page.push(item);
  };
  if (route.skip > 0 && !plan.filter) {
    // Step over the skipped items on the keys, then read the page's whole items after them.
    let lastSkipped: Key | undefined;
    const passed = await visitKeys(route.skip, (item) => {
      lastSkipped = keyOf(plan, item);
    });
    if (passed === route.skip) {
      const request = { index: plan.index.items, forward: scanForward, start: lastSkipped, need: route.take };
      await visitMatching(meter, plan, request, collect);
    }
  } else {
    const request = {
      index: plan.index.items,
      filter: plan.filter,
      forward: scanForward,
      need: route.skip + route.take,
    };
    await visitMatching(meter, plan, request, (item, i) => {
      if (i >= route.skip) collect(item);
    });
  }
  return joinAll(meter, join, inOrder(page));
}

const fromTheStart = (page: number, pageSize: number): PageRoute => ({
  ...firstPageRoute(pageSize),
  skip: (page - 1) * pageSize,
});

/** One page of a list, with its walk's total. */
export async function listPage(input: ListPageInput): Promise<ListPage> {
  const meter = new Meter();
  const plan = planOf(input);
  const parent = ParentRead.of(input, plan);
  parent?.start(meter);
  if (!plan) return { items: [], total: 0, cost: meter.cost, totalFrom: 'empty-range', ...(await parentOf(parent)) };
  const { pageNumber, pageSize, pinned } = input.request;
  if (
    input.join &&
    !parent &&
    plan.ceiling === undefined &&
    plan.countedFromDay === undefined &&
    countable(plan) &&
    !pinned &&
    pageNumber === 1
  ) {
    return joinedFirstPage(meter, plan, input.join, pageSize);
  }

  // Page 1 is read from the start whatever the total: while the total is counted, not after. A new
  // walk's snapshot is this request's now: the counter is its total, and the page its only other call.
  // A later page counted by reading its walk whole keeps its items from that read (Keep).
  const [{ total, from, settled, kept }, firstPage] =
    pageNumber === 1 && plan.filter
      ? await filteredFirstPage(meter, plan, pageSize)
      : await Promise.all([
          countable(plan) && !pinned && pageNumber === 1
            ? newWalkTotal(meter, plan, parent)
            : computeTotal(meter, plan, parent, pageNumber === 1 ? undefined : fromTheStart(pageNumber, pageSize)),
          pageNumber === 1 ? readRoute(meter, plan, firstPageRoute(pageSize)) : undefined,
        ]);
  // Of a parent that is not the tenant's, nothing is told: not even how far its list goes.
  const found = await parentOf(parent);
  if (input.parent && found.parent?.['tenant'] !== input.parent.tenant) {
    return { items: [], total: 0, cost: meter.cost, totalFrom: from, ...found };
  }

  // A total that may be off is not trusted with positions: the page is read from the start, as far
  // as the walk goes (its snapshot bounds it), and it is past the end only if nothing is there.
  const route = settled ? routeToPage({ page: pageNumber, pageSize, total }) : fromTheStart(pageNumber, pageSize);
  if (!route) return { items: [], total, cost: meter.cost, totalFrom: from, ...found };
  const maxStep = input.maxStep ?? (plan.index.stepsWhole ? MAX_WHOLE_STEP : MAX_STEP);
  if (route.skip > maxStep) {
    throw invalidField(
      'page_number',
      `is too far from both ends of the list (one request steps over at most ${maxStep} items): narrow the list with filters, such as a date range`,
    );
  }
  if (kept) {
    // Read from the start by the count, whatever the nearer end.
    const items = await joinAll(meter, input.join, kept.slice(0, route.take));
    const read = { ...fromTheStart(pageNumber, pageSize), take: route.take };
    return { items, total, cost: meter.cost, route: read, totalFrom: from, ...found };
  }
  // The total may hold fewer items than the index showed page 1 (a delete the index has not caught up with).
  const items = firstPage
    ? await joinAll(meter, input.join, firstPage.slice(0, route.take))
    : await readRoute(meter, plan, route, input.join);
  return { items, total, cost: meter.cost, route, totalFrom: from, ...found };
}

const parentOf = async (parent: ParentRead | undefined): Promise<Pick<ListPage, 'parent'>> =>
  parent ? { parent: await parent.item() } : {};

/**
 * Page 1 of a new walk whose items are answered with others (ListJoin): its page first, then the
 * counter's shards and the joined items in one BatchGetItem: two calls, as any page 1 (up to 96
 * items a page: a batch takes 100 keys).
 */
async function joinedFirstPage(meter: Meter, plan: Plan, join: ListJoin, pageSize: number): Promise<ListPage> {
  const read = await readRoute(meter, plan, firstPageRoute(pageSize));
  const shards = plan.partitions.flatMap(counterShardKeys);
  const found = await meter.getAll([...shards, ...read.map((item) => joinKey(join, item))]);
  const total = counterTotal(shards.flatMap((key) => [found.get(keyText(key))].filter((item) => item !== undefined)));
  const route = routeToPage({ page: 1, pageSize, total });
  const items = route ? read.slice(0, route.take).map((item) => joinedItem(join, item, found)) : [];
  return { items, total, cost: meter.cost, ...(route ? { route } : {}), totalFrom: 'counter' };
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
  const request = { index: plan.index.items, filter: plan.filter, forward: plan.forward, start: after, need: pageSize };
  await visitMatching(meter, plan, request, (item) => {
    items.push(item);
  });
  const last = items.at(-1);
  return {
    items: await joinAll(meter, input.join, items),
    ...(items.length === pageSize && last ? { next: keyOf(plan, last) } : {}),
    cost: meter.cost,
  };
}

export interface ListRecordsInput {
  readonly tenant: string;
  readonly collection: string;
  /** Read only this scope's partition (e.g. `CUSTOMER#<id>` for a customer_id filter). */
  readonly scope?: string | undefined;
  /** Keep the items whose attribute equals the value; an undefined value is no filter. */
  readonly equals?: Readonly<Record<string, string | number | undefined>>;
  /** Keep the items whose attribute (a string) holds every one of the values. */
  readonly contains?: Readonly<Record<string, readonly string[] | undefined>>;
  /** Records never updated, listed by creation only (ListSource). */
  readonly immutable?: boolean;
  /** Records that expire, listed from `since` on and counted by day (ListSource). */
  readonly daily?: ListSource['daily'];
  readonly request: PageRequest;
  /** The record the list is under (ListPageInput). */
  readonly parent?: ListPageInput['parent'];
  /** Another item each record is answered with (ListJoin). */
  readonly join?: ListJoin | undefined;
}

/** A page of a tenant's records, as a repository's `list` answers it: stored records and the total. */
export async function listRecords<T>(input: ListRecordsInput): Promise<PageResult<T>> {
  const page = await listPage(listPageInput(input));
  return { items: page.items.map((item) => withoutStorageAttributes<T>(item)), total: page.total };
}

/** A page of records under `parent` (ListPageInput), with the parent's owner. */
export async function listRecordsUnder<T>(
  input: ListRecordsInput & Required<Pick<ListRecordsInput, 'parent'>>,
): Promise<PageUnder<T>> {
  const page = await listPage(listPageInput(input));
  return {
    items: page.items.map((item) => withoutStorageAttributes<T>(item)),
    total: page.total,
    ownerTenant: ownerOf(page.parent),
  };
}

/** The tenant of a list's parent record as read, if there is one. */
export const ownerOf = (parent: Item | undefined): string | undefined =>
  typeof parent?.['tenant'] === 'string' ? parent['tenant'] : undefined;

function listPageInput({
  tenant,
  collection,
  scope,
  equals = {},
  contains = {},
  immutable,
  daily,
  request,
  parent,
  join,
}: ListRecordsInput): ListPageInput {
  const filters: FilterClause[] = [
    ...Object.entries(equals).flatMap(([attribute, value]) =>
      value === undefined ? [] : [{ kind: 'equals' as const, attribute, value }],
    ),
    ...Object.entries(contains).flatMap(([attribute, values = []]) =>
      values.map((value) => ({ kind: 'contains' as const, attribute, value })),
    ),
  ];
  const source = {
    tenant,
    collection,
    ...(scope === undefined ? {} : { scope }),
    ...(immutable ? { immutable } : {}),
    ...(daily ? { daily } : {}),
  };
  return { source, filters, request, ...(parent ? { parent } : {}), ...(join ? { join } : {}) };
}

/** A page of a walk of a tenant's records read in order (walkPage), as a repository's `walk` answers it. */
export async function walkRecords<T>(input: ListRecordsInput, after: ListCursor | undefined): Promise<WalkPage<T>> {
  const page = await walkPage(listPageInput(input), after);
  return {
    items: page.items.map((item) => withoutStorageAttributes<T>(item)),
    ...(page.next ? { next: page.next } : {}),
  };
}
