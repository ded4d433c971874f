/** The tenant's merchants, and every account with its balances. */
import { useState } from 'preact/hooks';
import { AccountsTable } from '../components/accounts-table';
import { useDashboard } from '../components/context';
import { useMerchants } from '../components/merchants';
import { Pager } from '../components/pager';
import { FilterSelect, ListBody, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime } from '../format';
import { linkTo } from '../router';

export function MerchantsPage() {
  const { api } = useDashboard();
  const [status, setStatus] = useState('');
  const merchants = usePage(api.listCustomers, 'customers', { customer_status: status });
  const { choices } = useMerchants();
  const [merchant, setMerchant] = useState('');
  const accounts = usePage(api.listAccounts, 'accounts', { customer_id: merchant });
  return (
    <>
      <h1>Merchants</h1>
      <form class="filters" role="search" aria-label="Filter merchants" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="merchant-status"
          label="Status"
          value={status}
          choices={['ACTIVE', 'INACTIVE']}
          onChange={setStatus}
        />
      </form>
      <ListBody page={merchants} empty="No merchants linked yet.">
        {(customers) => (
          <table>
            <caption class="visually-hidden">Merchants, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Business</th>
                <th scope="col">NIT</th>
                <th scope="col">Status</th>
                <th scope="col">Linked</th>
              </tr>
            </thead>
            <tbody>
              {customers.map((customer) => (
                <tr key={customer.id}>
                  <td>
                    <a href={linkTo('merchants', customer.id)}>{customer.business_name}</a>
                  </td>
                  <td>{customer.identification_number}</td>
                  <td>
                    <Status value={customer.status} />
                  </td>
                  <td>{formatTime(customer.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </ListBody>
      <Pager page={merchants} noun="merchants" />

      <h2>Accounts and balances</h2>
      <form class="filters" role="search" aria-label="Filter accounts" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="account-merchant"
          label="Merchant"
          value={merchant}
          choices={choices}
          onChange={setMerchant}
        />
      </form>
      <ListBody page={accounts} empty="No accounts match.">
        {(items) => <AccountsTable accounts={items} caption="Accounts and their balances" />}
      </ListBody>
      <Pager page={accounts} noun="accounts" />
    </>
  );
}
