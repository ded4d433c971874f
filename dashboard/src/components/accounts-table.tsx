/** Accounts with their balances: every account of the tenant, or one merchant's. */
import type { Account } from '../api';
import { linkTo } from '../router';
import { Amount, Status } from './ui';

export function AccountsTable({
  accounts,
  caption,
}: {
  readonly accounts: readonly Account[];
  readonly caption: string;
}) {
  return (
    <table>
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Account</th>
          <th scope="col">Merchant</th>
          <th scope="col">Status</th>
          <th scope="col" class="number">
            Available
          </th>
          <th scope="col" class="number">
            Pending
          </th>
        </tr>
      </thead>
      <tbody>
        {accounts.map((account) => (
          <tr key={account.id}>
            <td>
              {account.account_type} {account.account_number}
            </td>
            <td>
              <a href={linkTo('merchants', account.customer_id)}>{account.account_name}</a>
            </td>
            <td>
              <Status value={account.account_status} />
            </td>
            <td class="number">
              <Amount money={account.available_balance} />
            </td>
            <td class="number">
              <Amount money={account.pending_balance} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
