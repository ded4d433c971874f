/**
 * The reads that count or visit a walk's items in order (docs/pagination.md), over every shard of its
 * list (shared/data/list-shards.ts). One partition is read as DynamoDB pages it; a sharded list's
 * shards are read side by side and merged by the index sort key, unique to an item (`<time>#<id>`),
 * so the merge is the order an unsharded list would have.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import {
  keyCondition,
  queryInput,
  walkRange,
  type Condition,
  type Item,
  type Key,
  type KeyRange,
  type Meter,
  type Plan,
  type SortRange,
} from './list-plans';

/** A filtered read never asks DynamoDB for more than this many items at once. */
const MAX_BATCH = 1000;

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

/** The walk's items in `range` on `indexName` (through `filter`, if any), counted in every shard. */
export async function countInShards(
  meter: Meter,
  plan: Plan,
  indexName: string | undefined,
  range: KeyRange,
  filter: Condition | undefined,
): Promise<number> {
  const counts = await Promise.all(
    plan.partitions.map((partition) =>
      countItems(meter, queryInput(plan, indexName, keyCondition(plan, range, partition), filter)),
    ),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}

/** Whether `a` comes before `b` in a read of the index `sk` that goes forward or not. */
const comesBefore = (sk: string, forward: boolean) => (a: Item, b: Item) => String(a[sk]) < String(b[sk]) === forward;

/** Which of a walk's items to visit, and where. */
export interface VisitRequest {
  /** The index read (undefined: the table): the walk's whole items, or their keys-only twin. */
  readonly index: string | undefined;
  readonly filter?: Condition | undefined;
  /** ScanIndexForward: the walk's order, or against it for a page read from the walk's end. */
  readonly forward: boolean;
  /** Visit the items after this one (an item's key: keyOf); undefined: from the walk's start. */
  readonly start?: Key | undefined;
  readonly need: number;
}

/**
 * Visits `need` items of the walk matching `filter` after `start`, in read order, keeping none of
 * them itself. Answers how many items it visited.
 */
type Visitor = (
  meter: Meter,
  plan: Plan,
  request: VisitRequest,
  visit: (item: Item, position: number) => void,
) => Promise<number>;

export const visitMatching: Visitor = (meter, plan, request, visit) =>
  plan.partitions.length === 1 ? visitPartition(meter, plan, request, visit) : visitShards(meter, plan, request, visit);

/**
 * visitMatching in one partition. Limit applies before the filter, so the read goes on until enough
 * items match, sizing each call by the share of items that matched so far.
 */
const visitPartition: Visitor = async (meter, plan, request, visit) => {
  const { index, filter, forward, start, need } = request;
  const condition = keyCondition(plan, walkRange(plan));
  let matched = 0;
  let scanned = 0;
  let ExclusiveStartKey = start;
  while (matched < need) {
    const remaining = need - matched;
    const share = scanned === 0 ? 1 : Math.max(matched / scanned, 0.05);
    const limit = Math.min(Math.max(remaining, Math.ceil(remaining / share)), Math.max(remaining, MAX_BATCH));
    const page = await meter.query({
      ...queryInput(plan, index, condition, filter),
      ScanIndexForward: forward,
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
};

/** One shard's read: the items read and not yet visited, and where its next read starts. */
interface ShardRead {
  readonly condition: Condition;
  readonly waiting: Item[];
  next?: Key | undefined;
  done: boolean;
  /** Read once already: it holds more than its share (its items before a layout, say). */
  again: boolean;
}

/**
 * visitMatching over a sharded list: each shard holds about its share of the walk, so each is asked
 * for that share and a little more; a shard that runs out before the merge is done holds more (the
 * items before its client's layout are all in shard 0), and is asked for all that is still needed.
 * Every shard's next item is known before one is visited, so the merge never goes out of order. A
 * start is a sort key here (an ExclusiveStartKey belongs to one partition): each shard's range starts
 * at it, and the item at it, in one shard only, is left out.
 */
const visitShards: Visitor = async (meter, plan, request, visit) => {
  const { index, filter, forward, start, need } = request;
  const sk = plan.index.sk;
  const from = start === undefined ? undefined : String(start[sk]);
  const whole = walkRange(plan);
  const range: SortRange = from === undefined ? whole : forward ? { ...whole, lower: from } : { ...whole, upper: from };
  const shards: ShardRead[] = plan.partitions.map((partition) => ({
    condition: keyCondition(plan, range, partition),
    waiting: [],
    done: false,
    again: false,
  }));
  const before = comesBefore(sk, forward);
  let matched = 0;
  while (matched < need) {
    const empty = shards.filter((shard) => !shard.done && shard.waiting.length === 0);
    if (empty.length > 0) {
      const remaining = need - matched;
      const share = Math.min(remaining, Math.ceil(remaining / shards.length) + 2);
      await Promise.all(
        empty.map(async (shard) => {
          const wanted = shard.again ? remaining : share;
          shard.again = true;
          const page = await meter.query({
            ...queryInput(plan, index, shard.condition, filter),
            ScanIndexForward: forward,
            Limit: filter ? Math.min(MAX_BATCH, wanted * 4) : wanted,
            ...(shard.next ? { ExclusiveStartKey: shard.next } : {}),
          });
          shard.waiting.push(...(page.Items ?? []).filter((item) => String(item[sk]) !== from));
          shard.next = page.LastEvaluatedKey;
          shard.done = !page.LastEvaluatedKey;
        }),
      );
      continue;
    }
    const heads = shards.filter((shard) => shard.waiting.length > 0);
    if (heads.length === 0) break;
    const first = heads.reduce((a, b) => (before(b.waiting[0]!, a.waiting[0]!) ? b : a));
    visit(first.waiting.shift()!, matched);
    matched += 1;
  }
  return matched;
};

/**
 * The first `count` items of every shard's read (each in the walk's order), merged into the walk's
 * first `count`.
 */
export function mergeFirst(plan: Plan, forward: boolean, reads: readonly Item[][], count: number): Item[] {
  const before = comesBefore(plan.index.sk, forward);
  return reads
    .flat()
    .sort((a, b) => (before(a, b) ? -1 : 1))
    .slice(0, count);
}
