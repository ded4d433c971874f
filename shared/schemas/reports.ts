/**
 * Report runs for finance teams (docs/reconciliation.md, "Reports"): POST /v1/reports asks for a CSV
 * of the client's payments, of an account's movements or of the client's refunds over a period, a
 * worker writes it, and GET /v1/reports/{id} answers where to download it.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, text, TIMESTAMP, TIMESTAMPS, UUID } from './common';
import { DATE_OR_TIMESTAMP, listQuery, listAnswer } from './lists';

/** The kinds of report: each is a list of the API written as CSV (shared/domain/report-types.ts). */
export const REPORT_TYPES = ['payments', 'movements', 'refunds'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

/**
 * How the file is written: `csv`, RFC 4180 with the API's own values (the default); `excel_es`, as
 * Excel opens it in Spanish (semicolons, decimal commas, Bogotá times, a byte order mark, the
 * merchant's name beside its id: shared/domain/report-formats.ts).
 */
export const REPORT_FORMATS = ['csv', 'excel_es'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** PENDING until the worker has written the file, then SUCCEEDED or FAILED, for good. */
export const REPORT_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** What a report covers: its type and the filters of its list, as the list's query names them. */
const reportFilterProperties = {
  type: { type: 'string', enum: REPORT_TYPES },
  /** Payments, refunds: only this customer's. */
  customer_id: UUID,
  /** Payments: only this account's; movements: the account whose ledger it is (required). */
  account_id: UUID,
  /** Inclusive bounds of created_at, as the lists take them (a date is its whole UTC day). */
  created_from: DATE_OR_TIMESTAMP,
  created_to: DATE_OR_TIMESTAMP,
  /**
   * Whether the file shows the other side's document and account numbers whole; masked otherwise
   * (`****4050`, docs/privacy.md). True needs breb/payments.read.
   */
  reveal: { type: 'boolean' },
  /** The file's format; `csv` when absent. */
  format: { type: 'string', enum: REPORT_FORMATS },
} as const;

export const createReportRequestSchema = closedObject(reportFilterProperties, ['type', 'created_from', 'created_to']);

export type CreateReportRequest = FromSchema<typeof createReportRequestSchema>;

/** No filter of its own: the list conventions' dates and order. */
export const reportListQuerySchema = listQuery({});

export type ReportListQuery = FromSchema<typeof reportListQuerySchema>;

/** A report run, as GET /v1/reports/{id} answers it. */
export const reportSchema = closedObject(
  {
    id: UUID,
    ...reportFilterProperties,
    status: { type: 'string', enum: REPORT_STATUSES },
    /** SUCCEEDED: the rows of the file, its header row apart. */
    row_count: { type: 'integer', minimum: 0 },
    /**
     * SUCCEEDED, while the file is kept (REPORT_FILE_DAYS): where to download it without a token, until
     * expires_at. Made at each GET (a new one each time), never stored; the list leaves it out.
     */
    download_url: { type: 'string', format: 'uri' },
    expires_at: TIMESTAMP,
    /** FAILED: why. */
    failure_reason: text(300),
    ...TIMESTAMPS,
  },
  ['id', 'type', 'created_from', 'created_to', 'status', 'created_at', 'updated_at'],
);

export const reportListSchema = listAnswer('reports', reportSchema);
