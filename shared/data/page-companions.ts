/**
 * The items a list page reads besides its own (docs/pagination.md): the record the list is under
 * (ListPageInput.parent), read in the counter's call where the walk reads one, and the item each
 * listed item is answered with (ListJoin: an account's balance, a payment's details), read by key in
 * one BatchGetItem once the page is known.
 */
import { countable, keyText, type Item, type ListJoin, type ListPageInput, type Meter, type Plan } from './list-plans';
import type { ItemKey } from './item-keys';

/**
 * The list's parent record (ListPageInput.parent), read once: with the walk's counter when the walk
 * reads one (the counter is its item, or its shards are fetched with it), else on its own, in parallel.
 */
export class ParentRead {
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
      plan !== undefined && countable(plan) && (plan.ceiling === undefined || plan.counter !== undefined);
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
export async function readKeys(meter: Meter, keys: readonly ItemKey[]): Promise<Map<string, Item>> {
  if (new Set(keys.map(keyText)).size > 1) return meter.getAll(keys);
  const item = await meter.get(keys[0]!);
  return new Map(item ? [[keyText(keys[0]!), item]] : []);
}

/** The key of the item joined to a listed item: the listed item's partition, the join's sort key. */
export const joinKey = (join: ListJoin, item: { readonly pk?: unknown }): ItemKey => ({
  pk: String(item.pk),
  sk: join.sk,
});

export const joinedItem = (join: ListJoin, item: Item, found: ReadonlyMap<string, Item>): Item =>
  join.merge(item, found.get(keyText(joinKey(join, item))));

/** The items of a page with their joined items (ListJoin), read in one call. */
export async function joinAll(meter: Meter, join: ListJoin | undefined, items: Item[]): Promise<Item[]> {
  if (!join || items.length === 0) return items;
  const found = await meter.getAll(items.map((item) => joinKey(join, item)));
  return items.map((item) => joinedItem(join, item, found));
}
