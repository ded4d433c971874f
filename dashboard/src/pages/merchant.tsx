/** One merchant: who it is, its accounts with their balances, its Bre-B keys. */
import { AccountsTable } from '../components/accounts-table';
import { useDashboard } from '../components/context';
import { KeysTable } from '../components/keys-table';
import { Pager } from '../components/pager';
import { ProblemMessage } from '../components/problem';
import { Details, ListBody, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';

export function MerchantPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const { record: customer, error } = useRecord(() => api.getCustomer(id), id);
  const accounts = usePage(api.listAccounts, 'accounts', { customer_id: id });
  const keys = usePage(api.listKeys, 'keys', { customer_id: id });
  if (error) return <ProblemMessage error={error} />;
  if (!customer) return <p role="status">Loading…</p>;
  const address = customer.address;
  return (
    <>
      <h1>{customer.business_name}</h1>
      <Details
        rows={[
          ['Status', <Status value={customer.status} />],
          ['Identification', `${customer.identification_type} ${customer.identification_number}`],
          ['E-mail', customer.email],
          ['Mobile', customer.mobile_phone_number],
          ['Address', address ? [address['line_1'], address['city'], address['state']].filter(Boolean).join(', ') : ''],
          ['Category (MCC)', customer.merchant_category_code ?? ''],
          ['Linked', formatTime(customer.created_at)],
        ]}
      />
      <h2>Accounts and balances</h2>
      <ListBody page={accounts} empty="No accounts linked.">
        {(items) => <AccountsTable accounts={items} caption={`Accounts of ${customer.business_name}`} />}
      </ListBody>
      <Pager page={accounts} noun="accounts" />
      <h2>Bre-B keys</h2>
      <ListBody page={keys} empty="No keys registered.">
        {(items) => <KeysTable keys={items} caption={`Keys of ${customer.business_name}`} onChanged={keys.reload} />}
      </ListBody>
      <Pager page={keys} noun="keys" />
    </>
  );
}
