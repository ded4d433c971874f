/** The tenant's Bre-B keys: filters, a page at a time, suspend and activate. */
import { useDashboard, useMay } from '../components/context';
import { withMeaning } from '../codes';
import { Filters, useFilters } from '../components/filters';
import { keyColumns } from '../components/key-columns';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { usePage } from '../components/use-page';
import { linkTo } from '../router';

export function KeysPage() {
  const { api } = useDashboard();
  const may = useMay();
  const specs = [
    useMerchantFilter(),
    { name: 'status', label: 'Status', choices: ['ACTIVE', 'SUSPENDED', 'DELETED'] },
    {
      name: 'key_type',
      label: 'Key type',
      choices: ['PHONE', 'ID', 'EMAIL', 'ALPHA', 'BCODE'].map((t) => ({ value: t, label: withMeaning('keyType', t) })),
    },
  ];
  const [filters, setFilter] = useFilters(specs);
  const page = usePage(api.listKeys, 'keys', filters);
  const empty = (
    <>
      No keys to show. A key is registered for a merchant's account, on{' '}
      <a href={linkTo('merchants')}>the merchant's page</a>.
    </>
  );
  return (
    <>
      <h1>Bre-B keys</h1>
      <Filters label="Filter keys" specs={specs} values={filters} onChange={setFilter} />
      <PagedTable page={page} columns={keyColumns(page.reload, may('changeKey'))} noun="keys" empty={empty} />
    </>
  );
}
