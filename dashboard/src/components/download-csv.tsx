/**
 * `Download CSV` for a list, and `Excel (español)` beside it (the same report as Excel opens it in
 * Spanish: `format: "excel_es"`): a click asks the API for a report of the list over its period (POST
 * /v1/reports, a fresh Idempotency-Key each click: each click is a report of its own), reads it
 * again with a growing wait until the worker has written it, then downloads the file through a link
 * clicked for the person, left on the page in case the browser blocked that. Every step is said in
 * a status line that screen readers announce.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreateReportRequest } from '../api';
import { t } from '../i18n';
import { MAX_REPORT_DAYS, type ReportPeriod } from '../report-period';
import { newIdempotencyKey, useDashboard, useMay } from './context';
import { ProblemMessage } from './problem';

/** The first wait before reading the report again, and the longest: the worker takes seconds locally, minutes at most. */
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 5_000;

type Run =
  | { readonly step: 'idle' }
  | { readonly step: 'too-long'; readonly days: number }
  | { readonly step: 'preparing' }
  | { readonly step: 'ready'; readonly url: string; readonly rows: number }
  | { readonly step: 'failed'; readonly reason: string }
  | { readonly step: 'refused'; readonly error: unknown };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function statusOf(run: Run): string {
  switch (run.step) {
    case 'idle':
      return '';
    case 'too-long':
      return t('report.tooLong', { days: run.days, max: MAX_REPORT_DAYS });
    case 'preparing':
      return t('report.preparing');
    case 'ready':
      return t(run.rows === 1 ? 'report.ready.one' : 'report.ready.many', { count: run.rows });
    case 'failed':
      return t('report.failed', { reason: run.reason });
    case 'refused':
      return t('report.refused');
  }
}

export function DownloadCsv(props: {
  /** The report's type and filters, as its list's. */
  readonly filters: Omit<CreateReportRequest, 'created_from' | 'created_to'>;
  /** The period at the moment of the click (the last 30 days end today). */
  readonly period: () => ReportPeriod;
  /** What the file holds, said under the button. */
  readonly lead: string;
}) {
  const { api } = useDashboard();
  const may = useMay();
  const [run, setRun] = useState<Run>({ step: 'idle' });
  // A payments report masks people's document and account numbers unless the person asks (docs/privacy.md).
  const [reveal, setReveal] = useState(false);
  const revealable = props.filters.type === 'payments' && may('revealNumbers');
  // The latest click's number: a later click, or leaving the page, ends an earlier click's reads.
  const clicks = useRef(0);
  useEffect(
    () => () => {
      clicks.current += 1;
    },
    [],
  );
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    if (run.step === 'ready') link.current?.click();
  }, [run]);

  async function prepare(format: 'csv' | 'excel_es'): Promise<void> {
    const period = props.period();
    if (!period.ok) return setRun({ step: 'too-long', days: period.days });
    const click = ++clicks.current;
    const current = () => clicks.current === click;
    setRun({ step: 'preparing' });
    try {
      const body = {
        ...props.filters,
        created_from: period.created_from,
        created_to: period.created_to,
        ...(revealable && reveal ? { reveal: true } : {}),
        ...(format === 'excel_es' ? { format } : {}),
      };
      let report = await api.createReport(body, newIdempotencyKey());
      for (let wait = FIRST_WAIT_MS; report.status === 'PENDING'; wait = Math.min(wait * 1.5, LONGEST_WAIT_MS)) {
        await sleep(wait);
        if (!current()) return;
        report = await api.getReport(report.id);
      }
      if (!current()) return;
      setRun(
        report.status === 'SUCCEEDED' && report.download_url
          ? { step: 'ready', url: report.download_url, rows: report.row_count ?? 0 }
          : { step: 'failed', reason: report.failure_reason ?? t('report.noFile') },
      );
    } catch (error) {
      if (current()) setRun({ step: 'refused', error });
    }
  }

  // A report is asked for with breb/reports.write, which a viewer does not hold: no button it would refuse.
  if (!may('downloadReport')) return null;
  return (
    <div class="download-csv">
      <div class="actions">
        <button type="button" disabled={run.step === 'preparing'} onClick={() => void prepare('csv')}>
          {t('report.download')}
        </button>
        <button type="button" disabled={run.step === 'preparing'} onClick={() => void prepare('excel_es')}>
          {t('report.downloadExcel')}
        </button>
        <p class="hint">{props.lead}</p>
        <p class="hint">{t('report.excelHint')}</p>
        {revealable && (
          <label>
            <input type="checkbox" checked={reveal} onChange={(e) => setReveal(e.currentTarget.checked)} />{' '}
            {t('report.revealNumbers')}
          </label>
        )}
      </div>
      {/* Always in the page, so a change of its text is announced. */}
      <p class="status-line" role="status" aria-live="polite">
        {statusOf(run)}
      </p>
      {run.step === 'ready' && (
        <p class="hint">
          {t('report.linkLead')}{' '}
          <a ref={link} href={run.url} download>
            {t('report.link')}
          </a>
        </p>
      )}
      {run.step === 'refused' && <ProblemMessage error={run.error} />}
    </div>
  );
}
