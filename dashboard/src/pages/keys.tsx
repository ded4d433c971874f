/** The tenant's Bre-B keys: filters, a page at a time, suspend and activate. */
import { useState } from 'preact/hooks';
import { useDashboard } from '../components/context';
import { KeysTable } from '../components/keys-table';
import { useMerchants } from '../components/merchants';
import { Pager } from '../components/pager';
import { FilterSelect, ListBody } from '../components/ui';
import { usePage } from '../components/use-page';

export function KeysPage() {
  const { api } = useDashboard();
  const { choices: merchants } = useMerchants();
  const [filters, setFilters] = useState({ customer_id: '', status: '', key_type: '' });
  const set = (name: keyof typeof filters) => (value: string) => setFilters({ ...filters, [name]: value });
  const page = usePage(api.listKeys, 'keys', filters);
  return (
    <>
      <h1>Bre-B keys</h1>
      <form class="filters" role="search" aria-label="Filter keys" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="key-merchant"
          label="Merchant"
          value={filters.customer_id}
          choices={merchants}
          onChange={set('customer_id')}
        />
        <FilterSelect
          id="key-status"
          label="Status"
          value={filters.status}
          choices={['ACTIVE', 'SUSPENDED', 'DELETED']}
          onChange={set('status')}
        />
        <FilterSelect
          id="key-type"
          label="Key type"
          value={filters.key_type}
          choices={['PHONE', 'ID', 'EMAIL', 'ALPHA', 'BCODE']}
          onChange={set('key_type')}
        />
      </form>
      <ListBody page={page} empty="No keys match.">
        {(keys) => <KeysTable keys={keys} caption="Bre-B keys, newest first" onChanged={page.reload} />}
      </ListBody>
      <Pager page={page} noun="keys" />
    </>
  );
}
