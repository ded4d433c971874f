/** The tenant's merchants, and every account with its balances; linking a merchant. */
import { ACCOUNT_COLUMNS } from '../components/account-columns';
import { useDashboard, useMay } from '../components/context';
import { Filters, useFilters } from '../components/filters';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { Status } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime } from '../format';
import { LinkMerchantForm } from '../forms/link-merchant';
import { linkTo } from '../router';

const MERCHANT_FILTERS = [{ name: 'customer_status', label: 'Status', choices: ['ACTIVE', 'INACTIVE'] }];

export function MerchantsPage() {
  const { api } = useDashboard();
  const may = useMay();
  const [merchantFilters, setMerchantFilter] = useFilters(MERCHANT_FILTERS);
  const merchants = usePage(api.listCustomers, 'customers', merchantFilters);
  const accountSpecs = [useMerchantFilter()];
  const [accountFilters, setAccountFilter] = useFilters(accountSpecs);
  const accounts = usePage(api.listAccounts, 'accounts', accountFilters);
  const none = may('linkMerchant')
    ? 'No merchants yet: link the first one with the form below.'
    : 'No merchants yet: someone who may change your platform links them.';
  return (
    <>
      <h1>Merchants</h1>
      <Filters
        label="Filter merchants"
        specs={MERCHANT_FILTERS}
        values={merchantFilters}
        onChange={setMerchantFilter}
      />
      <PagedTable
        page={merchants}
        noun="merchants"
        empty={none}
        columns={[
          {
            header: 'Business',
            cell: (customer) => <a href={linkTo('merchants', customer.id)}>{customer.business_name}</a>,
          },
          { header: 'NIT', cell: (customer) => customer.identification_number },
          { header: 'Status', cell: (customer) => <Status value={customer.status} /> },
          { header: 'Linked', cell: (customer) => formatTime(customer.created_at) },
        ]}
      />
      {merchants.items?.length !== 0 && (
        <>
          <h2>Accounts and balances</h2>
          <Filters label="Filter accounts" specs={accountSpecs} values={accountFilters} onChange={setAccountFilter} />
          <PagedTable
            page={accounts}
            columns={ACCOUNT_COLUMNS}
            caption="Accounts and their balances"
            noun="accounts"
            empty="No accounts yet: link one on its merchant's page."
          />
        </>
      )}
      {may('linkMerchant') && <LinkMerchantForm onLinked={merchants.reload} />}
    </>
  );
}
