/** The tenant's payments, both directions: filters and a page at a time. */
import { useState } from 'preact/hooks';
import { useDashboard } from '../components/context';
import { useMerchants } from '../components/merchants';
import { Pager } from '../components/pager';
import { PaymentsTable } from '../components/payments-table';
import { FilterSelect, ListBody } from '../components/ui';
import { usePage } from '../components/use-page';

export function PaymentsPage() {
  const { api } = useDashboard();
  const { choices: merchants } = useMerchants();
  const [filters, setFilters] = useState({ customer_id: '', direction: '', status: '', created_at: '' });
  const set = (name: keyof typeof filters) => (value: string) => setFilters({ ...filters, [name]: value });
  const page = usePage(api.listPayments, 'payments', filters);
  return (
    <>
      <h1>Payments</h1>
      <form class="filters" role="search" aria-label="Filter payments" onSubmit={(e) => e.preventDefault()}>
        <FilterSelect
          id="payment-merchant"
          label="Merchant"
          value={filters.customer_id}
          choices={merchants}
          onChange={set('customer_id')}
        />
        <FilterSelect
          id="payment-direction"
          label="Direction"
          value={filters.direction}
          choices={[
            { value: 'INBOUND', label: 'INBOUND (received)' },
            { value: 'OUTBOUND', label: 'OUTBOUND (sent)' },
          ]}
          onChange={set('direction')}
        />
        <FilterSelect
          id="payment-status"
          label="Status"
          value={filters.status}
          choices={['PENDING', 'SETTLED', 'REJECTED']}
          onChange={set('status')}
        />
        <div class="field">
          <label for="payment-created">Created on (UTC day)</label>
          <input
            id="payment-created"
            type="date"
            value={filters.created_at}
            onChange={(e) => set('created_at')(e.currentTarget.value)}
          />
        </div>
      </form>
      <ListBody page={page} empty="No payments match.">
        {(payments) => <PaymentsTable payments={payments} caption="Payments, newest first" />}
      </ListBody>
      <Pager page={page} noun="payments" />
    </>
  );
}
