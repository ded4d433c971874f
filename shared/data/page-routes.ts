/**
 * The choice of where to start reading a page: DynamoDB reads from a cursor, so page N is reached
 * from the nearest known position (an end of the walk, or a cached page on either side), passing over
 * the fewest items. Pure arithmetic, unit-tested on its own; shared/data/pagination.ts follows it.
 */

/** Where the read of a page starts. Page numbers name pages of the same walk whose bounds are cached. */
export type PageAnchor =
  /** The page itself is cached: read between its first and last keys. */
  | { readonly kind: 'page'; readonly page: number }
  /** From the first item of the walk. */
  | { readonly kind: 'start' }
  /** Forward, after the last item of an earlier cached page. */
  | { readonly kind: 'after'; readonly page: number }
  /** Backward, before the first item of a later cached page. */
  | { readonly kind: 'before'; readonly page: number }
  /** Backward from the last item of the walk (its position is known from the total). */
  | { readonly kind: 'end' };

export interface PageRoute {
  readonly anchor: PageAnchor;
  /** Items passed over before the page's items, in the direction of the read. */
  readonly skip: number;
  /** Items on the page: the page size, or what is left on the last page. */
  readonly take: number;
  /** True when the read goes against the walk's order (from a later page or from the end). */
  readonly backward: boolean;
  /** Position in the walk (0-based) of the first item the read meets. */
  readonly firstOffset: number;
}

export interface RouteInput {
  readonly page: number;
  readonly pageSize: number;
  readonly total: number;
  /** The nearest cached page at or before `page` (0: only the total is cached). */
  readonly below?: number;
  /** The nearest cached page after `page`. */
  readonly above?: number;
}

/**
 * The cheapest way to a page: from whichever known position (the walk's two ends, the nearest cached
 * page on either side) the fewest items lie between. Undefined for a page past the end.
 */
export function routeToPage({ page, pageSize, total, below, above }: RouteInput): PageRoute | undefined {
  if (page < 1 || page > Math.ceil(total / pageSize)) return undefined;
  const firstOfPage = (page - 1) * pageSize;
  const take = Math.min(pageSize, total - firstOfPage);
  if (below === page)
    return { anchor: { kind: 'page', page }, skip: 0, take, backward: false, firstOffset: firstOfPage };

  const from = below !== undefined && below > 0 && below < page ? below : 0;
  const routes: PageRoute[] = [
    {
      anchor: from === 0 ? { kind: 'start' } : { kind: 'after', page: from },
      skip: firstOfPage - from * pageSize,
      take,
      backward: false,
      firstOffset: from * pageSize,
    },
  ];
  if (above !== undefined && above > page) {
    routes.push({
      anchor: { kind: 'before', page: above },
      skip: (above - 1) * pageSize - (firstOfPage + take),
      take,
      backward: true,
      firstOffset: (above - 1) * pageSize - 1,
    });
  }
  routes.push({
    anchor: { kind: 'end' },
    skip: total - (firstOfPage + take),
    take,
    backward: true,
    firstOffset: total - 1,
  });
  // The first of the cheapest: forward reads win ties.
  return routes.reduce((best, route) => (route.skip < best.skip ? route : best));
}

/**
 * The route to page 1 without the total: from the start, a page's worth (what the walk holds of it).
 * routeToPage chooses the same for page 1 whatever the total, so page 1 can be read while it is counted.
 */
export const firstPageRoute = (pageSize: number): PageRoute => ({
  anchor: { kind: 'start' },
  skip: 0,
  take: pageSize,
  backward: false,
  firstOffset: 0,
});

/**
 * Whether the bounds of a page just read are worth caching for the rest of its walk. Not those of the
 * walk's last page reached from the page before it, nor of a walk's only page: the pages after it are
 * past the end, and it is read again as cheaply from where it was read this time (the cached page
 * before it holds the walk's total too; a walk of one page counts again, at the same snapshot).
 */
export function boundsWorthCaching(route: PageRoute, page: number, pageSize: number, total: number): boolean {
  if (page < Math.ceil(total / pageSize)) return true;
  return !(page === 1 || (route.anchor.kind === 'after' && route.anchor.page === page - 1));
}
