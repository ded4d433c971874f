/**
 * A received payment's refunds (docs/refunds.md): the list of them, and for people who may refund
 * (the payments write scope) a Refund button with the amount to give back, the whole remainder by
 * default, which asks to confirm that amount before it refunds. The API decides either way: a viewer
 * is refused there too.
 */
import { useRef, useState } from 'preact/hooks';
import type { Payment, Refund } from '../api';
import { centsOf, parseCop } from '../money';
import { formatCop, formatTime } from '../format';
import { t } from '../i18n';
import { newIdempotencyKey, useDashboard, useMay } from './context';
import type { Column } from './data-table';
import { MoneyField } from './money-field';
import { PagedTable } from './paged-table';
import { ProblemMessage } from './problem';
import { Amount, Status } from './ui';
import { useAction, type ActionState } from './use-action';
import { usePage } from './use-page';

/** Read in the language of the moment: a function, called as the table draws. */
const refundColumns = (): readonly Column<Refund>[] => [
  { header: t('column.created'), cell: (r) => formatTime(r.created_at) },
  { header: t('column.status'), cell: (r) => <Status value={r.status} review={r.review !== undefined} /> },
  { header: t('column.amount'), numeric: true, cell: (r) => <Amount money={r.amount} /> },
  { header: t('column.reason'), cell: (r) => r.reason ?? '' },
];

/** What is left to refund of the payment, as the API writes amounts ("119000.00"). */
function remainderOf(payment: Payment): string {
  const left = centsOf(payment.amount.value) - centsOf(payment.refunded_amount?.value ?? '0.00');
  const cents = left.toString().padStart(3, '0');
  return `${cents.slice(0, -2)}.${cents.slice(-2)}`;
}

export /** A refund asked for: its amount, and the Idempotency-Key of every press of its confirmation. */
interface Intent {
  readonly value: string;
  readonly idempotencyKey: string;
}

export function PaymentRefunds({
  payment,
  onRefunded,
}: {
  readonly payment: Payment;
  readonly onRefunded: () => void;
}) {
  const { api } = useDashboard();
  const may = useMay();
  const refunds = usePage(
    api.listRefunds,
    'refunds',
    { payment_id: payment.id },
    { changing: (items) => items.some((r) => r.status === 'PENDING') },
  );
  // Kept here, not in the form: the form starts again with each new remainder, its outcome stays said.
  const action = useAction();
  const remainder = remainderOf(payment);
  const refundable = payment.status === 'SETTLED' && centsOf(remainder) > 0n;
  return (
    <section aria-labelledby="payment-refunds">
      <h2 id="payment-refunds">{t('refunds.title')}</h2>
      {may('refund') && refundable && (
        <RefundForm
          // A new remainder is a new form: its amount starts at what is left.
          key={remainder}
          payment={payment}
          remainder={remainder}
          action={action}
          onRefunded={() => {
            refunds.reload();
            onRefunded();
          }}
        />
      )}
      {may('refund') && (
        <>
          <p role="status" class="status-line">
            {action.done}
          </p>
          {action.error !== undefined && <ProblemMessage error={action.error} />}
        </>
      )}
      <PagedTable page={refunds} columns={refundColumns()} caption={t('refunds.caption')} noun="refunds" />
    </section>
  );
}

/**
 * A refund is asked for, then confirmed: the first press names the amount, only the second, on a
 * button of its own below the form that says the amount, sends it. Each amount asked in a form is one
 * intent with one Idempotency-Key, kept through Cancel: pressing its confirmation again (a double
 * tap, a retry after a failure whose answer was lost) is the same refund, never a second one. A refund
 * made starts a new form (PaymentRefunds' key), whose first press only asks again.
 */
function RefundForm(props: {
  readonly payment: Payment;
  readonly remainder: string;
  readonly action: ActionState;
  readonly onRefunded: () => void;
}) {
  const { api } = useDashboard();
  const { action } = props;
  const [amount, setAmount] = useState(props.remainder);
  const [intent, setIntent] = useState<Intent>();
  const keys = useRef(new Map<string, string>());
  // Set as the request leaves, before the page draws the button disabled: a second press in between
  // sends nothing.
  const sending = useRef(false);
  const parsed = parseCop(amount);
  const ask = (event: Event) => {
    event.preventDefault();
    if (!parsed.ok) return document.getElementById('refund-amount')?.focus();
    const { value } = parsed;
    if (!keys.current.has(value)) keys.current.set(value, newIdempotencyKey());
    setIntent({ value, idempotencyKey: keys.current.get(value)! });
  };
  const confirm = () => {
    if (!intent || sending.current) return;
    sending.current = true;
    action.run(
      () =>
        api
          .refundPayment(props.payment.id, intent.value, intent.idempotencyKey)
          .finally(() => (sending.current = false)),
      t('refunds.made'),
      props.onRefunded,
    );
  };
  const money = intent && formatCop(intent.value);
  // The question comes below the form, whose button waits disabled meanwhile: a second tap where
  // Refund was meets a disabled button, not the confirmation.
  return (
    <>
      <form class="action" onSubmit={ask} aria-label={t('refunds.form')} noValidate>
        <MoneyField
          id="refund-amount"
          label={t('refunds.amount')}
          value={amount}
          onText={(text) => {
            // Another amount is another intent: the question asked of the last one goes.
            setAmount(text);
            setIntent(undefined);
          }}
        />
        <button type="submit" disabled={action.busy || intent !== undefined}>
          {t('refunds.refund')}
        </button>
      </form>
      {money && (
        <p class="action">
          {t('refunds.ask', { amount: money })}{' '}
          <button type="button" class="danger" disabled={action.busy} onClick={confirm}>
            {t('refunds.yes', { amount: money })}
          </button>{' '}
          <button type="button" disabled={action.busy} onClick={() => setIntent(undefined)}>
            {t('refunds.no')}
          </button>
        </p>
      )}
    </>
  );
}
