/**
 * The kinds of report (docs/reconciliation.md, "Reports"), one entry each: the filters it takes, the
 * columns of its CSV (the fields of its list's records: shared/domain/csv.ts) and how its rows are
 * read, a page at a time, through the very rule its GET list answers with. A report is that list,
 * walked in order at the report's own snapshot (its created_at), all of it.
 */
import { movementSchema } from '../schemas/ledger';
import { MAX_PAGE_SIZE } from '../schemas/bounds';
import { paymentSchema } from '../schemas/payments';
import { refundSchema } from '../schemas/refunds';
import type { ReportType } from '../schemas/reports';
import type { StoredAccount } from './accounts';
import type { CustomerStore } from './customers';
import { columnsOf, type CsvColumn } from './csv';
import { walkMovements, type LedgerStore } from './ledger';
import { optional } from './lists';
import { REPORT_FILTERS, type ReportFilterRule } from './report-filters';
import { listPayments, type PaymentReader } from './payments';
import { listRefunds, type RefundReader } from './refunds';

/** What the reports read: the stores of the lists they are made of. */
export interface ReportSources {
  readonly payments: Pick<PaymentReader, 'walk'>;
  readonly accounts: { get(id: string): Promise<StoredAccount | undefined> };
  readonly ledger: LedgerStore;
  readonly refunds: Pick<RefundReader, 'walk'>;
  /** The merchants' names of an `excel_es` file (shared/domain/report-formats.ts). */
  readonly customers: Pick<CustomerStore, 'get'>;
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

export interface ReportKind extends ReportFilterRule {
  readonly columns: readonly CsvColumn[];
  /** The columns of a person's document and account numbers: masked unless the report reveals them. */
  readonly personal: ReadonlySet<string>;
  /**
   * The report's rows, a page (MAX_PAGE_SIZE records) at a time in created_at order, each page read
   * from where the last ended: a page is let go before the next is read, so a report of any length
   * holds one page of records at most, and reads each record once.
   */
  pages(sources: ReportSources, filters: ReportFilters, now: string): AsyncIterable<readonly object[]>;
}

/**
 * The columns that hold the other side's document number or account number (a payment's
 * counterparty): what docs/privacy.md masks in a report unless asked.
 */
export const personalColumns = (columns: readonly CsvColumn[]): ReadonlySet<string> =>
  new Set(columns.filter(({ path }) => PERSONAL_PATHS.includes(path.join('.'))).map(({ name }) => name));

/** The other side's own numbers; its bank's NIT (`counterparty.participant`) is no person's. */
const PERSONAL_PATHS = ['counterparty.owner.identification_number', 'counterparty.account.account_number'];

/** The query of a report's list: the largest pages, its dates, pinned to its snapshot. */
const walkQuery = (filters: ReportFilters) => ({
  page_size: MAX_PAGE_SIZE,
  first_request_timestamp: filters.snapshot,
  created_from: filters.created_from,
  created_to: filters.created_to,
});

export const REPORT_KINDS: Readonly<Record<ReportType, ReportKind>> = {
  payments: {
    ...REPORT_FILTERS.payments,
    columns: columnsOf(paymentSchema),
    personal: personalColumns(columnsOf(paymentSchema)),
    pages: (sources, filters, now) =>
      listPayments.walk(
        sources.payments,
        filters.tenant,
        {
          ...walkQuery(filters),
          ...optional('customer_id', filters.customer_id),
          ...optional('account_id', filters.account_id),
        },
        now,
      ),
  },
  movements: {
    ...REPORT_FILTERS.movements,
    columns: columnsOf(movementSchema),
    personal: personalColumns(columnsOf(movementSchema)),
    pages: (sources, filters, now) =>
      walkMovements(sources, filters.tenant, filters.account_id!, walkQuery(filters), now),
  },
  refunds: {
    ...REPORT_FILTERS.refunds,
    columns: columnsOf(refundSchema),
    personal: personalColumns(columnsOf(refundSchema)),
    pages: (sources, filters, now) =>
      listRefunds.walk(
        sources.refunds,
        filters.tenant,
        { ...walkQuery(filters), ...optional('customer_id', filters.customer_id) },
        now,
      ),
  },
};
