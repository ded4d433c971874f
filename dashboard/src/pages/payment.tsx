/**
 * One payment: what moved, between whom, and what happened to it. The API keeps a payment's events
 * for the webhooks that subscribed to them: their deliveries are on each webhook's page.
 */
import { useState } from 'preact/hooks';
import { useDashboard, useMay } from '../components/context';
import { counterpartyName, directionOf } from '../components/payment-columns';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { meaningOf, withMeaning } from '../codes';
import { PaymentRefunds } from '../components/refunds';
import { useRecord } from '../components/use-record';
import { formatTime, maskedNumber, shortReference } from '../format';
import { linkTo } from '../router';
import type { Payment } from '../api';
import { capitalized, t } from '../i18n';

/** What happened to the payment, in order, from its fields. */
function history(payment: Payment): [string | undefined, string][] {
  const steps: [string | undefined, string][] = [
    [payment.created_at, t('payment.created', { direction: directionOf(payment) })],
  ];
  if (payment.settled_at) steps.push([payment.settled_at, t('payment.settledStep')]);
  if (payment.status === 'REJECTED') {
    const reason = payment.rejection_reason;
    steps.push([
      payment.updated_at,
      t('payment.rejectedStep', { reason: reason ? withMeaning('rejection', reason) : t('payment.noReason') }),
    ]);
  }
  if (payment.review) steps.push([payment.review.since, t('payment.reviewStep')]);
  if (payment.status === 'PENDING') steps.push([undefined, t('payment.waitingNetwork')]);
  if (payment.status === 'PROCESSING') {
    steps.push([undefined, t('payment.waitingApproval')]);
  }
  return steps;
}

/** How the client's approval callback decided an inbound payment, and why it could not when it did not. */
function approvalOf(payment: Payment): string {
  if (!payment.approval) return '';
  const meaning = meaningOf('approval', payment.approval) ?? payment.approval;
  const said = capitalized(meaning);
  return payment.approval_error ? `${said}: ${payment.approval_error}` : said;
}

/** A payment that can still change: the page reads it again while it waits. */
const waiting = (payment: Payment): boolean => payment.status === 'PENDING' || payment.status === 'PROCESSING';

export function PaymentPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const payment = useRecord(() => api.getPayment(id), id, waiting);
  return <Loaded state={payment}>{(record) => <PaymentDetails payment={record} reload={payment.reload} />}</Loaded>;
}

function PaymentDetails({ payment, reload }: { readonly payment: Payment; readonly reload: () => void }) {
  const { counterparty } = payment;
  const may = useMay();
  // The other side's document and account numbers show their last four until the person asks.
  const [revealed, setRevealed] = useState(false);
  const shown = (value: string) => (revealed ? value : maskedNumber(value));
  const { owner } = counterparty;
  return (
    <>
      <h1>
        {t('payment.title')} <Amount money={payment.amount} />
      </h1>
      <Details
        rows={[
          [t('column.status'), <Status value={payment.status} review={payment.review !== undefined} />],
          [t('column.direction'), directionOf(payment)],
          [t('column.amount'), <Amount money={payment.amount} />],
          [t('payment.tip'), payment.tip && <Amount money={payment.tip} />],
          [t('payment.description'), payment.description],
          [t('payment.approval'), approvalOf(payment)],
          [t('column.otherSide'), counterpartyName(payment)],
          [
            t('payment.theirBank'),
            `${counterparty.participant.name} (NIT ${counterparty.participant.identification_number})`,
          ],
          [
            t('payment.theirDocument'),
            owner.identification_number &&
              `${owner.identification_type ?? ''} ${shown(owner.identification_number)}`.trim(),
          ],
          // A payer credited through the network has no account known to us.
          [
            t('payment.theirAccount'),
            counterparty.account &&
              `${counterparty.account.account_type} ${shown(counterparty.account.account_number)}`,
          ],
          [t('payment.key'), counterparty.key && `${counterparty.key.key_type} ${counterparty.key.key_value}`],
          [
            t('payment.qrCode'),
            payment.qr_code_id && payment.qr_code_reference ? (
              <a href={linkTo('qrcodes', payment.qr_code_id)}>{shortReference(payment.qr_code_reference)}</a>
            ) : undefined,
          ],
          [t('payment.settled'), formatTime(payment.settled_at)],
          [t('payment.refunded'), payment.refunded_amount && <Amount money={payment.refunded_amount} />],
          [t('payment.id'), <code>{payment.id}</code>],
        ]}
      />
      {may('revealNumbers') && (owner.identification_number || counterparty.account) && (
        <p>
          <button type="button" onClick={() => setRevealed(!revealed)}>
            {revealed ? t('payment.hideNumbers') : t('payment.showNumbers')}
          </button>
        </p>
      )}
      <section aria-labelledby="payment-history">
        <h2 id="payment-history">{t('payment.history')}</h2>
        <ol class="history">
          {history(payment).map(([at, what]) => (
            <li key={what}>
              {at && <time dateTime={at}>{formatTime(at)}</time>} {what}
            </li>
          ))}
        </ol>
        <p class="hint">
          {t('payment.events')} <a href={linkTo('webhooks')}>{t('section.webhooks')}</a>.
        </p>
      </section>
      {payment.direction === 'INBOUND' && <PaymentRefunds payment={payment} onRefunded={reload} />}
    </>
  );
}
