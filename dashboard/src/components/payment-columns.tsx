/** The columns of payments: the payments page's, and a QR code's payments on its page. */
import type { Payment } from '../api';
import { meaningOf } from '../codes';
import { formatTime, shortReference } from '../format';
import { linkTo } from '../router';
import type { Column } from './data-table';
import { Amount, Status } from './ui';

/** Who was on the other side: a business's name, or a person's (as its bank sent it, for a network credit). */
export function counterpartyName(payment: Payment): string {
  const owner = payment.counterparty.owner;
  const names = [owner.first_name, owner.second_name, owner.first_last_name, owner.second_last_name];
  return owner.business_name ?? owner.name ?? names.filter(Boolean).join(' ');
}

/** "Received" or "Sent". */
export const directionOf = (payment: Payment): string => {
  const meaning = meaningOf('direction', payment.direction) ?? payment.direction;
  return `${meaning.charAt(0).toUpperCase()}${meaning.slice(1)}`;
};

export const PAYMENT_COLUMNS: readonly Column<Payment>[] = [
  { header: 'Created', cell: (p) => <a href={linkTo('payments', p.id)}>{formatTime(p.created_at)}</a> },
  { header: 'Direction', cell: directionOf },
  { header: 'Status', cell: (p) => <Status value={p.status} /> },
  { header: 'Amount', numeric: true, cell: (p) => <Amount money={p.amount} /> },
  { header: 'Other side', cell: counterpartyName },
];

/** The payments page's columns: the above with the QR code's reference and the merchant's name. */
export const paymentListColumns = (merchantName: (customerId: string) => string): readonly Column<Payment>[] => [
  PAYMENT_COLUMNS[0]!,
  {
    header: 'Reference',
    cell: (p) =>
      p.qr_code_id && p.qr_code_reference ? (
        <a href={linkTo('qrcodes', p.qr_code_id)}>{shortReference(p.qr_code_reference)}</a>
      ) : (
        (p.description ?? '')
      ),
  },
  { header: 'Merchant', cell: (p) => merchantName(p.customer_id) },
  ...PAYMENT_COLUMNS.slice(1),
];
