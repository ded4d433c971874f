/** One merchant: who it is, its accounts with their balances, its Bre-B keys. */
import type { Customer } from '../api';
import { accountColumns } from '../components/account-columns';
import { useDashboard, useMay } from '../components/context';
import { keyColumns } from '../components/key-columns';
import { PagedTable } from '../components/paged-table';
import { Details, Loaded, Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { useRecord } from '../components/use-record';
import { formatTime } from '../format';
import { LinkAccountForm } from '../forms/link-account';
import { RegisterKeyForm } from '../forms/register-key';
import { t } from '../i18n';

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
          [t('column.status'), <Status value={customer.status} />],
          [t('merchant.identification'), `${customer.identification_type} ${customer.identification_number}`],
          [t('merchant.email'), customer.email],
          [t('merchant.mobile'), customer.mobile_phone_number],
          [t('merchant.address'), `${address.line_1}, ${address.city}, ${address.state}`],
          [t('merchant.mcc'), customer.merchant_category_code],
          [t('column.linked'), formatTime(customer.created_at)],
        ]}
      />
      <h2>{t('merchants.accounts')}</h2>
      <PagedTable
        page={accounts}
        columns={accountColumns()}
        caption={t('merchant.accountsOf', { merchant: customer.business_name })}
        noun="accounts"
        empty={t('merchant.noAccounts')}
      />
      {may('linkAccount') && customer.status === 'ACTIVE' && (
        <LinkAccountForm customerId={customer.id} onLinked={accounts.reload} />
      )}
      <h2>{t('merchant.keys')}</h2>
      <PagedTable
        page={keys}
        columns={keyColumns(keys.reload, may('changeKey'))}
        caption={t('merchant.keysOf', { merchant: customer.business_name })}
        noun="keys"
        empty={accounts.items?.length ? t('merchant.noKeys') : t('merchant.keysNeedAccount')}
      />
      {may('registerKey') && customer.status === 'ACTIVE' && !!accounts.items?.length && (
        <RegisterKeyForm accounts={accounts.items} onRegistered={keys.reload} />
      )}
    </>
  );
}
