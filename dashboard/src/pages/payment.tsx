/**
 * One payment: what moved, between whom, and what happened to it. The API keeps a payment's events
 * for the webhooks that subscribed to them: their deliveries are on each webhook's page.
 */
import { useDashboard } from '../components/context';
import { counterpartyName, directionOf } from '../components/payment-columns';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { meaningOf, withMeaning } from '../codes';
import { PaymentRefunds } from '../components/refunds';
import { useRecord } from '../components/use-record';
import { formatTime, shortReference } from '../format';
import { linkTo } from '../router';
import type { Payment } from '../api';

/** What happened to the payment, in order, from its fields. */
function history(payment: Payment): [string | undefined, string][] {
  const steps: [string | undefined, string][] = [[payment.created_at, `${directionOf(payment)}: payment created`]];
  if (payment.settled_at) steps.push([payment.settled_at, 'Settled']);
  if (payment.status === 'REJECTED') {
    const reason = payment.rejection_reason;
    steps.push([payment.updated_at, `Rejected: ${reason ? withMeaning('rejection', reason) : 'no reason given'}`]);
  }
  if (payment.status === 'PENDING') steps.push([undefined, 'Waiting for the network to settle it (this page updates)']);
  if (payment.status === 'PROCESSING') {
    steps.push([undefined, "Waiting for the approval callback's decision (this page updates)"]);
  }
  return steps;
}

/** How the client's approval callback decided an inbound payment, and why it could not when it did not. */
function approvalOf(payment: Payment): string {
  if (!payment.approval) return '';
  const meaning = meaningOf('approval', payment.approval) ?? payment.approval;
  const said = `${meaning.charAt(0).toUpperCase()}${meaning.slice(1)}`;
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
  return (
    <>
      <h1>
        Payment of <Amount money={payment.amount} />
      </h1>
      <Details
        rows={[
          ['Status', <Status value={payment.status} />],
          ['Direction', directionOf(payment)],
          ['Amount', <Amount money={payment.amount} />],
          ['Of which tip', payment.tip && <Amount money={payment.tip} />],
          ['Description', payment.description],
          ['Approval', approvalOf(payment)],
          ['Other side', counterpartyName(payment)],
          ['Their bank', `${counterparty.participant.name} (NIT ${counterparty.participant.identification_number})`],
          ['Their account', `${counterparty.account.account_type} ${counterparty.account.account_number}`],
          ['Bre-B key', counterparty.key && `${counterparty.key.key_type} ${counterparty.key.key_value}`],
          [
            'QR code',
            payment.qr_code_id && payment.qr_code_reference ? (
              <a href={linkTo('qrcodes', payment.qr_code_id)}>{shortReference(payment.qr_code_reference)}</a>
            ) : undefined,
          ],
          ['Settled', formatTime(payment.settled_at)],
          ['Refunded', payment.refunded_amount && <Amount money={payment.refunded_amount} />],
          ['Payment id', <code>{payment.id}</code>],
        ]}
      />
      <section aria-labelledby="payment-history">
        <h2 id="payment-history">History</h2>
        <ol class="history">
          {history(payment).map(([at, what]) => (
            <li key={what}>
              {at && <time dateTime={at}>{formatTime(at)}</time>} {what}
            </li>
          ))}
        </ol>
        <p class="hint">
          Its events (payment.inbound.received, payment.outbound.confirmed…) go to the webhooks subscribed to them: see
          their deliveries on <a href={linkTo('webhooks')}>Webhooks</a>.
        </p>
      </section>
      {payment.direction === 'INBOUND' && <PaymentRefunds payment={payment} onRefunded={reload} />}
    </>
  );
}
