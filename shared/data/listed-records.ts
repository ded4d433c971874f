/**
 * The kinds of record listed in their client's collection and in one scope of it (docs/data-model.md):
 * customers under their NIT; accounts, keys, QR codes, payments and recipients under their customer.
 * A kind's description gives its store's reads, its insert and its delete.
 */
import type { ListCursor, PageRequest, PageResult, RecordReader, WalkPage } from '../domain/lists';
import { tableName } from './client';
import { counterIncrements } from './counters';
import { listedRecordInsert, listPartitions, type ListedRecord, type Listing } from './inserts';
import type { ItemKey } from './item-keys';
import { listRecords, walkRecords, type ListJoin, type ListRecordsInput } from './pagination';
import { getRecord } from './records';
import { writeUnless, type Condition, type TransactItem } from './transactions';

/** One kind of listed record (its filters `F` are the domain's list filters of the kind). */
export interface ListedKind<T extends ListedRecord, F> {
  /** The items' `entity`, and their collection's name. */
  readonly name: string;
  readonly key: (id: string) => ItemKey;
  /** The scope of the collection a record is listed in (undefined: the collection only). */
  readonly scopeOf: (record: T) => string | undefined;
  /** What a list reads: the scope a filter names (if one does), and what the other filters compare. */
  readonly where: (filters: F) => Pick<ListRecordsInput, 'scope' | 'equals' | 'contains'>;
  /** Gets see the latest write (a retry meets the payment its first request wrote). */
  readonly consistentGet?: boolean;
  /**
   * Its records are never updated (audit events): listed by creation only, as their update order is
   * their creation order. Each record then skips its copies in the lists by update (gsi2, gsi4 and
   * their keys-only twins), which only writes would pay for.
   */
  readonly immutable?: boolean;
  /** Another item each record is read with in its lists (an account's balance item: ListJoin). */
  readonly join?: ListJoin;
}

/** The scope of a record listed under its customer: the customer_id filter reads only it. */
const customerScope = (customerId: string): string => `CUSTOMER#${customerId}`;

interface CustomerFilter {
  readonly customerId?: string;
}

/** A kind listed under its customer; `equals` maps the list's other filters to the attributes they compare. */
export const underCustomer = <T extends ListedRecord & { readonly customer_id: string }, F extends CustomerFilter>(
  name: string,
  key: (id: string) => ItemKey,
  equals: (filters: F) => ListRecordsInput['equals'],
  consistentGet = false,
): ListedKind<T, F> => ({
  name,
  key,
  scopeOf: (record) => customerScope(record.customer_id),
  where: (filters) => ({ scope: filters.customerId && customerScope(filters.customerId), equals: equals(filters) }),
  consistentGet,
});

/** A kind's `get` alone: one record by id, without the list machinery (≈12 KB of a bundle). */
export const recordGetter = <T extends ListedRecord>(
  kind: ListedKind<T, never>,
): Pick<RecordReader<T, never>, 'get'> => ({
  get: (id: string): Promise<T | undefined> => getRecord<T>(kind.key(id), { consistent: kind.consistentGet }),
});

/**
 * A store of `kind`: its list reads beside `rest` (its get and writes) and `more` (reads of its own).
 * Call it marked pure (`/* @__PURE__ *\/ listedStore(...)`), with names as arguments (an object
 * spread in an argument is kept, as it could run a getter): a function that imports only `rest` is
 * then bundled without the store, and without the list machinery.
 */
export const listedStore = <T extends ListedRecord, F, Rest extends object, More extends object = object>(
  kind: ListedKind<T, F>,
  rest: Rest,
  more?: More,
): RecordReader<T, F> & Rest & More => ({ ...listedReads(kind), ...rest, ...(more as More) });

/** A kind's `get` (one record by id), `list` (a page of a tenant's records) and `walk` (read in order). */
export const listedReads = <T extends ListedRecord, F>(kind: ListedKind<T, F>): RecordReader<T, F> => ({
  ...recordGetter(kind),
  list: (tenant: string, filters: F, request: PageRequest): Promise<PageResult<T>> =>
    listRecords<T>({
      tenant,
      collection: kind.name,
      ...kind.where(filters),
      ...immutability(kind),
      join: kind.join,
      request,
    }),
  ...recordWalker(kind),
});

/** A store of `kind` that walks (its `walk` beside `rest`) but does not list: called as listedStore is. */
export const walkedStore = <T extends ListedRecord, F, Rest extends object>(
  kind: ListedKind<T, F>,
  rest: Rest,
): Pick<RecordReader<T, F>, 'walk'> & Rest => ({ ...recordWalker(kind), ...rest });

/** A kind's `walk` alone (a tenant's records in order, page after page), without a list's pages. */
export const recordWalker = <T extends ListedRecord, F>(kind: ListedKind<T, F>): Pick<RecordReader<T, F>, 'walk'> => ({
  walk: (tenant: string, filters: F, request: PageRequest, after: ListCursor | undefined): Promise<WalkPage<T>> =>
    walkRecords<T>(
      { tenant, collection: kind.name, ...kind.where(filters), ...immutability(kind), join: kind.join, request },
      after,
    ),
});

const immutability = (kind: { readonly immutable?: boolean }) => (kind.immutable ? { immutable: true } : {});

/** Where a record of `kind` is listed: the kind's collection, and the record's scope in it. */
export const listingOf = <T extends ListedRecord>(kind: ListedKind<T, never>, record: T): Listing => ({
  collection: kind.name,
  scope: kind.scopeOf(record),
  ...immutability(kind),
});

/**
 * Deletes a record of `kind` and takes it out of its lists' counters, in one transaction with `also`;
 * false when it was already gone (a concurrent delete won).
 */
export async function deleteListed<T extends ListedRecord>(
  kind: ListedKind<T, never>,
  record: T,
  also: readonly TransactItem[] = [],
): Promise<boolean> {
  const refusal = await writeUnless(
    [
      {
        item: {
          Delete: { TableName: tableName(), Key: kind.key(record.id), ConditionExpression: 'attribute_exists(pk)' },
        },
        refused: () => 'gone' as const,
      },
    ],
    [...counterIncrements(listPartitions(record, listingOf(kind, record)), record.id, -1), ...also],
  );
  return refusal === undefined;
}

/**
 * Inserts a record of `kind` (listed, with the counters of its lists) in one transaction with
 * `conditions` and `also`. `{ inserted: true }`, or the answer of the first condition that failed.
 */
export async function insertListed<T extends ListedRecord, R>(
  kind: ListedKind<T, never>,
  record: T,
  // The answers' type is the store's declared result, not whatever the first condition answers.
  conditions: readonly Condition<NoInfer<R>>[],
  also: readonly TransactItem[] = [],
): Promise<{ readonly inserted: true } | R> {
  const refusal = await writeUnless(conditions, [
    ...listedRecordInsert(record, kind.key(record.id), kind.name, listingOf(kind, record)),
    ...also,
  ]);
  return refusal ?? { inserted: true };
}
