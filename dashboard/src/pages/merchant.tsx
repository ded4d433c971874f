/** One merchant: who it is, its accounts with their balances, its Bre-B keys. */
import type { Customer } from '../api';
import { ACCOUNT_COLUMNS } from '../components/account-columns';
import { useDashboard, useMay } from '../components/context';
import { keyColumns } from '../components/key-columns';
import { PagedTable } from '../components/paged-table';
import { Details, Loaded, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';
import { LinkAccountForm } from '../forms/link-account';
import { RegisterKeyForm } from '../forms/register-key';

export function MerchantPage({ id }: { readonly id: string }) {
  const { api } = useDashboard();
  const customer = useRecord(() => api.getCustomer(id), id);
  return <Loaded state={customer}>{(record) => <MerchantDetails customer={record} />}</Loaded>;
}

function MerchantDetails({ customer }: { readonly customer: Customer }) {
  const { api } = useDashboard();
  const may = useMay();
  const accounts = usePage(api.listAccounts, 'accounts', { customer_id: customer.id });
  const keys = usePage(api.listKeys, 'keys', { customer_id: customer.id });
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
          ['Address', `${address.line_1}, ${address.city}, ${address.state}`],
          ['Category (MCC)', customer.merchant_category_code],
          ['Linked', formatTime(customer.created_at)],
        ]}
      />
      <h2>Accounts and balances</h2>
      <PagedTable
        page={accounts}
        columns={ACCOUNT_COLUMNS}
        caption={`Accounts of ${customer.business_name}`}
        noun="accounts"
        empty="No accounts linked yet."
      />
      {may('linkAccount') && customer.status === 'ACTIVE' && (
        <LinkAccountForm customerId={customer.id} onLinked={accounts.reload} />
      )}
      <h2>Bre-B keys</h2>
      <PagedTable
        page={keys}
        columns={keyColumns(keys.reload, may('changeKey'))}
        caption={`Keys of ${customer.business_name}`}
        noun="keys"
        empty={accounts.items?.length ? 'No keys registered yet.' : 'No keys yet: a key needs an account first.'}
      />
      {may('registerKey') && customer.status === 'ACTIVE' && !!accounts.items?.length && (
        <RegisterKeyForm accounts={accounts.items} onRegistered={keys.reload} />
      )}
    </>
  );
}
