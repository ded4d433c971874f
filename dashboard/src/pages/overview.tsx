/**
 * The first page after sign-in: the last 30 days of payments, by Bogotá's day, received and sent,
 * for all the tenant's merchants or one. One call, whatever the number of payments: the API's daily
 * totals (GET /v1/payment-totals), kept as the payments are written; overview-figures.ts turns them
 * into the chart's figures in exact cents.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { PaymentTotals } from '../api';
import { useDashboard } from '../components/context';
import { DailyChart, DailyTable, type Measure } from '../components/daily-chart';
import { FirstRun } from '../components/first-run';
import { useMerchants } from '../components/merchants';
import { ProblemMessage } from '../components/problem';
import { lastDays } from '../days';
import { t } from '../i18n';
import { dailyFigures } from '../overview-figures';

const DAYS = 30;

function useTotalsOf(days: readonly string[], customerId: string, attempt: number) {
  const { api } = useDashboard();
  const [state, setState] = useState<{ totals?: PaymentTotals; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setState({});
    api.getPaymentTotals({ from: days[0]!, to: days.at(-1)!, ...(customerId ? { customer_id: customerId } : {}) }).then(
      (totals) => live && setState({ totals }),
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
  const { totals, error } = useTotalsOf(days, customerId, attempt);
  const figures = useMemo(() => totals && dailyFigures(totals), [totals]);
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
      ) : !figures ? (
        <p role="status">{t('app.loading')}</p>
      ) : (
        <section class="overview" aria-labelledby="chart-title">
          <ul class="legend">
            <li class="received">{t('overview.received')}</li>
            <li class="sent">{t('overview.sent')}</li>
          </ul>
          <DailyChart figures={figures} measure={measure} />
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
