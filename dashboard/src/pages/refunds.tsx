/** The tenant's refunds of every merchant, newest first: filters, a page at a time, and the list as a CSV file. */
import type { Refund } from '../api';
import { withMeaning } from '../codes';
import { useDashboard } from '../components/context';
import type { Column } from '../components/data-table';
import { DownloadCsv } from '../components/download-csv';
import { Filters, queryOf, useFilters, type FilterSpec } from '../components/filters';
import { useMerchants } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { Amount } from '../components/ui';
import { usePage } from '../components/use-page';
import { formatTime } from '../format';
import { t } from '../i18n';
import { reportPeriod } from '../report-period';
import { linkTo } from '../router';

const STATUSES = ['PENDING', 'SETTLED', 'REJECTED'] as const;

/** Ids are long: the first 8 characters tell a person's payments apart, the link carries the whole. */
const shortId = (id: string) => id.slice(0, 8);

const refundListColumns = (merchantName: (customerId: string) => string): readonly Column<Refund>[] => [
  { header: t('column.created'), cell: (r) => formatTime(r.created_at) },
  { header: t('column.merchant'), cell: (r) => merchantName(r.customer_id) },
  { header: t('column.amount'), numeric: true, cell: (r) => <Amount money={r.amount} /> },
  {
    header: t('column.status'),
    // A rejected refund says why on a line of its own.
    cell: (r) => (
      <>
        {withMeaning('refundStatus', r.status)}
        {r.review && (
          <>
            {' '}
            <span class="status status-review">{t('review.badge')}</span>
          </>
        )}
        {r.rejection_reason && (
          <>
            <br />
            {withMeaning('rejection', r.rejection_reason)}
          </>
        )}
      </>
    ),
  },
  {
    header: t('column.payment'),
    cell: (r) => <a href={linkTo('payments', r.payment_id)}>{t('movement.payment', { id: shortId(r.payment_id) })}</a>,
  },
  { header: t('column.reason'), cell: (r) => r.reason ?? '' },
];

export function RefundsPage() {
  const { api } = useDashboard();
  const { choices, merchants } = useMerchants();
  const specs: FilterSpec[] = [
    { name: 'customer_id', label: t('filter.merchant'), choices },
    {
      name: 'status',
      label: t('filter.status'),
      choices: STATUSES.map((s) => ({ value: s, label: withMeaning('refundStatus', s) })),
    },
    { name: 'created', label: t('filter.createdOn'), kind: 'day' },
  ];
  const [filters, setFilter] = useFilters(specs);
  const query = queryOf(specs, filters);
  const page = usePage(api.listRefunds, 'refunds', query, {
    changing: (items) => items.some((r) => r.status === 'PENDING'),
  });
  const merchantName = (id: string) => merchants.find((m) => m.id === id)?.business_name ?? '';
  return (
    <>
      <h1>{t('refunds.title')}</h1>
      <Filters label={t('filter.refunds')} specs={specs} values={filters} onChange={setFilter} />
      {/* A new filter is a new list: what was prepared for the last one is no longer said. */}
      <DownloadCsv
        key={JSON.stringify(query)}
        filters={{ type: 'refunds', ...(query['customer_id'] ? { customer_id: query['customer_id'] } : {}) }}
        period={() => reportPeriod(query)}
        lead={t('report.refundsLead')}
      />
      <PagedTable page={page} columns={refundListColumns(merchantName)} noun="refunds" empty={t('refundList.empty')} />
    </>
  );
}
