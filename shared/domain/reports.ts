/**
 * Report runs (docs/reconciliation.md, "Reports"): a client asks for a CSV of one of its lists over a
 * period (POST /v1/reports answers it PENDING); a worker writes the file a page at a time through
 * the ReportFiles port and marks the report SUCCEEDED, with its row count and a `report.ready`
 * event, or FAILED with a reason. GET /v1/reports/{id} answers a download URL that expires, made at
 * each read. Another client's report is 404, as an unknown one. Its runs, each under a lease, are
 * shared/domain/report-runs.ts.
 */
import type { CreateReportRequest, ReportFormat, ReportListQuery, ReportStatus, ReportType } from '../schemas/reports';
import { newRecord, type Clock, type NewRecords } from './clock';
import { AppError, RetryLater } from './errors';
import type { DomainEvent } from './events';
import { FieldErrors, listOf, optional, timeSpan, type RecordReader } from './lists';
import { later } from './payments';
import { REPORT_FILTERS } from './report-filters';
import type { ReportSources } from './report-types';

/** The scope a report that reveals people's document and account numbers needs (docs/privacy.md). */
export const REVEAL_SCOPE = 'breb/payments.read';

/** The longest period a report covers: a year, a leap day included. */
export const MAX_REPORT_DAYS = 366;
/** How long a report's file is kept (the bucket's lifecycle deletes it after): its URL is given until then. */
export const REPORT_FILE_DAYS = 7;
/** How long a download URL works once answered. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;
/** A client's reports PENDING at once, at most (docs/reconciliation.md): each one reads a whole list. */
export const MAX_PENDING_REPORTS = 3;
/** What a busy client is told to wait: a report of a day's payments runs in seconds. */
const REPORTS_BUSY_RETRY_SECONDS = 10;

const DAY_MS = 24 * 60 * 60 * 1000;

export interface StoredReport {
  readonly id: string;
  readonly tenant: string;
  readonly type: ReportType;
  readonly customer_id?: string;
  readonly account_id?: string;
  readonly created_from: string;
  readonly created_to: string;
  /** Whether its file shows people's document and account numbers whole (docs/privacy.md); masked otherwise. */
  readonly reveal?: boolean;
  /** Absent for `csv`, the default. */
  readonly format?: Exclude<ReportFormat, 'csv'>;
  readonly status: ReportStatus;
  readonly row_count?: number;
  /** SUCCEEDED: the file's name in the report files (ReportFiles). */
  readonly file?: string;
  readonly completed_at?: string;
  readonly failure_reason?: string;
  /** Runs started so far (each takes the report for the worker's timeout): a run refused by a lease is not one. */
  readonly runs?: number;
  /**
   * The run that holds the report, while PENDING (shared/domain/report-runs.ts): its owner (the
   * invocation and the message that started it) and when its lease ends. No other run starts before
   * then, and only the owner marks the report finished.
   */
  readonly lease_owner?: string;
  readonly lease_expires_at?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** A download of a report's file: its URL, and when that stops working. */
export interface Download {
  readonly url: string;
  readonly expires_at: string;
}

/** The report the routes answer: no client, none of the run's own fields, and a download when given. */
export type PublicReport = Omit<
  StoredReport,
  'tenant' | 'file' | 'completed_at' | 'runs' | 'lease_owner' | 'lease_expires_at'
> & {
  readonly download_url?: string;
  readonly expires_at?: string;
};

/** The report as the routes answer it, with a download when one is given. */
export const publicReport = (report: StoredReport, download?: Download): PublicReport => ({
  id: report.id,
  type: report.type,
  ...optional('customer_id', report.customer_id),
  ...optional('account_id', report.account_id),
  created_from: report.created_from,
  created_to: report.created_to,
  ...optional('reveal', report.reveal || undefined),
  ...optional('format', report.format),
  status: report.status,
  ...optional('row_count', report.row_count),
  ...optional('download_url', download?.url),
  ...optional('expires_at', download?.expires_at),
  ...optional('failure_reason', report.failure_reason),
  created_at: report.created_at,
  updated_at: report.updated_at,
});

/** Where the report files are kept: S3 on AWS, a folder locally (shared/data/report-files.ts). */
export interface ReportFiles {
  /** A new file `name`, written in parts: nothing is readable under its name before close(). */
  create(name: string): Promise<ReportFileWriter>;
  /** A URL that downloads `name` without a token, as `filename`, until `expiresAt`. */
  downloadUrl(name: string, filename: string, expiresAt: string): Promise<string>;
}

export interface ReportFileWriter {
  /** Appends text (UTF-8); the writer keeps at most one part of it before sending it on. */
  write(text: string): Promise<void>;
  /** Makes the file readable, whole. */
  close(): Promise<void>;
  /** Gives up the file: nothing is left under its name. */
  abort(): Promise<void>;
}

/** The report runs queue: `{"report_id"}` (functions/run-report.ts). */
export interface ReportQueue {
  run(reportId: string): Promise<void>;
}

export interface ReportStore extends RecordReader<StoredReport, Record<string, never>> {
  /**
   * Puts a new PENDING report, due (the sweeper's index) from its creation until a run finishes it,
   * unless its client has `limit` PENDING already ('busy'); atomic against concurrent creates.
   */
  insert(report: StoredReport, limit: number): Promise<'inserted' | 'busy'>;
  /**
   * Takes the PENDING report for one run, in one conditional write: its lease to `lease.owner` until
   * `lease.expiresAt`, its due time moved there (the sweeper leaves it alone until then), and the run
   * counted. Undefined, and nothing written, when it is no longer PENDING or another owner's lease
   * is live at `now`.
   */
  startRun(id: string, lease: RunLease, now: string): Promise<StoredReport | undefined>;
  /**
   * SUCCEEDED, with its event, while still PENDING and leased to the report's `lease_owner` (not
   * leased, when it has none); false when another run finished it first or took its lease.
   */
  succeed(report: StoredReport, event: DomainEvent): Promise<boolean>;
  /** FAILED, on the same conditions as succeed. */
  fail(report: StoredReport): Promise<boolean>;
  /** Gives the lease back, while `owner` still holds it: the next run may start at once. */
  release(id: string, owner: string): Promise<void>;
  /**
   * Records that the report's file was handed out (a download URL), at `at`: a read that is audited
   * (docs/audit.md), as the file holds every payment of a period with its payers' data.
   */
  downloaded(report: StoredReport, at: string): Promise<void>;
}

/** A run's hold on a report: who runs it, and until when at the most. */
export interface RunLease {
  readonly owner: string;
  readonly expiresAt: string;
}

export interface CreateReportDeps extends NewRecords {
  readonly reports: Pick<ReportStore, 'insert'>;
  readonly accounts: ReportSources['accounts'];
  readonly queue: ReportQueue;
}

/** The period's checks: real dates, created_from not after created_to, at most MAX_REPORT_DAYS. */
function checkPeriod(request: CreateReportRequest, errors: FieldErrors): void {
  const from = timeSpan(request.created_from);
  const to = timeSpan(request.created_to);
  const formats = 'must be a date YYYY-MM-DD or a UTC timestamp YYYY-MM-DDTHH:MM:SSZ';
  if (!from) errors.add('created_from', formats);
  if (!to) errors.add('created_to', formats);
  if (!from || !to) return;
  if (from.start > to.end) errors.add('created_from', 'must not be after created_to');
  else if (Date.parse(to.end) + 1 - Date.parse(from.start) > MAX_REPORT_DAYS * DAY_MS) {
    errors.add('created_to', `must be at most ${MAX_REPORT_DAYS} days after created_from`);
  }
}

/** The filters the report's type takes: the others are refused, the required ones asked for. */
function checkFilters(request: CreateReportRequest, errors: FieldErrors): void {
  const kind = REPORT_FILTERS[request.type];
  for (const name of ['customer_id', 'account_id'] as const) {
    if (request[name] !== undefined && !kind.filters.includes(name)) {
      errors.add(name, `is not a filter of a ${request.type} report`);
    } else if (request[name] === undefined && kind.required.includes(name)) {
      errors.add(name, `is required for a ${request.type} report`);
    }
  }
}

/**
 * POST /v1/reports: a PENDING report, queued for its run. Its account (a movements report's) must be
 * one of the client's: another client's is 404, as an unknown one. A lost message is not a lost
 * report: it is due from its creation, and the sweeper queues it again.
 */
export async function createReport(
  deps: CreateReportDeps,
  tenant: string,
  request: CreateReportRequest,
  scopes: readonly string[],
): Promise<PublicReport> {
  // People's numbers whole only for whom may read the payments they come from (docs/privacy.md).
  if (request.reveal && !scopes.includes(REVEAL_SCOPE)) {
    throw new AppError(
      'INSUFFICIENT_SCOPE',
      `A report that reveals document and account numbers needs ${REVEAL_SCOPE}`,
    );
  }
  const errors = new FieldErrors('The body');
  checkPeriod(request, errors);
  checkFilters(request, errors);
  errors.throwIfAny();
  const customerId = request.customer_id?.toLowerCase();
  const accountId = request.account_id?.toLowerCase();
  if (request.type === 'movements' && accountId !== undefined) {
    const account = await deps.accounts.get(accountId);
    if (!account || account.tenant !== tenant) throw new AppError('NOT_FOUND', `Account ${accountId} does not exist`);
  }
  const report: StoredReport = {
    ...newRecord(deps, tenant),
    type: request.type,
    ...optional('customer_id', customerId),
    ...optional('account_id', accountId),
    created_from: request.created_from,
    created_to: request.created_to,
    ...optional('reveal', request.reveal || undefined),
    ...optional('format', request.format === 'excel_es' ? request.format : undefined),
    status: 'PENDING',
    runs: 0,
  };
  if ((await deps.reports.insert(report, MAX_PENDING_REPORTS)) === 'busy') {
    throw new RetryLater(
      'REPORTS_BUSY',
      `The client has ${MAX_PENDING_REPORTS} reports PENDING, as many as it may: ask again once one is done`,
      REPORTS_BUSY_RETRY_SECONDS,
    );
  }
  await deps.queue.run(report.id);
  return publicReport(report);
}

/** One of the tenant's reports: 404 when unknown or another client's. */
async function ownReport(reports: Pick<ReportStore, 'get'>, tenant: string, id: string): Promise<StoredReport> {
  const report = await reports.get(id.toLowerCase());
  if (!report || report.tenant !== tenant) throw new AppError('NOT_FOUND', `Report ${id} does not exist`);
  return report;
}

/** Where the report files are, in the report files (the only objects of the stage's report bucket the functions reach). */
export const REPORT_FILES_PREFIX = 'reports/';

/** A client id S3 keys and the local files take as it is: one path segment, nothing to escape. */
const PLAIN_FOLDER = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A client's folder in the report files: its id, or `~` and the id in Base64url where the id has
 * other characters (an external issuer's). `~` is in no plain id nor in Base64url, so no two clients
 * share a folder, and no id reaches outside its own (no `/`, no `..`).
 */
export const reportFolder = (tenant: string): string =>
  PLAIN_FOLDER.test(tenant) ? tenant : `~${Buffer.from(tenant, 'utf8').toString('base64url')}`;

/**
 * The file's name in the report files: under its client's folder (reports/<client>/<id>.csv), so an
 * operator lists, exports or erases one client's files by its prefix. Files written before the folders
 * (reports/<id>.csv) keep the name their report stored until they expire.
 */
export const reportFile = (report: Pick<StoredReport, 'id' | 'tenant'>): string =>
  `${REPORT_FILES_PREFIX}${reportFolder(report.tenant)}/${report.id}.csv`;

/** The name a download saves the file under. */
const downloadName = (report: StoredReport): string =>
  `${report.type}-${report.created_from.slice(0, 10)}-${report.created_to.slice(0, 10)}-${report.id}.csv`;

export interface GetReportDeps {
  readonly reports: Pick<ReportStore, 'get' | 'downloaded'>;
  readonly files: Pick<ReportFiles, 'downloadUrl'>;
  readonly clock: Clock;
}

/**
 * GET /v1/reports/{id}: a SUCCEEDED report whose file is still kept answers a new download URL,
 * good for DOWNLOAD_URL_SECONDS (never past the file's deletion). Each URL handed out is audited
 * first: no URL leaves without its event (a failed write answers none).
 */
export async function getReport(deps: GetReportDeps, tenant: string, id: string): Promise<PublicReport> {
  const report = await ownReport(deps.reports, tenant, id);
  if (report.status !== 'SUCCEEDED' || !report.file || !report.completed_at) return publicReport(report);
  const now = deps.clock.now();
  const deleted = later(report.completed_at, REPORT_FILE_DAYS * DAY_MS);
  if (now >= deleted) return publicReport(report);
  const expiresAt = [later(now, DOWNLOAD_URL_SECONDS * 1000), deleted].sort()[0]!;
  const url = await deps.files.downloadUrl(report.file, downloadName(report), expiresAt);
  await deps.reports.downloaded(report, now);
  return publicReport(report, { url, expires_at: expiresAt });
}

/** GET /v1/reports: the tenant's reports, a page at a time, without download URLs (GET one for its URL). */
export const listReports = /* @__PURE__ */ listOf({
  name: 'reports',
  filters: (_query: ReportListQuery): Record<string, never> => ({}),
  toPublic: (report: StoredReport) => publicReport(report),
});
