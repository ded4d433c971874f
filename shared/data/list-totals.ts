/**
 * The total of a list's walk (docs/pagination.md, "Totals without scanning"): from the list
 * partition's counter (less the items after the walk's snapshot), from a keys-only count of a date
 * range, or, when a filter rules both out, from a filtered count, which keeps the page it reads past
 * (Keep). shared/data/pagination.ts finds the pages.
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
  /** With a Keep: the walk's items the count read whole and kept, from `skip` on, in the walk's order. */
  readonly kept?: Item[];
}

/**
 * The items a count that reads whole items keeps for the page (its `take` items from position `skip`
 * from the walk's start): the page then needs no read of its own.
 */
export interface Keep {
  readonly skip: number;
  readonly take: number;
}

/** The items created (or, by update order, updated) after the snapshot: the counter holds them too. */
const countAfterSnapshot = (meter: Meter, plan: Plan): Promise<number> =>
  countInShards(meter, plan, plan.index.keys, { kind: 'after', value: plan.upper }, undefined);

/** Everything ever counted, minus what came after the snapshot; undefined without a counter to trust. */
async function totalAtSnapshot(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total | undefined> {
  // The counter and the items after the snapshot, at once. An item collection's counter may not be
  // trusted (an account linked before its ledger counted): that count after the snapshot is then
  // read in vain (usually half a unit for nothing), where reading the counter first cost a round.
  const [counted, after] = await Promise.all([counterValue(meter, plan, parent), countAfterSnapshot(meter, plan)]);
  if (counted === undefined) return undefined;
  // Nothing after the snapshot: no insert since it, so none between the two reads either.
  return { total: Math.max(0, counted - after), from: 'counter-at-snapshot', settled: after === 0 };
}

/**
 * The walk's items counted one by one: on the keys-only twin, or through the filter. A count that
 * reads whole items anyway (through a filter, on the table or on an index without a twin) keeps the
 * page's items as it reads them (`keep`, one partition: a sharded walk's positions need a merge), at
 * no cost more than the count: the page costs no read, and no round, of its own.
 */
async function countedTotal(meter: Meter, plan: Plan, keep?: Keep): Promise<Total> {
  const range = walkRange(plan);
  const from = plan.filter ? 'filtered-count' : 'keys-count';
  const index = plan.filter ? plan.index.items : plan.index.keys;
  if (keep && index === plan.index.items && plan.partitions.length === 1) {
    const { kept, count } = await countingRead(meter, plan, plan.partition, keep);
    return { total: count, from, settled: true, kept };
  }
  return { total: await countInShards(meter, plan, index, range, plan.filter), from, settled: true };
}

/**
 * Page 1 of a filtered walk, counted as it is read: one read of the walk through its filter (a
 * DynamoDB page, up to 1 MB, at a time) keeps the first page's matches and counts them all, where a
 * count and then the page would read the first items twice, in a call more.
 */
export async function filteredFirstPage(meter: Meter, plan: Plan, pageSize: number): Promise<[Total, Item[]]> {
  const keep = { skip: 0, take: pageSize };
  const reads = await Promise.all(plan.partitions.map((partition) => countingRead(meter, plan, partition, keep)));
  const total = reads.reduce((sum, read) => sum + read.count, 0);
  const items =
    reads.length === 1
      ? reads[0]!.kept
      : mergeFirst(
          plan,
          plan.forward,
          reads.map((read) => read.kept),
          pageSize,
        );
  return [{ total, from: 'filtered-count', settled: true }, items];
}

/**
 * One partition of the walk read whole through its filter (if any), a DynamoDB page (up to 1 MB) at
 * a time: how many items match in all, and the `keep.take` matches from position `keep.skip` on.
 */
async function countingRead(
  meter: Meter,
  plan: Plan,
  partition: string,
  keep: Keep,
): Promise<{ kept: Item[]; count: number }> {
  const condition = keyCondition(plan, walkRange(plan), partition);
  const kept: Item[] = [];
  let count = 0;
  let start: Key | undefined;
  do {
    const page = await meter.query({
      ...queryInput(plan, plan.index.items, condition, plan.filter),
      ScanIndexForward: plan.forward,
      ...(start ? { ExclusiveStartKey: start } : {}),
    });
    for (const [i, item] of (page.Items ?? []).entries()) {
      const position = count + i;
      if (position >= keep.skip && position < keep.skip + keep.take) kept.push(item);
    }
    count += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return { kept, count };
}

/** The walk's total at its snapshot; with `keep`, the page's items too where the count reads them whole. */
export async function computeTotal(meter: Meter, plan: Plan, parent?: ParentRead, keep?: Keep): Promise<Total> {
  return (countable(plan) ? await totalAtSnapshot(meter, plan, parent) : undefined) ?? countedTotal(meter, plan, keep);
}

/** A new walk's snapshot is this request's now: its counter, as it is, is its total. */
export async function newWalkTotal(meter: Meter, plan: Plan, parent?: ParentRead): Promise<Total> {
  const total = await counterValue(meter, plan, parent);
  return total === undefined ? countedTotal(meter, plan) : { total, from: 'counter', settled: true };
}
