/**
 * The conventions every list shares (docs/pagination.md): page parameters,
 * date filters, the snapshot a walk is pinned to, and pagination_info. Pure: no AWS types, so the rules are unit-tested on their own.
 */
import { MAX_PAGE_NUMBER, MAX_PAGE_SIZE } from '../schemas/bounds';
import { AppError, type FieldError } from './errors';

export const DEFAULT_PAGE_SIZE = 10;
/** A snapshot a little ahead of our clock is another host's clock, not the future. */
export const SNAPSHOT_CLOCK_SKEW_MS = 60_000;

export type OrderKey = 'created_at' | 'updated_at';
export type OrderDirection = 'asc' | 'desc';

/** Inclusive bounds, as ISO 8601 UTC timestamps with milliseconds. */
export interface TimeRange {
  readonly from?: string;
  readonly to?: string;
}

/** The list parameters every GET list accepts (after schema validation and coercion). */
export interface PageQuery {
  readonly page_size?: number;
  readonly page_number?: number;
  readonly order_key?: OrderKey;
  readonly order_direction?: string;
  readonly first_request_timestamp?: string;
  readonly created_at?: string;
  readonly created_from?: string;
  readonly created_to?: string;
  readonly updated_at?: string;
  readonly updated_from?: string;
  readonly updated_to?: string;
}

export interface PageRequest {
  readonly pageSize: number;
  readonly pageNumber: number;
  readonly orderKey: OrderKey;
  readonly direction: OrderDirection;
  /** The instant the walk is pinned to: items created (for updated_at order: updated) after it are out. */
  readonly snapshot: string;
  /** True when the client sent first_request_timestamp back, so cached page boundaries may exist. */
  readonly pinned: boolean;
  readonly created: TimeRange;
  readonly updated: TimeRange;
}

export interface PaginationInfo {
  readonly total_elements: number;
  readonly total_pages: number;
  readonly current_page: number;
  readonly first_request_timestamp: string;
}

export interface PageResult<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/**
 * A page of a list under one record (an account's movements, a webhook's deliveries), read with that
 * record in the page's own calls: the page is empty unless the record is the asking client's.
 */
export interface PageUnder<T> extends PageResult<T> {
  /** The client the record belongs to; undefined when there is no such record. */
  readonly ownerTenant: string | undefined;
}

/** `{ [name]: value }`, or nothing when the value is undefined: a filter only when the query named it. */
export const optional = <K extends string, V>(name: K, value: V | undefined) =>
  (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };

/** Where a page of a walk read in order ended, in the store's own terms: the next page starts after it. */
export type ListCursor = Readonly<Record<string, unknown>>;

/** A page of a walk read in order: its records, and where it ended while the walk may go on. */
export interface WalkPage<T> {
  readonly items: readonly T[];
  readonly next?: ListCursor;
}

/** The reads every store of a listed kind of record answers (filters `F` are the kind's own). */
export interface RecordReader<T, F> {
  get(id: string): Promise<T | undefined>;
  list(tenant: string, filters: F, request: PageRequest): Promise<PageResult<T>>;
  /**
   * The walk's page that follows `after` (its first without), read from there on: a walk read page
   * by page reads each record once, where `list` steps over the pages before the one it is asked for.
   */
  walk(tenant: string, filters: F, request: PageRequest, after: ListCursor | undefined): Promise<WalkPage<T>>;
}

/** A list's answer: the page's records under the list's own name ('accounts', 'keys', ...). */
export type ListAnswer<K extends string, P> = { readonly [name in K]: P[] } & {
  readonly pagination_info: PaginationInfo;
};

/** What one GET list adds to the conventions: its name, its filters, its records' public form. */
export interface ListSpec<K extends string, Q extends PageQuery, F, T, P> {
  readonly name: K;
  /** The store's filters for the query's filter parameters. */
  readonly filters: (query: Q) => F;
  readonly toPublic: (record: T) => P;
}

/** Collects every invalid parameter, so a client fixes a request in one round trip. */
export class FieldErrors {
  private readonly errors: FieldError[] = [];

  /** `subject` opens the error's detail: "The query string has 2 invalid field(s)". */
  constructor(private readonly subject = 'The query string') {}

  add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  throwIfAny(): void {
    if (this.errors.length === 0) return;
    throw new AppError('VALIDATION_FAILED', `${this.subject} has ${this.errors.length} invalid field(s)`, {
      errors: [...this.errors],
    });
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?Z$/;

const isInstant = (iso: string): boolean => {
  const time = Date.parse(iso);
  return !Number.isNaN(time) && new Date(time).toISOString() === iso;
};

/**
 * The span of time a filter value names, as inclusive ISO bounds with milliseconds: a whole UTC day
 * for `YYYY-MM-DD`, a whole second for `YYYY-MM-DDTHH:MM:SSZ`, one millisecond when the value has
 * them (the API's own timestamps). Undefined when the value is not one of these or not a real date.
 */
export function timeSpan(value: string): { readonly start: string; readonly end: string } | undefined {
  let start: string;
  let end: string;
  if (DATE.test(value)) {
    start = `${value}T00:00:00.000Z`;
    end = `${value}T23:59:59.999Z`;
  } else {
    const match = DATE_TIME.exec(value);
    if (!match) return undefined;
    const base = `${match[1]}T${match[2]}:${match[3]}:${match[4]}`;
    const millis = match[5];
    start = `${base}.${millis === undefined ? '000' : millis.padEnd(3, '0')}Z`;
    end = millis === undefined ? `${base}.999Z` : start;
  }
  return isInstant(start) && isInstant(end) ? { start, end } : undefined;
}

const DATE_FORMATS = 'must be a date YYYY-MM-DD or a UTC timestamp YYYY-MM-DDTHH:MM:SSZ';

function spanOf(errors: FieldErrors, field: string, value: string | undefined) {
  if (value === undefined) return undefined;
  const span = timeSpan(value);
  if (!span) errors.add(field, DATE_FORMATS);
  return span;
}

const latest = (...values: (string | undefined)[]): string | undefined =>
  values.reduce<string | undefined>((a, b) => (a === undefined || (b !== undefined && b > a) ? b : a), undefined);
const earliest = (...values: (string | undefined)[]): string | undefined =>
  values.reduce<string | undefined>((a, b) => (a === undefined || (b !== undefined && b < a) ? b : a), undefined);

/** `<prefix>_at` (exact day or second), `<prefix>_from` and `<prefix>_to` (inclusive), intersected. */
function timeRange(
  errors: FieldErrors,
  prefix: 'created' | 'updated',
  exact: string | undefined,
  from: string | undefined,
  to: string | undefined,
): TimeRange {
  const exactSpan = spanOf(errors, `${prefix}_at`, exact);
  const fromSpan = spanOf(errors, `${prefix}_from`, from);
  const toSpan = spanOf(errors, `${prefix}_to`, to);
  if (fromSpan && toSpan && fromSpan.start > toSpan.end) {
    errors.add(`${prefix}_from`, `must not be after ${prefix}_to`);
  }
  const lower = latest(exactSpan?.start, fromSpan?.start);
  const upper = earliest(exactSpan?.end, toSpan?.end);
  return { ...(lower === undefined ? {} : { from: lower }), ...(upper === undefined ? {} : { to: upper }) };
}

/**
 * The page a request asks for, with every default applied and every value checked (the schema
 * already checked shapes; this checks meaning: real dates, ordered bounds, no future snapshot).
 * `defaultDirection` is the order without order_direction: `asc`, but for a log read newest first.
 */
export function parsePageRequest(query: PageQuery, now: string, defaultDirection: OrderDirection = 'asc'): PageRequest {
  const errors = new FieldErrors();
  const pageSize = query.page_size ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
    errors.add('page_size', `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  const pageNumber = query.page_number ?? 1;
  if (!Number.isInteger(pageNumber) || pageNumber < 1 || pageNumber > MAX_PAGE_NUMBER) {
    errors.add('page_number', 'must be an integer of at least 1');
  }
  const orderKey = query.order_key ?? 'created_at';
  if (orderKey !== 'created_at' && orderKey !== 'updated_at') {
    errors.add('order_key', 'must be one of created_at, updated_at');
  }
  const direction = (query.order_direction ?? defaultDirection).toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') errors.add('order_direction', 'must be asc or desc');

  let snapshot = now;
  const pinned = query.first_request_timestamp !== undefined;
  if (query.first_request_timestamp !== undefined) {
    const span = DATE_TIME.test(query.first_request_timestamp) ? timeSpan(query.first_request_timestamp) : undefined;
    if (!span) {
      errors.add('first_request_timestamp', 'must be a UTC timestamp YYYY-MM-DDTHH:MM:SS.sssZ');
    } else if (Date.parse(span.start) > Date.parse(now) + SNAPSHOT_CLOCK_SKEW_MS) {
      errors.add('first_request_timestamp', 'must not be in the future');
    } else {
      snapshot = span.start;
    }
  }
  const created = timeRange(errors, 'created', query.created_at, query.created_from, query.created_to);
  const updated = timeRange(errors, 'updated', query.updated_at, query.updated_from, query.updated_to);
  errors.throwIfAny();
  return {
    pageSize,
    pageNumber,
    orderKey,
    direction: direction as OrderDirection,
    snapshot,
    pinned,
    created,
    updated,
  };
}

export const lastPageOf = (total: number, pageSize: number): number => Math.ceil(total / pageSize);

export function paginationInfo(request: PageRequest, total: number): PaginationInfo {
  return {
    total_elements: total,
    total_pages: lastPageOf(total, request.pageSize),
    current_page: request.pageNumber,
    first_request_timestamp: request.snapshot,
  };
}

/**
 * A GET list: the page the query asks for of the tenant's records that pass its filters, each in its
 * public form. The page parameters are checked first: their errors come before a filter's.
 */
export async function listOwn<K extends string, Q extends PageQuery, F, T, P>(
  records: Pick<RecordReader<T, F>, 'list'>,
  tenant: string,
  query: Q,
  now: string,
  spec: ListSpec<K, Q, F, T, P>,
): Promise<ListAnswer<K, P>> {
  const request = parsePageRequest(query, now);
  const page = await records.list(tenant, spec.filters(query), request);
  return {
    // One argument: no index for a toPublic with an optional second parameter (publicQrCode's image).
    [spec.name]: page.items.map((record) => spec.toPublic(record)),
    pagination_info: paginationInfo(request, page.total),
  } as ListAnswer<K, P>;
}

/** The GET list of a kind of record whose store is all it reads, and its `walk` (the whole list in order). */
export const listOf = <K extends string, Q extends PageQuery, F, T, P>(spec: ListSpec<K, Q, F, T, P>) =>
  Object.assign(
    (records: Pick<RecordReader<T, F>, 'list'>, tenant: string, query: Q, now: string): Promise<ListAnswer<K, P>> =>
      listOwn(records, tenant, query, now, spec),
    {
      walk: (records: Pick<RecordReader<T, F>, 'walk'>, tenant: string, query: Q, now: string): AsyncGenerator<P[]> =>
        walkOwn(records, tenant, query, now, spec),
    },
  );

/**
 * A whole list, a page of public records at a time, each page read from where the last ended (a
 * report's rows): the walk's snapshot is the query's first_request_timestamp, or `now`.
 */
export async function* walkOwn<Q extends PageQuery, F, T, P>(
  records: Pick<RecordReader<T, F>, 'walk'>,
  tenant: string,
  query: Q,
  now: string,
  spec: Pick<ListSpec<string, Q, F, T, P>, 'filters' | 'toPublic'>,
): AsyncGenerator<P[]> {
  const request = parsePageRequest(query, now);
  yield* walkPages((after) => records.walk(tenant, spec.filters(query), request, after), spec.toPublic);
}

/** Every page of a walk, each read from where the last ended, in its records' public form. */
export async function* walkPages<T, P>(
  read: (after: ListCursor | undefined) => Promise<WalkPage<T>>,
  toPublic: (record: T) => P,
): AsyncGenerator<P[]> {
  let after: ListCursor | undefined;
  do {
    const page = await read(after);
    if (page.items.length > 0) yield page.items.map((record) => toPublic(record));
    after = page.next;
  } while (after);
}
