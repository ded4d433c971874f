/**
 * One payment: what moved, between whom, and what happened to it. The API keeps a payment's events
 * for the webhooks that subscribed to them: their deliveries are on each webhook's page.
 */
import { useDashboard } from '../components/context';
import { counterpartyName } from '../components/payment-columns';
import { Amount, Details, Loaded, Status } from '../components/ui';
import { useRecord } from '../components/use-record';
import { formatTime, shortReference } from '../format';
import { linkTo } from '../router';
import type { ComponentChildren } from 'preact';
import type { Payment } from '../api';

/** What happened to the payment, in order, from its fields. */
function history(payment: Payment): [string | undefined, string][] {
  const steps: [string | undefined, string][] = [[payment.created_at, `${payment.direction} payment created`]];
  if (payment.settled_at) steps.push([payment.settled_at, 'Settled']);
  if (payment.status === 'REJECTED') {
    steps.push([payment.updated_at, `Rejected: ${payment.rejection_reason ?? 'no reason given'}`]);
  }
  if (payment.status === 'PENDING') steps.push([undefined, 'Waiting for the network to settle it']);
  if (payment.status === 'PROCESSING') steps.push([undefined, "Waiting for the approval callback's decision"]);
  return steps;
}

/** How the client's approval callback decided an inbound payment, and why it could not when it did not. */
function approvalOf(payment: Payment): string {
  return payment.approval_error ? `${payment.approval} (${payment.approval_error})` : (payment.approval ?? '');
}

export function PaymentPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const payment = useRecord(() => api.getPayment(id), id);
  return <Loaded state={payment}>{(record) => <PaymentDetails payment={record} />}</Loaded>;
}

function PaymentDetails({ payment }: { readonly payment: Payment }) {
  const { counterparty } = payment;
  return (
    <>
      <h1>
        Payment of <Amount money={payment.amount} />
      </h1>
      <Details
        rows={[
          ['Status', <Status value={payment.status} />],
          ['Direction', payment.direction],
          ['Amount', <Amount money={payment.amount} />],
          ...(payment.tip ? [['Of which tip', <Amount money={payment.tip} />] as [string, ComponentChildren]] : []),
          ['Description', payment.description ?? ''],
          ...(payment.approval ? [['Approval', approvalOf(payment)] as [string, ComponentChildren]] : []),
          ['Other side', counterpartyName(payment)],
          ['Their bank', `${counterparty.participant.name} (NIT ${counterparty.participant.identification_number})`],
          ['Their account', `${counterparty.account.account_type} ${counterparty.account.account_number}`],
          ['Bre-B key', counterparty.key ? `${counterparty.key.key_type} ${counterparty.key.key_value}` : ''],
          [
            'QR code',
            payment.qr_code_id && payment.qr_code_reference ? (
              <a href={linkTo('qrcodes', payment.qr_code_id)}>{shortReference(payment.qr_code_reference)}</a>
            ) : (
              ''
            ),
          ],
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
    </>
  );
}
