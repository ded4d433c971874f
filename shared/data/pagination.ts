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
import { invalidField } from '../domain/errors';
import type { ListCursor, PageRequest, PageResult, PageUnder, WalkPage } from '../domain/lists';
import { counterShardKeys, counterShardsQuery, counterTotal } from './counters';
import { firstPageRoute, routeToPage, type PageRoute } from './page-routes';
import { withoutStorageAttributes, type ItemKey } from './item-keys';
import {
  countItems,
  keyCondition,
  keyOf,
  keyText,
  Meter,
  planOf,
  queryInput,
  visitMatching,
  type FilterClause,
  type Item,
  type Key,
  type ListCost,
  type ListJoin,
  type ListPageInput,
  type Plan,
  type SortRange,
} from './list-plans';

export type { FilterClause, Item, ItemCollection, ListCost, ListJoin, ListPageInput, ListSource } from './list-plans';

/**
 * The most items one request steps over to reach its page (≈ 2,000 RCU on the keys-only index): a
 * page farther than that from both ends of its walk is refused rather than billed; filters (a date
 * range) narrow the walk until it is near an end.
 */
export const MAX_STEP = 100_000;

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
  /** With ListPageInput.parent: the parent record as read (undefined: there is none). */
  readonly parent?: Item | undefined;
}

/**
 * The list's parent record (ListPageInput.parent), read once: with the walk's counter when the walk
 * reads one (the counter is its item, or its shards are fetched with it), else on its own, in parallel.
 */
class ParentRead {
  private got: Promise<Item | undefined> | undefined;

  constructor(
    readonly key: ItemKey,
    /** Whether the counter's read brings it. */
    readonly withCounter: boolean,
  ) {}

  static of(input: ListPageInput, plan: Plan | undefined): ParentRead | undefined {
    const key = input.parent?.key;
    if (!key) return undefined;
    const readsCounter =
      plan !== undefined && counted(plan) && (plan.ceiling === undefined || plan.counter !== undefined);
    return new ParentRead(key, readsCounter);
  }

  /** Called by the counter's read with what it found. */
  found(item: Item | undefined): void {
    this.got = Promise.resolve(item);
  }

  /** Starts the read of its own, unless the counter's brings it. */
  start(meter: Meter): void {
    if (!this.withCounter) this.got = meter.get(this.key);
  }

  item(): Promise<Item | undefined> {
    if (!this.got) throw new Error('The parent record was not read');
    return this.got;
  }
}

/** Items by key, strongly consistent: one GetItem for one key, else one BatchGetItem. */
async function readKeys(meter: Meter, keys: readonly ItemKey[]): Promise<Map<string, Item>> {
  if (new Set(keys.map(keyText)).size > 1) return meter.getAll(keys, { consistent: true });
  const item = await meter.get(keys[0]!);
  return new Map(item ? [[keyText(keys[0]!), item]] : []);
}

/**
 * The walk's counter (undefined: an item collection counted only from some item on, or not at all),
 * and the list's parent in the same call when the parent is read with it.
 */
async function counterValue(meter: Meter, plan: Plan, parent?: ParentRead): Promise<number | undefined> {
  const parentKeys = parent?.withCounter ? [parent.key] : [];
  if (plan.ceiling !== undefined) {
    if (!plan.counter) return undefined;
    const { key, legacyKey, attribute, trustedIf } = plan.counter;
    const found = await readKeys(meter, [key, ...(legacyKey ? [legacyKey] : []), ...parentKeys]);
    if (parent?.withCounter) parent.found(found.get(keyText(parent.key)));
    const item = found.get(keyText(key)) ?? (legacyKey && found.get(keyText(legacyKey)));
    const value = item?.[attribute];
    return item?.[trustedIf] !== undefined && typeof value === 'number' ? value : undefined;
  }
  if (parent?.withCounter) {
    // One call for both: the parent and the counter's shards (a batch charges each item apart).
    const found = await meter.getAll([parent.key, ...counterShardKeys(plan.partition)], { consistent: true });
    parent.found(found.get(keyText(parent.key)));
    found.delete(keyText(parent.key));
    return counterTotal([...found.values()]);
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
async function totalAtSnapshot(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total | undefined> {
  // A list partition's counter is always there, read with the items after the snapshot. An item
  // collection's may not be trusted (an account linked before its ledger counted): it is read first.
  const [counted, after] =
    plan.ceiling === undefined
      ? await Promise.all([counterValue(meter, plan, parent), countAfterSnapshot(meter, plan)])
      : await counterValue(meter, plan, parent).then(
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

async function computeTotal(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total> {
  return (counted(plan) ? await totalAtSnapshot(meter, plan, parent) : undefined) ?? countedTotal(meter, plan);
}

/** A new walk's snapshot is this request's now: its counter, as it is, is its total. */
async function newWalkTotal(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total> {
  const total = await counterValue(meter, plan, parent);
  return total === undefined ? countedTotal(meter, plan) : { total, from: 'counter', settled: true };
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
  const parent = ParentRead.of(input, plan);
  parent?.start(meter);
  if (!plan) return { items: [], total: 0, cost: meter.cost, totalFrom: 'empty-range', ...(await parentOf(parent)) };
  const { pageNumber, pageSize, pinned } = input.request;
  if (input.join && !parent && plan.ceiling === undefined && counted(plan) && !pinned && pageNumber === 1) {
    return joinedFirstPage(meter, plan, input.join, pageSize);
  }

  // Page 1 is read from the start whatever the total: while the total is counted, not after. A new
  // walk's snapshot is this request's now: the counter is its total, and the page its only other call.
  const [{ total, from, settled }, firstPage] = await Promise.all([
    counted(plan) && !pinned && pageNumber === 1
      ? newWalkTotal(meter, plan, parent)
      : computeTotal(meter, plan, parent),
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
  if (route.skip > (input.maxStep ?? MAX_STEP)) {
    throw invalidField(
      'page_number',
      `is too far from both ends of the list (one request steps over at most ${input.maxStep ?? MAX_STEP} items): narrow the list with filters, such as a date range`,
    );
  }
  // The total may hold fewer items than the index showed page 1 (a delete the index has not caught up with).
  const items = firstPage ? firstPage.slice(0, route.take) : await readRoute(meter, plan, route);
  return { items: await joinAll(meter, input.join, items), total, cost: meter.cost, route, totalFrom: from, ...found };
}

/**
 * Page 1 of a new walk whose items are answered with others (ListJoin): its page first, then the
 * counter's shards and the joined items in one BatchGetItem: two calls, as any page 1 (up to 96
 * items a page: a batch takes 100 keys).
 */
async function joinedFirstPage(meter: Meter, plan: Plan, join: ListJoin, pageSize: number): Promise<ListPage> {
  const read = await readRoute(meter, plan, firstPageRoute(pageSize));
  const shards = counterShardKeys(plan.partition);
  const found = await meter.getAll([...shards, ...read.map(join.keyOf)], { consistent: false });
  const total = counterTotal(shards.flatMap((key) => [found.get(keyText(key))].filter((item) => item !== undefined)));
  const route = routeToPage({ page: 1, pageSize, total });
  const items = route ? read.slice(0, route.take).map((item) => joinedItem(join, item, found)) : [];
  return { items, total, cost: meter.cost, ...(route ? { route } : {}), totalFrom: 'counter' };
}

const joinedItem = (join: ListJoin, item: Item, found: ReadonlyMap<string, Item>): Item =>
  join.merge(item, found.get(keyText(join.keyOf(item))));

/** The items of a page with their joined items (ListJoin), read in one call. */
async function joinAll(meter: Meter, join: ListJoin | undefined, items: Item[]): Promise<Item[]> {
  if (!join || items.length === 0) return items;
  const found = await meter.getAll(items.map(join.keyOf), { consistent: false });
  return items.map((item) => joinedItem(join, item, found));
}

const parentOf = async (parent: ParentRead | undefined): Promise<Pick<ListPage, 'parent'>> =>
  parent ? { parent: await parent.item() } : {};

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
  readonly equals?: Readonly<Record<string, string | undefined>>;
  /** Records never updated, listed by creation only (ListSource). */
  readonly immutable?: boolean;
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
  immutable,
  request,
  parent,
  join,
}: ListRecordsInput): ListPageInput {
  const filters: FilterClause[] = Object.entries(equals).flatMap(([attribute, value]) =>
    value === undefined ? [] : [{ kind: 'equals' as const, attribute, value }],
  );
  const source = { tenant, collection, ...(scope === undefined ? {} : { scope }), ...(immutable ? { immutable } : {}) };
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
