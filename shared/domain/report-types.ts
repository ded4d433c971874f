/**
 * The kinds of report (docs/reconciliation.md, "Reports"), one entry each: the filters it takes, the
 * columns of its CSV (the fields of its list's records: shared/domain/csv.ts) and how its rows are
 * read, a page at a time, through the very rule its GET list answers with. A report is that list,
 * walked at the report's own snapshot (its created_at), all of it.
 */
import { movementSchema } from '../schemas/ledger';
import { MAX_PAGE_SIZE } from '../schemas/lists';
import { paymentSchema } from '../schemas/payments';
import { refundSchema } from '../schemas/refunds';
import type { ReportType } from '../schemas/reports';
import type { StoredAccount } from './accounts';
import { columnsOf, type CsvColumn } from './csv';
import { listMovements, type LedgerStore } from './ledger';
import type { ListAnswer } from './lists';
import { listPayments, type PaymentReader } from './payments';
import { listRefunds, type RefundReader } from './refunds';

/** What the reports read: the stores of the lists they are made of. */
export interface ReportSources {
  readonly payments: Pick<PaymentReader, 'list'>;
  readonly accounts: { get(id: string): Promise<StoredAccount | undefined> };
  readonly ledger: LedgerStore;
  readonly refunds: Pick<RefundReader, 'list'>;
}

/** The filters of a report, as its request named them. */
export interface ReportFilters {
  readonly tenant: string;
  readonly customer_id?: string;
  readonly account_id?: string;
  readonly created_from: string;
  readonly created_to: string;
  /** The walk's snapshot: the report's created_at (what was created after it is not in the report). */
  readonly snapshot: string;
}

/** The filters a report's request may name besides its dates. */
export type ReportFilterName = 'customer_id' | 'account_id';

export interface ReportKind {
  /** The filters this kind takes; `required` ones it cannot do without. */
  readonly filters: readonly ReportFilterName[];
  readonly required: readonly ReportFilterName[];
  readonly columns: readonly CsvColumn[];
  /** Page `page` of the report's list (MAX_PAGE_SIZE records), and how many pages the list has. */
  page(sources: ReportSources, filters: ReportFilters, page: number, now: string): Promise<ReportPage>;
}

export interface ReportPage {
  readonly records: readonly object[];
  readonly totalPages: number;
}

const reportPage = <K extends string, P extends object>(name: K, answer: ListAnswer<K, P>): ReportPage => ({
  records: answer[name],
  totalPages: answer.pagination_info.total_pages,
});

/** The page query of a report's list: the largest pages, its dates, pinned to its snapshot. */
const pageQuery = (filters: ReportFilters, page: number) => ({
  page_size: MAX_PAGE_SIZE,
  page_number: page,
  first_request_timestamp: filters.snapshot,
  created_from: filters.created_from,
  created_to: filters.created_to,
});

export const REPORT_KINDS: Readonly<Record<ReportType, ReportKind>> = {
  payments: {
    filters: ['customer_id', 'account_id'],
    required: [],
    columns: columnsOf(paymentSchema),
    page: async (sources, filters, page, now) =>
      reportPage(
        'payments',
        await listPayments(
          sources.payments,
          filters.tenant,
          {
            ...pageQuery(filters, page),
            ...(filters.customer_id === undefined ? {} : { customer_id: filters.customer_id }),
            ...(filters.account_id === undefined ? {} : { account_id: filters.account_id }),
          },
          now,
        ),
      ),
  },
  movements: {
    filters: ['account_id'],
    required: ['account_id'],
    columns: columnsOf(movementSchema),
    page: async (sources, filters, page, now) =>
      reportPage(
        'movements',
        await listMovements(sources, filters.tenant, filters.account_id!, pageQuery(filters, page), now),
      ),
  },
  refunds: {
    filters: ['customer_id'],
    required: [],
    columns: columnsOf(refundSchema),
    page: async (sources, filters, page, now) =>
      reportPage(
        'refunds',
        await listRefunds(
          sources.refunds,
          filters.tenant,
          {
            ...pageQuery(filters, page),
            ...(filters.customer_id === undefined ? {} : { customer_id: filters.customer_id }),
          },
          now,
        ),
      ),
  },
};

/**
 * The rows of a report, one page at a time, in created_at order: a page is let go before the next is
 * read, so a report of any length holds one page of records at most.
 */
export async function* reportPages(
  sources: ReportSources,
  kind: ReportKind,
  filters: ReportFilters,
  now: () => string,
): AsyncGenerator<readonly object[]> {
  for (let page = 1; ; page += 1) {
    const { records, totalPages } = await kind.page(sources, filters, page, now());
    if (records.length > 0) yield records;
    if (records.length === 0 || page >= totalPages) return;
  }
}
