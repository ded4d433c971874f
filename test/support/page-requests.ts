/**
 * The pagination tests' page requests and expectations (test/integration/pagination.test.ts,
 * sharded-lists.test.ts): a request as the list routes parse it, and the ids of items in a walk's
 * order, sorted as the index sorts them (`<timestamp>#<id>`).
 */
import type { PageRequest } from '../../shared/domain/lists';

/** Page 1 of a new walk, 10 a page, by creation, oldest first, its snapshot now; `overrides` change it. */
export const pageRequest = (overrides: Partial<PageRequest> = {}): PageRequest => ({
  pageSize: 10,
  pageNumber: 1,
  orderKey: 'created_at',
  direction: 'asc',
  snapshot: new Date().toISOString(),
  pinned: false,
  created: {},
  updated: {},
  ...overrides,
});

/** The ids of listed items, in their order. */
export const ids = (items: readonly Record<string, unknown>[]): string[] => items.map((item) => String(item['id']));

type Timed = { readonly id: string; readonly created_at: string; readonly updated_at: string };

/** The ids of `list` in a walk's order by `key`, oldest first unless `desc`. */
export function ordered(
  list: readonly Timed[],
  key: 'created_at' | 'updated_at' = 'created_at',
  desc = false,
): string[] {
  const sortKey = (item: Timed) => `${item[key]}#${item.id}`;
  const sorted = [...list].sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1)).map((item) => item.id);
  return desc ? sorted.reverse() : sorted;
}
