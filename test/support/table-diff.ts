/**
 * What a request did to the table, read from two scans: items added, removed and changed, compared
 * whole (every attribute). The suites use it to prove that a refused or failed request wrote nothing,
 * and that a race or a retry wrote exactly once.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Item } from './dynamo-table';

export interface TableChanges {
  readonly added: readonly Item[];
  readonly removed: readonly Item[];
  readonly changed: readonly { readonly before: Item; readonly after: Item }[];
}

const keyOf = (item: Item): string => `${String(item['pk'])}\u0000${String(item['sk'])}`;

/** JSON with sorted object keys and sets as sorted arrays: equal items serialise equally. */
function canonical(value: unknown): string {
  if (value instanceof Set) return `set${canonical([...value].sort())}`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * The audit chain's items (an event's link, a client's head): the audit archiver writes them from the
 * table's stream moments after a request's events commit (docs/audit.md), while another request may
 * be running. They are no request's writes.
 */
const isChainItem = (item: Item): boolean => item['entity'] === 'AUDIT_LINK' || item['entity'] === 'AUDIT_CHAIN';

export function diffItems(before: readonly Item[], after: readonly Item[]): TableChanges {
  const old = new Map(before.filter((item) => !isChainItem(item)).map((item) => [keyOf(item), item]));
  const added: Item[] = [];
  const changed: { before: Item; after: Item }[] = [];
  for (const item of after) {
    if (isChainItem(item)) continue;
    const key = keyOf(item);
    const previous = old.get(key);
    old.delete(key);
    if (!previous) added.push(item);
    // Most items are untouched: a deep equality (native, whatever the key order) settles them without
    // serialising both, which was most of a scan-per-request suite's own CPU. Equal that way means equal
    // canonically; the canonical form decides the rest (it alone is what "changed" means).
    else if (!isDeepStrictEqual(previous, item) && canonical(previous) !== canonical(item)) {
      changed.push({ before: previous, after: item });
    }
  }
  return { added, removed: [...old.values()], changed };
}

export const isUnchanged = (changes: TableChanges): boolean =>
  changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0;

/** An audit event's item, or a counter of the audit events' lists. */
const isAuditItem = (item: Item): boolean =>
  item['entity'] === 'AUDIT_EVENT' || (item['entity'] === 'COUNTER' && String(item['pk']).includes('#AUDIT_EVENT'));

/**
 * The changes without what an audited read writes (docs/audit.md): a report's download URL handed out
 * is recorded (its `report.downloaded` event and its lists' counters), and nothing else may change.
 */
export function withoutAuditedRead(changes: TableChanges): TableChanges {
  const readEvent = (item: Item): boolean =>
    isAuditItem(item) && (item['entity'] === 'COUNTER' || item['action'] === 'report.downloaded');
  return {
    added: changes.added.filter((item) => !readEvent(item)),
    removed: changes.removed,
    changed: changes.changed.filter(({ after }) => !readEvent(after)),
  };
}

/** A short account of the changes, for assertion messages. */
export function describeChanges(changes: TableChanges): string {
  const name = (item: Item): string => `${String(item['entity'] ?? '?')} ${String(item['pk'])}/${String(item['sk'])}`;
  return [
    ...changes.added.map((item) => `+ ${name(item)}`),
    ...changes.removed.map((item) => `- ${name(item)}`),
    ...changes.changed.map(({ after }) => `~ ${name(after)}`),
  ].join('\n');
}

/** Items that only serve the API's bookkeeping, not the resources: idempotency records. */
const BOOKKEEPING = new Set(['IDEMPOTENCY']);

export interface Writes {
  /** Items added, by `entity` (bookkeeping and counters aside). */
  readonly entities: Readonly<Record<string, number>>;
  /** How much each counter moved (lists', a client's PENDING reports), by its partition. */
  readonly counters: Readonly<Record<string, number>>;
  /** Entity items changed in place (status changes), by `entity`. */
  readonly updated: Readonly<Record<string, number>>;
}

const attribute =
  (name: string) =>
  (item: Item): number =>
    Number(item[name] ?? 0);

/**
 * Items that count something, and how to read their count: a list's counter, a client's count of
 * PENDING reports, a day's payment totals (the payments of every direction and status). What is
 * compared is how far they moved, not whether the item was there before.
 */
const COUNT_OF: Readonly<Record<string, (item: Item) => number>> = {
  COUNTER: attribute('count'),
  // A list's count of one day's items (events: shared/data/events.ts).
  DAY_COUNTER: attribute('count'),
  PENDING_REPORTS: attribute('pending'),
  // shared/data/payment-totals.ts: `in_settled_count`, `out_pending_count`, ...
  DAY_TOTALS: (item) =>
    Object.entries(item)
      .filter(([name]) => name.endsWith('_count'))
      .reduce((sum, [, value]) => sum + Number(value), 0),
};

const countOf = (item: Item | undefined, entity: string): number => (item ? COUNT_OF[entity]!(item) : 0);

/** The resource writes a set of changes amounts to, to compare one request's with a race's. */
export function writesOf(changes: TableChanges): Writes {
  const entities: Record<string, number> = {};
  const counters: Record<string, number> = {};
  const updated: Record<string, number> = {};
  const bump = (into: Record<string, number>, name: string, by = 1): void => {
    into[name] = (into[name] ?? 0) + by;
  };
  for (const item of changes.added) {
    const entity = String(item['entity']);
    if (entity in COUNT_OF) bump(counters, String(item['pk']), countOf(item, entity));
    else if (!BOOKKEEPING.has(entity)) bump(entities, entity);
  }
  for (const { before, after } of changes.changed) {
    const entity = String(after['entity']);
    if (entity in COUNT_OF) bump(counters, String(after['pk']), countOf(after, entity) - countOf(before, entity));
    else if (!BOOKKEEPING.has(entity)) bump(updated, entity);
  }
  for (const item of changes.removed) {
    if (!BOOKKEEPING.has(String(item['entity']))) bump(entities, String(item['entity']), -1);
  }
  return { entities, counters, updated };
}
