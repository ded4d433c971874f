/** The columns of accounts with their balances: every account of the tenant, or one merchant's. */
import type { Account } from '../api';
import { linkTo } from '../router';
import type { Column } from './data-table';
import { Amount, Status } from './ui';
import { t } from '../i18n';

export const accountColumns = (): readonly Column<Account>[] => [
  {
    header: t('column.account'),
    // The account's page: its movements and statements.
    cell: (a) => <a href={linkTo('accounts', a.id)}>{`${a.account_type} ${a.account_number}`}</a>,
  },
  { header: t('column.merchant'), cell: (a) => <a href={linkTo('merchants', a.customer_id)}>{a.account_name}</a> },
  { header: t('column.status'), cell: (a) => <Status value={a.account_status} /> },
  { header: t('column.available'), numeric: true, cell: (a) => <Amount money={a.available_balance} /> },
  { header: t('column.pending'), numeric: true, cell: (a) => <Amount money={a.pending_balance} /> },
];
