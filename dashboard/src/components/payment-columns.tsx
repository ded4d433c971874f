/** The columns of payments: the payments page's, and a QR code's payments on its page. */
import type { Payment } from '../api';
import { meaningOf } from '../codes';
import { formatTime, shortReference } from '../format';
import { linkTo } from '../router';
import type { Column } from './data-table';
import { Amount, Status } from './ui';
import { capitalized, t } from '../i18n';

/** Who was on the other side: a business's name, or a person's (as its bank sent it, for a network credit). */
export function counterpartyName(payment: Payment): string {
  const owner = payment.counterparty.owner;
  const names = [owner.first_name, owner.second_name, owner.first_last_name, owner.second_last_name];
  return owner.business_name ?? owner.name ?? names.filter(Boolean).join(' ');
}

/** "Received" or "Sent". */
export const directionOf = (payment: Payment): string =>
  capitalized(meaningOf('direction', payment.direction) ?? payment.direction);

export const paymentColumns = (): readonly Column<Payment>[] => [
  { header: t('column.created'), cell: (p) => <a href={linkTo('payments', p.id)}>{formatTime(p.created_at)}</a> },
  { header: t('column.direction'), cell: directionOf },
  { header: t('column.status'), cell: (p) => <Status value={p.status} review={p.review !== undefined} /> },
  { header: t('column.amount'), numeric: true, cell: (p) => <Amount money={p.amount} /> },
  { header: t('column.otherSide'), cell: counterpartyName },
];

/** The payments page's columns: the above with the QR code's reference and the merchant's name. */
export const paymentListColumns = (merchantName: (customerId: string) => string): readonly Column<Payment>[] => {
  const [created, ...rest] = paymentColumns();
  return [
    created!,
    {
      header: t('column.reference'),
      cell: (p) =>
        p.qr_code_id && p.qr_code_reference ? (
          <a href={linkTo('qrcodes', p.qr_code_id)}>{shortReference(p.qr_code_reference)}</a>
        ) : (
          (p.description ?? '')
        ),
    },
    { header: t('column.merchant'), cell: (p) => merchantName(p.customer_id) },
    ...rest,
  ];
};
