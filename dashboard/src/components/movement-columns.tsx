/** The columns of an account's ledger: when, what kind of movement, its signed amount, what caused it. */
import type { Movement } from '../api';
import { withMeaning } from '../codes';
import { formatSignedCop, formatTime } from '../format';
import { t } from '../i18n';
import { linkTo } from '../router';
import type { Column } from './data-table';

/** Ids are long: the first 8 characters tell a person's movements apart, the link carries the whole. */
const shortId = (id: string) => id.slice(0, 8);

function causeOf(movement: Movement) {
  if (movement.payment_id) {
    return (
      <a href={linkTo('payments', movement.payment_id)}>
        {t('movement.payment', { id: shortId(movement.payment_id) })}
      </a>
    );
  }
  // The dashboard has no refund page yet: the refund is named, not linked.
  if (movement.refund_id) return t('movement.refund', { id: shortId(movement.refund_id) });
  return movement.kind === 'OPENING_BALANCE' ? t('movement.link') : '';
}

export const movementColumns = (): readonly Column<Movement>[] => [
  { header: t('column.created'), cell: (m) => formatTime(m.created_at) },
  { header: t('column.movement'), cell: (m) => withMeaning('movementKind', m.kind) },
  {
    header: t('column.signedAmount'),
    numeric: true,
    // The sign is written out; the colour only repeats it.
    cell: (m) => (
      <span class={`amount ${m.amount.value.startsWith('-') ? 'debit' : 'credit'}`}>
        {formatSignedCop(m.amount.value)}
      </span>
    ),
  },
  { header: t('column.cause'), cell: causeOf },
];
