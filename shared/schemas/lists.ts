/**
 * Query-string schemas of the GET lists (docs/pagination.md). Query values arrive as
 * strings; AJV coerces the numeric ones. Shapes are checked here, meanings (real dates, ordered
 * bounds, a snapshot not in the future) by shared/domain/lists.ts.
 *
 * The page bounds the functions read are in bounds.ts. The calls of common.ts's builders are marked
 * pure all the same, so that a bundle that imports this module drops the schemas it does not use
 * (esbuild reads their @__NO_SIDE_EFFECTS__ within common.ts only).
 */
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from './bounds';
import { allRequired, closedObject, matching, TIMESTAMP, UUID } from './common';

/** `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM:SSZ`, or with milliseconds as the API writes its own timestamps. */
export const DATE_OR_TIMESTAMP = /* @__PURE__ */ matching(
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z)?$',
  'must be a date, YYYY-MM-DD, or a UTC timestamp, YYYY-MM-DDTHH:MM:SSZ',
);

export const UTC_TIMESTAMP = /* @__PURE__ */ matching(
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,3})?Z$',
  'must be a UTC timestamp, YYYY-MM-DDTHH:MM:SSZ (with or without milliseconds)',
);

/** A value that is one of `words` (letters only) in any letter case, e.g. `asc`, `ASC` or `Asc`. */
export const anyCase = /* @__NO_SIDE_EFFECTS__ */ (...words: readonly string[]) =>
  matching(
    `^(${words.map((word) => [...word].map((c) => `[${c.toLowerCase()}${c.toUpperCase()}]`).join('')).join('|')})$`,
    `must be ${words.join(' or ')}, in any letter case`,
  );

/** The parameters every list takes: paging, order, snapshot and the date filters. */
export const pageQueryProperties = {
  page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
  page_number: { type: 'integer', minimum: 1, maximum: MAX_PAGE_NUMBER },
  order_key: { type: 'string', enum: ['created_at', 'updated_at'] },
  order_direction: anyCase('asc', 'desc'),
  first_request_timestamp: UTC_TIMESTAMP,
  created_at: DATE_OR_TIMESTAMP,
  created_from: DATE_OR_TIMESTAMP,
  created_to: DATE_OR_TIMESTAMP,
  updated_at: DATE_OR_TIMESTAMP,
  updated_from: DATE_OR_TIMESTAMP,
  updated_to: DATE_OR_TIMESTAMP,
} as const;

/** The query string of a list: the parameters every list takes and the list's own filters. */
export const listQuery = <const Filters extends Readonly<Record<string, object>>>(filters: Filters) =>
  closedObject({ ...pageQueryProperties, ...filters });

/**
 * The query string of a list of records listed under their customer (accounts, keys, QR codes and
 * payments; shared/data/listed-records.ts): customer_id, then the list's own filters.
 */
export const listQueryUnderCustomer = <const Filters extends Readonly<Record<string, object>>>(filters: Filters) =>
  listQuery({ customer_id: UUID, ...filters });

export const paginationInfoSchema = /* @__PURE__ */ allRequired({
  total_elements: { type: 'integer', minimum: 0 },
  total_pages: { type: 'integer', minimum: 0 },
  current_page: { type: 'integer', minimum: 1 },
  first_request_timestamp: TIMESTAMP,
});

/** The answer of a GET list: a page of `items` under the list's own name, and pagination_info. */
export const listAnswer = /* @__NO_SIDE_EFFECTS__ */ <const Name extends string, const Item extends object>(
  name: Name,
  items: Item,
) =>
  allRequired({ [name]: { type: 'array', items }, pagination_info: paginationInfoSchema } as {
    readonly [key in Name]: { readonly type: 'array'; readonly items: Item };
  } & { readonly pagination_info: typeof paginationInfoSchema });
