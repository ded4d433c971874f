/** The tenant's merchants, and every account with its balances; linking a merchant. */
import { accountColumns } from '../components/account-columns';
import { useDashboard, useMay } from '../components/context';
import { Filters, useFilters } from '../components/filters';
import { forgetMerchants, useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime } from '../format';
import { LinkMerchantForm } from '../forms/link-merchant';
import { linkTo } from '../router';
import { t } from '../i18n';

export function MerchantsPage() {
  const { api } = useDashboard();
  const may = useMay();
  const merchantSpecs = [{ name: 'customer_status', label: t('filter.status'), choices: ['ACTIVE', 'INACTIVE'] }];
  const [merchantFilters, setMerchantFilter] = useFilters(merchantSpecs);
  const merchants = usePage(api.listCustomers, 'customers', merchantFilters);
  const accountSpecs = [useMerchantFilter()];
  const [accountFilters, setAccountFilter] = useFilters(accountSpecs);
  const accounts = usePage(api.listAccounts, 'accounts', accountFilters);
  const none = may('linkMerchant') ? t('merchants.none') : t('merchants.noneViewer');
  return (
    <>
      <h1>{t('merchants.title')}</h1>
      <Filters
        label={t('filter.merchants')}
        specs={merchantSpecs}
        values={merchantFilters}
        onChange={setMerchantFilter}
      />
      <PagedTable
        page={merchants}
        noun="merchants"
        empty={none}
        columns={[
          {
            header: t('column.business'),
            cell: (customer) => <a href={linkTo('merchants', customer.id)}>{customer.business_name}</a>,
          },
          { header: t('column.nit'), cell: (customer) => customer.identification_number },
          { header: t('column.status'), cell: (customer) => <Status value={customer.status} /> },
          { header: t('column.linked'), cell: (customer) => formatTime(customer.created_at) },
        ]}
      />
      {merchants.items?.length !== 0 && (
        <>
          <h2>{t('merchants.accounts')}</h2>
          <Filters
            label={t('filter.accounts')}
            specs={accountSpecs}
            values={accountFilters}
            onChange={setAccountFilter}
          />
          <PagedTable
            page={accounts}
            columns={accountColumns()}
            caption={t('merchants.accountsCaption')}
            noun="accounts"
            empty={t('merchants.noAccounts')}
          />
        </>
      )}
      {may('linkMerchant') && (
        <LinkMerchantForm
          onLinked={() => {
            forgetMerchants(api);
            merchants.reload();
          }}
        />
      )}
    </>
  );
}
