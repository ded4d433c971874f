/** The tenant's payments, both directions: filters and a page at a time. */
import { useDashboard } from '../components/context';
import { Filters, useFilters } from '../components/filters';
import { useMerchantFilter } from '../components/merchants';
import { PagedTable } from '../components/paged-table';
import { PAYMENT_COLUMNS } from '../components/payment-columns';
import { usePage } from '../components/use-page';

export function PaymentsPage() {
  const { api } = useDashboard();
  const specs = [
    useMerchantFilter(),
    {
      name: 'direction',
      label: 'Direction',
      choices: [
        { value: 'INBOUND', label: 'INBOUND (received)' },
        { value: 'OUTBOUND', label: 'OUTBOUND (sent)' },
      ],
    },
    { name: 'status', label: 'Status', choices: ['PENDING', 'PROCESSING', 'SETTLED', 'REJECTED'] },
    { name: 'created_at', label: 'Created on (UTC day)' },
  ];
  const [filters, setFilter] = useFilters(specs);
  const page = usePage(api.listPayments, 'payments', filters);
  return (
    <>
      <h1>Payments</h1>
      <Filters label="Filter payments" specs={specs} values={filters} onChange={setFilter} />
      <PagedTable page={page} columns={PAYMENT_COLUMNS} noun="payments" />
    </>
  );
}
