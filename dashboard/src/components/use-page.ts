/**
 * One page of an API list at a time, through the API's own pagination (page_number, page_size,
 * pagination_info): newest first, and the walk pinned to page 1's first_request_timestamp, so the
 * next pages do not shift while new items arrive. Changing a filter starts a new walk.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Page, PageQuery, PaginationInfo } from '../api';
import { REFRESH_MS } from './use-record';

export const PAGE_SIZE = 10;

export interface PageState<T> {
  readonly items: readonly T[] | undefined;
  readonly info: PaginationInfo | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  readonly pageNumber: number;
  goTo(pageNumber: number): void;
  /** Reads the page again (after a change made on it). */
  reload(): void;
}

/** A list's filters by query parameter; '' is a filter left at "any", which is not sent. */
type Filters = Readonly<Record<string, string>>;

/** What a list can be asked besides its filters. */
export interface PageOptions<T> {
  /** Whether the page's items may still change (a delivery under way): read again every few seconds while so. */
  readonly changing?: (items: readonly T[]) => boolean;
}

export function usePage<Q extends PageQuery, K extends string, T>(
  load: (query: Q) => Promise<Page<K, T>>,
  name: K,
  filters: Filters = {},
  options: PageOptions<T> = {},
): PageState<T> {
  const key = JSON.stringify(filters);
  const [walk, setWalk] = useState<{ key: string; page: number; snapshot?: string }>({ key, page: 1 });
  const [reads, setReads] = useState(0);
  const [state, setState] = useState<{ items?: T[]; info?: PaginationInfo; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const current = walk.key === key ? walk : { key, page: 1 };

  useEffect(() => {
    let live = true;
    setState((previous) => ({ ...previous, loading: true }));
    const chosen = Object.entries(filters).filter(([, value]) => value !== '');
    // The filters are the list's own query parameters, with the values its page offers: the API
    // checks them, and a refusal shows as any other.
    const query = {
      page_number: current.page,
      page_size: PAGE_SIZE,
      order_direction: 'desc',
      ...(current.page > 1 && current.snapshot ? { first_request_timestamp: current.snapshot } : {}),
      ...Object.fromEntries(chosen),
    } as Q;
    load(query).then(
      (page) => {
        if (!live) return;
        setState({ items: page[name], info: page.pagination_info, loading: false });
        if (current.page === 1) setWalk({ key, page: 1, snapshot: page.pagination_info.first_request_timestamp });
      },
      (error: unknown) => live && setState({ error, loading: false }),
    );
    return () => {
      live = false;
    };
    // The filters are named by their key: a new object with the same filters is the same walk.
  }, [key, current.page, reads]);

  const items = state.items;
  useEffect(() => {
    if (!items || !options.changing?.(items)) return;
    const timer = setTimeout(() => setReads((n) => n + 1), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [items]);

  return {
    items: state.items,
    info: state.info,
    error: state.error,
    loading: state.loading,
    pageNumber: current.page,
    goTo: (page) => setWalk({ ...current, page }),
    reload: () => setReads((n) => n + 1),
  };
}
