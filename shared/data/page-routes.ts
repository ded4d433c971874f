/**
 * The choice of where to start reading a page: DynamoDB reads from a cursor, so page N is reached
 * from the nearer end of its walk, passing over the fewest items. Pure arithmetic, unit-tested on
 * its own; shared/data/pagination.ts follows it.
 */

/** Where the read of a page starts. */
export type PageAnchor =
  /** From the first item of the walk. */
  | { readonly kind: 'start' }
  /** Backward from the last item of the walk (its position is known from the total). */
  | { readonly kind: 'end' };

export interface PageRoute {
  readonly anchor: PageAnchor;
  /** Items passed over before the page's items, in the direction of the read. */
  readonly skip: number;
  /** Items on the page: the page size, or what is left on the last page. */
  readonly take: number;
  /** True when the read goes against the walk's order (from the end). */
  readonly backward: boolean;
  /** Position in the walk (0-based) of the first item the read meets. */
  readonly firstOffset: number;
}

export interface RouteInput {
  readonly page: number;
  readonly pageSize: number;
  readonly total: number;
}

/**
 * The cheaper way to a page: from whichever end of the walk the fewer items lie before it (forward
 * reads win ties). Undefined for a page past the end.
 */
export function routeToPage({ page, pageSize, total }: RouteInput): PageRoute | undefined {
  if (page < 1 || page > Math.ceil(total / pageSize)) return undefined;
  const firstOfPage = (page - 1) * pageSize;
  const take = Math.min(pageSize, total - firstOfPage);
  const fromEnd = total - (firstOfPage + take);
  return fromEnd < firstOfPage
    ? { anchor: { kind: 'end' }, skip: fromEnd, take, backward: true, firstOffset: total - 1 }
    : { anchor: { kind: 'start' }, skip: firstOfPage, take, backward: false, firstOffset: 0 };
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
