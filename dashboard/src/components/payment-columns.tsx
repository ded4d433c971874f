/** The columns of payments: the payments page's, and a QR code's payments on its page. */
import type { Payment } from '../api';
import { formatTime } from '../format';
import { linkTo } from '../router';
import type { Column } from './data-table';
import { Amount, Status } from './ui';

/** Who was on the other side: a business's name, or a person's. */
export function counterpartyName(payment: Payment): string {
  const owner = payment.counterparty.owner;
  const names = [owner.first_name, owner.second_name, owner.first_last_name, owner.second_last_name];
  return owner.business_name ?? names.filter(Boolean).join(' ');
}

export const PAYMENT_COLUMNS: readonly Column<Payment>[] = [
  { header: 'Created', cell: (p) => <a href={linkTo('payments', p.id)}>{formatTime(p.created_at)}</a> },
  { header: 'Direction', cell: (p) => p.direction },
  { header: 'Status', cell: (p) => <Status value={p.status} /> },
  { header: 'Amount', numeric: true, cell: (p) => <Amount money={p.amount} /> },
  { header: 'Other side', cell: counterpartyName },
];
