/**
 * The totals of the payments a filter selects, all of its pages: what was received and sent, and
 * what of it settled, in exact cents (money.ts). Read a hundred at a time on the walk's snapshot,
 * up to MAX_PAGES: beyond, the line says it counted only those.
 */
import { useEffect, useState } from 'preact/hooks';
import type { ListQuery, Payment } from '../api';
import { formatCop } from '../format';
import { amountOfCents, centsOf } from '../money';
import { useDashboard } from './context';
import { t } from '../i18n';

const MAX_PAGES = 20;
const PAGE = 100;

interface Totals {
  readonly count: number;
  readonly of: number;
  readonly received: bigint;
  readonly receivedSettled: bigint;
  readonly sent: bigint;
  readonly rejected: number;
}

function add(totals: Totals, payment: Payment): Totals {
  if (payment.status === 'REJECTED') return { ...totals, count: totals.count + 1, rejected: totals.rejected + 1 };
  const cents = centsOf(payment.amount.value);
  const settled = payment.status === 'SETTLED' ? cents : 0n;
  return payment.direction === 'INBOUND'
    ? {
        ...totals,
        count: totals.count + 1,
        received: totals.received + cents,
        receivedSettled: totals.receivedSettled + settled,
      }
    : { ...totals, count: totals.count + 1, sent: totals.sent + cents };
}

export function PaymentTotals({ query }: { readonly query: Readonly<Record<string, string>> }) {
  const { api } = useDashboard();
  const [totals, setTotals] = useState<Totals>();
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    setTotals(undefined);
    (async () => {
      let sum: Totals = { count: 0, of: 0, received: 0n, receivedSettled: 0n, sent: 0n, rejected: 0 };
      let snapshot: string | undefined;
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await api.listPayments({
          ...(query as ListQuery<'listPayments'>),
          page_number: page,
          page_size: PAGE,
          order_direction: 'desc',
          ...(snapshot ? { first_request_timestamp: snapshot } : {}),
        });
        snapshot = answer.pagination_info.first_request_timestamp;
        sum = { ...answer.payments.reduce(add, sum), of: answer.pagination_info.total_elements };
        if (page >= answer.pagination_info.total_pages) break;
      }
      if (live) setTotals(sum);
    })().catch(() => live && setTotals(undefined));
    return () => {
      live = false;
    };
  }, [api, key]);
  if (!totals) return null;
  const money = (cents: bigint) => formatCop(amountOfCents(cents));
  return (
    <dl class="totals" aria-label={t('payments.totals')}>
      <div>
        <dt>{t('payments.count')}</dt>
        <dd>
          {totals.count < totals.of ? t('payments.newestOf', { count: totals.count, of: totals.of }) : totals.count}
          {totals.rejected > 0 && t('payments.rejected', { count: totals.rejected })}
        </dd>
      </div>
      <div>
        <dt>{t('payments.received')}</dt>
        <dd class="number">{money(totals.received)}</dd>
      </div>
      <div>
        <dt>{t('payments.settled')}</dt>
        <dd class="number">{money(totals.receivedSettled)}</dd>
      </div>
      <div>
        <dt>{t('payments.sent')}</dt>
        <dd class="number">{money(totals.sent)}</dd>
      </div>
    </dl>
  );
}
