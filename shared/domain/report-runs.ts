/**
 * Report runs (docs/reconciliation.md, "Reports"), each under a lease: a run takes the PENDING report
 * with a lease naming its owner (the invocation and the message that started it) until its worker's
 * timeout and a margin, in the write that counts the run and moves its due time past the lease. While
 * another owner's lease is live a run is refused: it does nothing and is not counted against
 * MAX_REPORT_RUNS, so a message the sweeper or the queue hands again while a good run is finishing
 * does not spend the report's runs. Only the lease's owner marks the report SUCCEEDED or FAILED: a run
 * that lost its lease (it ran past it and another took the report) leaves the other's outcome as it
 * is. A run that throws gives its lease back, so the queue's retry starts at once.
 */
import type { Clock, NewRecords } from './clock';
import { csvHeader, csvRows } from './csv';
import { AppError } from './errors';
import { newEvent } from './events';
import { optional } from './lists';
import { later } from './payments';
import { fileFormat } from './report-formats';
import { REPORT_KINDS, type ReportFilters, type ReportSources } from './report-types';
import { publicReport, reportFile, type ReportFiles, type ReportStore, type StoredReport } from './reports';

/**
 * Runs of a report before it is FAILED: a run that throws (a DynamoDB or S3 outage) is tried again
 * by its queue and by the sweeper, and the third run that does not finish gives up. Runs refused by
 * another's lease are not counted.
 */
export const MAX_REPORT_RUNS = 3;

/**
 * How long a lease outlasts its run's time (the worker's timeout, after which Lambda has stopped it):
 * room for the clocks of the run and of the next one to disagree, so that no run takes a report
 * whose owner may still be writing.
 */
export const REPORT_LEASE_MARGIN_MS = 60_000;

export interface RunReportDeps {
  readonly reports: Pick<ReportStore, 'get' | 'startRun' | 'succeed' | 'fail' | 'release'>;
  readonly sources: ReportSources;
  readonly files: Pick<ReportFiles, 'create'>;
  readonly clock: Clock;
  readonly ids: NewRecords['ids'];
  /** How long one run may take (the worker's timeout): its lease lasts that and REPORT_LEASE_MARGIN_MS. */
  readonly runMs: number;
}

/** What one run did, and the report as it left it (undefined: there is no such report). */
export type ReportRun =
  /** This run finished the report: SUCCEEDED, or FAILED. */
  | { readonly run: 'finished'; readonly report: StoredReport }
  /** Another owner's lease is live: nothing done, nothing counted. */
  | { readonly run: 'leased'; readonly report: StoredReport }
  /** This run lost its lease before its finish: the report as the run that took it left it. */
  | { readonly run: 'lost'; readonly report: StoredReport | undefined }
  /** Nothing to run: the report is unknown, or was finished before. */
  | { readonly run: 'none'; readonly report: StoredReport | undefined };

/** Whether another owner than `owner` holds the report at `now`. */
const leasedToAnother = (report: StoredReport, owner: string, now: string): boolean =>
  report.lease_owner !== undefined &&
  report.lease_owner !== owner &&
  report.lease_expires_at !== undefined &&
  report.lease_expires_at > now;

/**
 * Writes the report's file (its header row, then its list's records, one page at a time) and
 * answers how many rows it holds. A failed write leaves no file.
 */
export async function writeReportFile(
  deps: Pick<RunReportDeps, 'sources' | 'files' | 'clock'>,
  report: StoredReport,
  file: string,
): Promise<number> {
  const kind = REPORT_KINDS[report.type];
  const filters: ReportFilters = {
    tenant: report.tenant,
    ...optional('customer_id', report.customer_id),
    ...optional('account_id', report.account_id),
    created_from: report.created_from,
    created_to: report.created_to,
    snapshot: report.created_at,
  };
  const {
    dialect,
    columns,
    records: written,
  } = fileFormat(report.format, kind.columns, deps.sources.customers, report.tenant);
  const writer = await deps.files.create(file);
  try {
    await writer.write(csvHeader(columns, dialect));
    let rows = 0;
    for await (const records of kind.pages(deps.sources, filters, deps.clock.now())) {
      await writer.write(csvRows(columns, await written(records), report.reveal ? undefined : kind.personal, dialect));
      rows += records.length;
    }
    await writer.close();
    return rows;
  } catch (error) {
    await writer.abort();
    throw error;
  }
}

/**
 * One run of a report by `owner` (the worker's, for each message): nothing when it is no longer
 * PENDING, or while another owner's lease is live; FAILED past MAX_REPORT_RUNS runs, or when its list
 * refuses it (its account gone); else its file written and the report SUCCEEDED with its
 * `report.ready` event. A run that throws leaves the report PENDING and its lease given back, for the
 * next (the queue's retry, or the sweeper once the lease has ended). A run that outlived its lease
 * may still write the file (the same walk, pinned at created_at), but marks nothing.
 */
export async function runReport(deps: RunReportDeps, id: string, owner: string): Promise<ReportRun> {
  const found = await deps.reports.get(id);
  if (!found || found.status !== 'PENDING') return { run: 'none', report: found };
  const now = deps.clock.now();
  // Read first: a refused run costs a read, not a failed write.
  if (leasedToAnother(found, owner, now)) return { run: 'leased', report: found };
  const report = await deps.reports.startRun(
    id,
    { owner, expiresAt: later(now, deps.runMs + REPORT_LEASE_MARGIN_MS) },
    now,
  );
  if (!report) {
    const after = await deps.reports.get(id);
    return after?.status === 'PENDING' ? { run: 'leased', report: after } : { run: 'none', report: after };
  }
  try {
    return await leasedRun(deps, report);
  } catch (error) {
    // The report is free for the queue's retry at once; should this write fail too, the lease ends
    // on its own, and the original error is the one worth reporting.
    await deps.reports.release(id, owner).catch(() => undefined);
    throw error;
  }
}

/** The run proper, under the lease `report` carries. */
async function leasedRun(deps: RunReportDeps, report: StoredReport): Promise<ReportRun> {
  if ((report.runs ?? 0) > MAX_REPORT_RUNS) {
    return finish(deps, report, `The report could not be written in ${MAX_REPORT_RUNS} runs; ask for it again`);
  }
  let rows: number;
  try {
    rows = await writeReportFile(deps, report, reportFile(report));
  } catch (error) {
    if (error instanceof AppError) return finish(deps, report, error.message);
    throw error;
  }
  const at = deps.clock.now();
  const done: StoredReport = {
    ...report,
    status: 'SUCCEEDED',
    row_count: rows,
    file: reportFile(report),
    completed_at: at,
    updated_at: at,
  };
  // The event's report has no download URL: it would expire while the event waits for its delivery.
  const event = newEvent(deps.ids, report.tenant, 'report.ready', at, publicReport(done));
  if (await deps.reports.succeed(done, event)) return { run: 'finished', report: done };
  return { run: 'lost', report: await deps.reports.get(report.id) };
}

async function finish(deps: RunReportDeps, report: StoredReport, reason: string): Promise<ReportRun> {
  const at = deps.clock.now();
  const failed: StoredReport = { ...report, status: 'FAILED', failure_reason: reason.slice(0, 300), updated_at: at };
  if (await deps.reports.fail(failed)) return { run: 'finished', report: failed };
  return { run: 'lost', report: await deps.reports.get(report.id) };
}
