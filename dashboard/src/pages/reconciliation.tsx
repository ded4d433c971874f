/**
 * The tenant's days matched against the sponsor bank's settlement files (docs/reconciliation.md,
 * "Against the bank"): a Bogotá day typed as Colombia writes it (today by default), its status with
 * its meaning, what matched, and its breaks a page at a time, each with both sides' amounts and
 * links to the transfer and the account. Read again every few seconds while the day is PENDING.
 */
import { useState } from 'preact/hooks';
import type { SettlementBreak, SettlementReconciliation } from '../api';
import { withMeaning } from '../codes';
import { useDashboard } from '../components/context';
import type { Column } from '../components/data-table';
import { DayField } from '../components/filters';
import { PagedTable } from '../components/paged-table';
import { Amount, Details, Loaded } from '../components/ui';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { dayOf, parseDay } from '../days';
import { formatCop, formatDay } from '../format';
import { t } from '../i18n';
import { linkTo } from '../router';

/** Ids are long: the first 8 characters tell them apart for a person, the link carries the whole. */
const shortId = (id: string) => id.slice(0, 8);

const breakColumns = (): readonly Column<SettlementBreak>[] => [
  { header: t('column.kind'), cell: (b) => withMeaning('breakKind', b.kind) },
  { header: t('column.endToEnd'), cell: (b) => <code>{b.end_to_end_id}</code> },
  { header: t('column.direction'), cell: (b) => withMeaning('settlementDirection', b.direction) },
  {
    header: t('column.transfer'),
    cell: (b) =>
      b.payment_id ? (
        <a href={linkTo('payments', b.payment_id)}>{t('movement.payment', { id: shortId(b.payment_id) })}</a>
      ) : b.refund_id ? (
        t('movement.refund', { id: shortId(b.refund_id) })
      ) : (
        t('reconciliation.noTransfer')
      ),
  },
  {
    header: t('column.account'),
    cell: (b) => (
      <a href={linkTo('accounts', b.account_id)}>{t('reconciliation.account', { id: shortId(b.account_id) })}</a>
    ),
  },
  { header: t('column.amountHere'), numeric: true, cell: (b) => <Amount money={b.amount_here} none="—" /> },
  { header: t('column.amountAtBank'), numeric: true, cell: (b) => <Amount money={b.amount_at_bank} none="—" /> },
];

export function ReconciliationPage() {
  const today = dayOf(new Date());
  const [typed, setTyped] = useState(() => formatDay(today));
  const parsed = parseDay(typed);
  return (
    <>
      <h1>{t('reconciliation.title')}</h1>
      <p class="hint">{t('reconciliation.lead')}</p>
      <form class="filters statement-day" onSubmit={(e) => e.preventDefault()}>
        <div class="field">
          <label for="reconciliation-day">{t('reconciliation.day')}</label>
          <DayField id="reconciliation-day" value={typed} onChange={setTyped} />
        </div>
      </form>
      {/* YYYY-MM-DD compares as the calendar does. */}
      {parsed.ok && parsed.day > today && <p class="empty">{t('reconciliation.future')}</p>}
      {parsed.ok && parsed.day <= today && <DayReconciliation key={parsed.day} day={parsed.day} />}
    </>
  );
}

function DayReconciliation({ day }: { readonly day: string }) {
  const { api } = useDashboard();
  const reconciliation = useRecord(
    () => api.getSettlementReconciliation(day),
    day,
    (record) => record.status === 'PENDING',
  );
  return <Loaded state={reconciliation}>{(record) => <DaySummary day={day} record={record} />}</Loaded>;
}

function DaySummary({ day, record }: { readonly day: string; readonly record: SettlementReconciliation }) {
  return (
    <section aria-labelledby="reconciliation-day-title">
      <h2 id="reconciliation-day-title">{t('reconciliation.dayTitle', { day: formatDay(day) })}</h2>
      <Details
        rows={[
          [t('reconciliation.status'), withMeaning('reconciliationStatus', record.status)],
          [t('reconciliation.matched'), String(record.matched.count)],
          [t('reconciliation.matchedAmount'), formatCop(record.matched.amount.value)],
          [t('reconciliation.breaks'), String(record.breaks.count)],
        ]}
      />
      {/* The breaks of a day once matched: a new answer (PENDING done) reads them afresh. */}
      {record.status === 'BREAKS' && <DayBreaks key={`${day}/${record.breaks.count}`} day={day} />}
    </section>
  );
}

function DayBreaks({ day }: { readonly day: string }) {
  const { api } = useDashboard();
  const breaks = usePage((query) => api.listSettlementBreaks(day, query), 'breaks');
  return (
    <>
      <h3>{t('reconciliation.breaksTitle')}</h3>
      <PagedTable page={breaks} columns={breakColumns()} noun="breaks" />
    </>
  );
}
