/** The tenant's Bre-B keys: filters, a page at a time, suspend and activate. */
import { useDashboard, useMay } from '../components/context';
import { withMeaning } from '../codes';
import { Filters, useFilters } from '../components/filters';
import { keyColumns } from '../components/key-columns';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { usePage } from '../components/use-page';
import { linkTo } from '../router';
import { t } from '../i18n';

export function KeysPage() {
  const { api } = useDashboard();
  const may = useMay();
  const specs = [
    useMerchantFilter(),
    { name: 'status', label: t('filter.status'), choices: ['ACTIVE', 'SUSPENDED', 'DELETED'] },
    {
      name: 'key_type',
      label: t('filter.keyType'),
      choices: ['PHONE', 'ID', 'EMAIL', 'ALPHA', 'BCODE'].map((t) => ({ value: t, label: withMeaning('keyType', t) })),
    },
  ];
  const [filters, setFilter] = useFilters(specs);
  const page = usePage(api.listKeys, 'keys', filters);
  const empty = (
    <>
      {t('keys.empty')} <a href={linkTo('merchants')}>{t('keys.emptyLink')}</a>.
    </>
  );
  return (
    <>
      <h1>{t('keys.title')}</h1>
      <Filters label={t('filter.keys')} specs={specs} values={filters} onChange={setFilter} />
      <PagedTable page={page} columns={keyColumns(page.reload, may('changeKey'))} noun="keys" empty={empty} />
    </>
  );
}
