/** A page of payments as a table: the payments page's, and a QR code's payments on its page. */
import type { Payment } from '../api';
import { formatTime } from '../format';
import { linkTo } from '../router';
import { Amount, Status } from './ui';

/** Who was on the other side: a business's name, or a person's. */
export function counterpartyName(payment: Payment): string {
  const owner = payment.counterparty.owner;
  const names = ['first_name', 'second_name', 'first_last_name', 'second_last_name'].map((name) => owner[name]);
  return owner['business_name'] ?? names.filter(Boolean).join(' ');
}

export function PaymentsTable({
  payments,
  caption,
}: {
  readonly payments: readonly Payment[];
  readonly caption: string;
}) {
  return (
    <table>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Direction</th>
          <th scope="col">Status</th>
          <th scope="col" class="number">
            Amount
          </th>
          <th scope="col">Other side</th>
        </tr>
      </thead>
      <tbody>
        {payments.map((payment) => (
          <tr key={payment.id}>
            <td>
              <a href={linkTo('payments', payment.id)}>{formatTime(payment.created_at)}</a>
            </td>
            <td>{payment.direction}</td>
            <td>
              <Status value={payment.status} />
            </td>
            <td class="number">
              <Amount money={payment.amount} />
            </td>
            <td>{counterpartyName(payment)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
