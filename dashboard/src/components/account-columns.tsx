/** The columns of accounts with their balances: every account of the tenant, or one merchant's. */
import type { Account } from '../api';
import { linkTo } from '../router';
import type { Column } from './data-table';
import { Amount, Status } from './ui';

export const ACCOUNT_COLUMNS: readonly Column<Account>[] = [
  { header: 'Account', cell: (a) => `${a.account_type} ${a.account_number}` },
  { header: 'Merchant', cell: (a) => <a href={linkTo('merchants', a.customer_id)}>{a.account_name}</a> },
  { header: 'Status', cell: (a) => <Status value={a.account_status} /> },
  { header: 'Available', numeric: true, cell: (a) => <Amount money={a.available_balance} /> },
  { header: 'Pending', numeric: true, cell: (a) => <Amount money={a.pending_balance} /> },
];
