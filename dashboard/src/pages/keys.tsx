/** The tenant's Bre-B keys: filters, a page at a time, suspend and activate. */
import { useDashboard } from '../components/context';
import { Filters, useFilters } from '../components/filters';
import { keyColumns } from '../components/key-columns';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { usePage } from '../components/use-page';

export function KeysPage() {
  const { api } = useDashboard();
  const specs = [
    useMerchantFilter(),
    { name: 'status', label: 'Status', choices: ['ACTIVE', 'SUSPENDED', 'DELETED'] },
    { name: 'key_type', label: 'Key type', choices: ['PHONE', 'ID', 'EMAIL', 'ALPHA', 'BCODE'] },
  ];
  const [filters, setFilter] = useFilters(specs);
  const page = usePage(api.listKeys, 'keys', filters);
  return (
    <>
      <h1>Bre-B keys</h1>
      <Filters label="Filter keys" specs={specs} values={filters} onChange={setFilter} />
      <PagedTable page={page} columns={keyColumns(page.reload)} noun="keys" />
    </>
  );
}
