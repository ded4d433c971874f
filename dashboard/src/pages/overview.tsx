/**
 * The first page after sign-in: the last 30 days of payments, by Bogotá's day, received and sent,
 * for all the tenant's merchants or one. Read from the payments list (created_from and created_to
 * over the 30 days, 100 at a time on one snapshot, newest first) up to MAX_PAGES: beyond, the page
 * says the oldest days are incomplete. Summed in exact cents (overview-figures.ts).
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { ListQuery, Payment } from '../api';
import { useDashboard } from '../components/context';
import { DailyChart, DailyTable, type Measure } from '../components/daily-chart';
import { FirstRun } from '../components/first-run';
import { useMerchants } from '../components/merchants';
import { ProblemMessage } from '../components/problem';
import { dayBounds, lastDays } from '../days';
import { t } from '../i18n';
import { dailyFigures } from '../overview-figures';

const DAYS = 30;
const PAGE = 100;
/** 5,000 payments: 50 reads of the largest page. */
const MAX_PAGES = 50;

interface Read {
  readonly payments: readonly Payment[];
  /** How many the filter selects, when more than were read. */
  readonly of?: number;
}

function usePaymentsOf(days: readonly string[], customerId: string, attempt: number) {
  const { api } = useDashboard();
  const [state, setState] = useState<{ read?: Read; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setState({});
    (async () => {
      const query = {
        created_from: dayBounds(days[0]!).from,
        created_to: dayBounds(days.at(-1)!).to,
        ...(customerId ? { customer_id: customerId } : {}),
      } as ListQuery<'listPayments'>;
      const payments: Payment[] = [];
      let snapshot: string | undefined;
      for (let page = 1; live; page++) {
        const answer = await api.listPayments({
          ...query,
          page_number: page,
          page_size: PAGE,
          order_direction: 'desc',
          ...(snapshot ? { first_request_timestamp: snapshot } : {}),
        });
        snapshot = answer.pagination_info.first_request_timestamp;
        payments.push(...answer.payments);
        const { total_pages, total_elements } = answer.pagination_info;
        if (page >= total_pages) return { payments };
        if (page >= MAX_PAGES) return { payments, of: total_elements };
      }
      return { payments };
    })().then(
      (read) => live && setState({ read }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [api, customerId, attempt]);
  return state;
}

export function OverviewPage() {
  // The 30 days end today, as the page opens.
  const days = useMemo(() => lastDays(DAYS), []);
  const { choices, state: merchantsRead } = useMerchants();
  const [customerId, setCustomerId] = useState('');
  const [measure, setMeasure] = useState<Measure>('amounts');
  const [attempt, setAttempt] = useState(0);
  // The table stays open (or closed) as the person left it while another merchant's figures load.
  const [tableOpen, setTableOpen] = useState(false);
  const { read, error } = usePaymentsOf(days, customerId, attempt);
  const figures = useMemo(() => read && dailyFigures(days, read.payments), [read, days]);
  // A platform with no merchant yet has nothing to chart (an empty chart's axis read "$ 0,01"): the
  // page that opens after signing in shows its first steps instead.
  if (merchantsRead.step === 'read' && merchantsRead.merchants.length === 0) {
    return (
      <>
        <h1>{t('overview.title')}</h1>
        <FirstRun />
      </>
    );
  }
  return (
    <>
      <h1>{t('overview.title')}</h1>
      <p>{t('overview.lead')}</p>
      <form class="filters" role="search" aria-label={t('overview.title')} onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="overview-merchant">{t('overview.merchant')}</label>
          <select id="overview-merchant" value={customerId} onChange={(e) => setCustomerId(e.currentTarget.value)}>
            <option value="">{t('overview.allMerchants')}</option>
            {choices.map((choice) => (
              <option key={choice.value} value={choice.value}>
                {choice.label}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="overview-measure">{t('overview.show')}</label>
          <select id="overview-measure" value={measure} onChange={(e) => setMeasure(e.currentTarget.value as Measure)}>
            <option value="amounts">{t('overview.amounts')}</option>
            <option value="counts">{t('overview.counts')}</option>
          </select>
        </div>
      </form>
      {error !== undefined ? (
        <ProblemMessage error={error} onRetry={() => setAttempt((n) => n + 1)} />
      ) : !figures || !read ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <section class="overview" aria-labelledby="chart-title">
          <ul class="legend">
            <li class="received">{t('overview.received')}</li>
            <li class="sent">{t('overview.sent')}</li>
          </ul>
          <DailyChart figures={figures} measure={measure} />
          {read.of !== undefined && (
            <p class="problem" role="note">
              {t('overview.partial', { count: read.payments.length, of: read.of })}
            </p>
          )}
          <p class="hint">{t('overview.what')}</p>
          <details class="figures" open={tableOpen} onToggle={(e) => setTableOpen(e.currentTarget.open)}>
            <summary>{t('overview.table')}</summary>
            <DailyTable figures={figures} />
          </details>
        </section>
      )}
    </>
  );
}
