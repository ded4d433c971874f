/**
 * The total of a list's walk (docs/pagination.md, "Totals without scanning"): from the list
 * partition's counter (less the items after the walk's snapshot), from a keys-only count of a date
 * range, or, when a filter rules both out, from a filtered count, which page 1 takes as it reads its
 * page. shared/data/pagination.ts finds the pages.
 */
import { counterShardKeys, counterShardsQuery, counterTotal, dayCountersQuery } from './counters';
import { ParentRead, readKeys } from './page-companions';
import {
  countable,
  keyCondition,
  keyText,
  queryInput,
  walkRange,
  type Item,
  type Key,
  type Meter,
  type Plan,
} from './list-plans';
import { countInShards, mergeFirst } from './list-visits';

/**
 * Where a total came from: `counter` alone (page 1 of a new walk), the counter less the items after
 * the snapshot, a keys-only count of a date range, a filtered count.
 */
export type TotalSource = 'counter' | 'counter-at-snapshot' | 'keys-count' | 'filtered-count' | 'empty-range';

/**
 * The walk's counter (undefined: an item collection counted only from some item on, or not at all),
 * and the list's parent in the same call when the parent is read with it.
 */
async function counterValue(meter: Meter, plan: Plan, parent?: ParentRead): Promise<number | undefined> {
  const fromDay = plan.countedFromDay;
  if (fromDay !== undefined) {
    // Counted by day (expiring items): the window's days, one Query of each shard's counters.
    const days = await Promise.all(plan.partitions.map((p) => meter.query(dayCountersQuery(p, fromDay))));
    return days.reduce((sum, { Items = [] }) => sum + counterTotal(Items), 0);
  }
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
  const shards = plan.partitions.flatMap(counterShardKeys);
  if (parent?.withCounter) {
    // One call for both: the parent and the counter's shards (a batch charges each item apart).
    const found = await meter.getAll([parent.key, ...shards]);
    parent.found(found.get(keyText(parent.key)));
    found.delete(keyText(parent.key));
    return counterTotal([...found.values()]);
  }
  if (plan.partitions.length > 1) return counterTotal([...(await meter.getAll(shards)).values()]);
  const { Items = [] } = await meter.query(counterShardsQuery(plan.partition));
  return counterTotal(Items);
}

export interface Total {
  readonly total: number;
  readonly from: TotalSource;
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
  countInShards(meter, plan, plan.index.keys, { kind: 'after', value: plan.upper }, undefined);

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
  const range = walkRange(plan);
  if (!plan.filter) {
    return {
      total: await countInShards(meter, plan, plan.index.keys, range, undefined),
      from: 'keys-count',
      settled: true,
    };
  }
  return {
    total: await countInShards(meter, plan, plan.index.items, range, plan.filter),
    from: 'filtered-count',
    settled: true,
  };
}

/**
 * Page 1 of a filtered walk, counted as it is read: one read of the walk through its filter (a
 * DynamoDB page, up to 1 MB, at a time) keeps the first page's matches and counts them all, where a
 * count and then the page would read the first items twice, in a call more.
 */
export async function filteredFirstPage(meter: Meter, plan: Plan, pageSize: number): Promise<[Total, Item[]]> {
  const reads = await Promise.all(plan.partitions.map((partition) => filteredRead(meter, plan, partition, pageSize)));
  const total = reads.reduce((sum, read) => sum + read.count, 0);
  const items =
    reads.length === 1
      ? reads[0]!.first
      : mergeFirst(
          plan,
          plan.forward,
          reads.map((read) => read.first),
          pageSize,
        );
  return [{ total, from: 'filtered-count', settled: true }, items];
}

/** One partition of filteredFirstPage: its first `pageSize` matches, and how many match in all. */
async function filteredRead(
  meter: Meter,
  plan: Plan,
  partition: string,
  pageSize: number,
): Promise<{ first: Item[]; count: number }> {
  const condition = keyCondition(plan, walkRange(plan), partition);
  const first: Item[] = [];
  let count = 0;
  let start: Key | undefined;
  do {
    const page = await meter.query({
      ...queryInput(plan, plan.index.items, condition, plan.filter),
      ScanIndexForward: plan.forward,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const item of page.Items ?? []) if (first.length < pageSize) first.push(item);
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return { first, count };
}

export async function computeTotal(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total> {
  return (countable(plan) ? await totalAtSnapshot(meter, plan, parent) : undefined) ?? countedTotal(meter, plan);
}

/** A new walk's snapshot is this request's now: its counter, as it is, is its total. */
export async function newWalkTotal(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total> {
  const total = await counterValue(meter, plan, parent);
  return total === undefined ? countedTotal(meter, plan) : { total, from: 'counter', settled: true };
}
