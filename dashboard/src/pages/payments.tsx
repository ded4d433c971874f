/** The tenant's payments, both directions: filters, a search by reference, totals, a page at a time. */
import { useEffect, useState } from 'preact/hooks';
import { withMeaning } from '../codes';
import { useDashboard } from '../components/context';
import { Filters, queryOf, useFilters, type FilterSpec } from '../components/filters';
import { useMerchants } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { paymentListColumns } from '../components/payment-columns';
import { PaymentTotals } from '../components/payment-totals';
import { usePage } from '../components/use-page';
import { DownloadCsv } from '../components/download-csv';
import { reportPeriod } from '../report-period';
import { t } from '../i18n';

const MARK = 'TRXIDP';

/**
 * What the API's payments carry of a code: its network reference, CO.COM.<acquirer>.TRXIDP<reference>.
 * The part before the merchant's reference is the stage's, read from any of the tenant's codes.
 */
function useReferencePrefix(): string | undefined {
  const { api } = useDashboard();
  const [prefix, setPrefix] = useState<string>();
  useEffect(() => {
    api.listQrCodes({ page_number: 1, page_size: 1 }).then(
      (page) => {
        const reference = page.qr_codes[0]?.qr_code_reference;
        if (reference?.includes(MARK)) setPrefix(reference.slice(0, reference.lastIndexOf(MARK) + MARK.length));
      },
      () => undefined,
    );
  }, [api]);
  return prefix;
}

export function PaymentsPage() {
  const { api } = useDashboard();
  const { choices, merchants } = useMerchants();
  const prefix = useReferencePrefix();
  const specs: FilterSpec[] = [
    { name: 'customer_id', label: t('filter.merchant'), choices },
    {
      name: 'direction',
      label: t('filter.direction'),
      choices: (['INBOUND', 'OUTBOUND'] as const).map((d) => ({ value: d, label: withMeaning('direction', d) })),
    },
    { name: 'status', label: t('filter.status'), choices: ['PENDING', 'PROCESSING', 'SETTLED', 'REJECTED'] },
    { name: 'created', label: t('filter.createdOn'), kind: 'day' },
    { name: 'search', label: t('filter.search'), kind: 'text', hint: t('filter.searchHint') },
    { name: 'amount', label: t('filter.amount'), kind: 'amount' },
    {
      name: 'reference',
      label: t('filter.reference'),
      kind: 'text',
      toQuery: (typed) => ({ qr_code_reference: typed.includes(MARK) || !prefix ? typed : `${prefix}${typed}` }),
    },
  ];
  const [filters, setFilter] = useFilters(specs);
  const query = queryOf(specs, filters);
  const page = usePage(api.listPayments, 'payments', query, {
    changing: (items) => items.some((p) => p.status === 'PENDING' || p.status === 'PROCESSING'),
  });
  const merchantName = (id: string) => merchants.find((m) => m.id === id)?.business_name ?? '';
  return (
    <>
      <h1>{t('payments.title')}</h1>
      <Filters label={t('filter.payments')} specs={specs} values={filters} onChange={setFilter} />
      {/* A new filter is a new list: what was prepared for the last one is no longer said. */}
      <DownloadCsv
        key={JSON.stringify(query)}
        filters={{ type: 'payments', ...(query['customer_id'] ? { customer_id: query['customer_id'] } : {}) }}
        period={() => reportPeriod(query)}
        lead={t('report.paymentsLead')}
      />
      <PaymentTotals query={query} />
      <PagedTable page={page} columns={paymentListColumns(merchantName)} noun="payments" compact />
    </>
  );
}
