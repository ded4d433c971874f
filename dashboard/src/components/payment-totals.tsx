/**
 * The totals of the payments a filter selects: what was received and sent, and what of it settled,
 * in exact cents (money.ts). One call: the API's daily totals (GET /v1/payment-totals) of the day
 * filtered on, or of the last 30 days when no day is, kept to the filter's merchant, direction and
 * status. A search (by reference, words or amount), which the daily totals do not know, is summed
 * from its list instead (what a search finds: a page or two), up to MAX_PAGES: beyond, the line says
 * it counted only those.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api, ListQuery, Payment, PaymentTotals as DailyTotals } from '../api';
import { dayOf, lastDays } from '../days';
import { formatCop } from '../format';
import { amountOfCents, centsOf } from '../money';
import { useDashboard } from './context';
import { t } from '../i18n';

const MAX_PAGES = 3;
const PAGE = 100;
/** The period of the totals when the filter names no day. */
const DAYS = 30;

interface Totals {
  readonly count: number;
  /** How many the filter selects, when more than were counted. */
  readonly of?: number;
  readonly received: bigint;
  readonly receivedSettled: bigint;
  readonly sent: bigint;
  readonly rejected: number;
  /** True: the last 30 days', the filter naming no day. */
  readonly lastDays?: boolean;
}

const NONE: Totals = { count: 0, received: 0n, receivedSettled: 0n, sent: 0n, rejected: 0 };

/** Adds `count` payments of `cents` in a direction and status. */
function add(totals: Totals, direction: string, status: string, count: number, cents: bigint): Totals {
  if (count === 0) return totals;
  if (status === 'REJECTED') return { ...totals, count: totals.count + count, rejected: totals.rejected + count };
  return direction === 'INBOUND'
    ? {
        ...totals,
        count: totals.count + count,
        received: totals.received + cents,
        receivedSettled: totals.receivedSettled + (status === 'SETTLED' ? cents : 0n),
      }
    : { ...totals, count: totals.count + count, sent: totals.sent + cents };
}

/** The daily totals' figures the filter's direction and status select. */
function fromDailyTotals(answer: DailyTotals, query: Readonly<Record<string, string>>): Totals {
  const figures = [
    ...Object.entries(answer.totals.received).map(([status, figure]) => ({ direction: 'INBOUND', status, figure })),
    ...Object.entries(answer.totals.sent).map(([status, figure]) => ({ direction: 'OUTBOUND', status, figure })),
  ];
  return figures
    .map(({ direction, status, figure }) => ({ direction, status: status.toUpperCase(), figure }))
    .filter(({ direction }) => !query['direction'] || query['direction'] === direction)
    .filter(({ status }) => !query['status'] || query['status'] === status)
    .reduce(
      (sum, { direction, status, figure }) => add(sum, direction, status, figure.count, centsOf(figure.amount.value)),
      NONE,
    );
}

/** A search by reference's payments, read a hundred at a time on the walk's snapshot. */
async function fromList(api: Api, query: Readonly<Record<string, string>>): Promise<Totals> {
  let sum = NONE;
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
    const counted = answer.payments.reduce(
      (totals: Totals, payment: Payment) =>
        add(totals, payment.direction, payment.status, 1, centsOf(payment.amount.value)),
      sum,
    );
    sum = { ...counted, of: answer.pagination_info.total_elements };
    if (page >= answer.pagination_info.total_pages) break;
  }
  return sum;
}

function totalsOf(api: Api, query: Readonly<Record<string, string>>): Promise<Totals> {
  if (query['qr_code_reference'] || query['search'] || query['amount']) return fromList(api, query);
  const from = query['created_from'];
  const days = from ? [dayOf(from)] : lastDays(DAYS);
  return api
    .getPaymentTotals({
      from: days[0]!,
      to: days.at(-1)!,
      ...(query['customer_id'] ? { customer_id: query['customer_id'] } : {}),
    })
    .then((answer) => ({ ...fromDailyTotals(answer, query), lastDays: !from }));
}

export function PaymentTotals({ query }: { readonly query: Readonly<Record<string, string>> }) {
  const { api } = useDashboard();
  const [totals, setTotals] = useState<Totals>();
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    setTotals(undefined);
    totalsOf(api, query).then(
      (sum) => live && setTotals(sum),
      () => live && setTotals(undefined),
    );
    return () => {
      live = false;
    };
  }, [api, key]);
  if (!totals) return null;
  const money = (cents: bigint) => formatCop(amountOfCents(cents));
  return (
    <>
      {totals.lastDays && <p class="hint">{t('payments.lastDays', { count: DAYS })}</p>}
      <dl class="totals" aria-label={t('payments.totals')}>
        <div>
          <dt>{t('payments.count')}</dt>
          <dd>
            {totals.of !== undefined && totals.count < totals.of
              ? t('payments.newestOf', { count: totals.count, of: totals.of })
              : totals.count}
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
    </>
  );
}
