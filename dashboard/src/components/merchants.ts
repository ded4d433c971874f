/**
 * The tenant's merchants as choices for a filter or a form: the newest 100 (one page of the API's
 * largest size), read once per page shown.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Customer } from '../api';
import { useDashboard } from './context';
import type { Choice, FilterSpec } from './filters';
import { t } from '../i18n';

export function useMerchants(): { readonly merchants: readonly Customer[]; readonly choices: readonly Choice[] } {
  const { api } = useDashboard();
  const [merchants, setMerchants] = useState<readonly Customer[]>([]);
  useEffect(() => {
    let live = true;
    api.listCustomers({ page_number: 1, page_size: 100, order_direction: 'desc' }).then(
      (page) => live && setMerchants(page.customers),
      // A filter without choices still works: the list itself shows any refusal.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return {
    merchants,
    choices: merchants.map((m) => ({ value: m.id, label: `${m.business_name} (NIT ${m.identification_number})` })),
  };
}

/** A list's filter by merchant (its `customer_id`). */
export function useMerchantFilter(): FilterSpec {
  return { name: 'customer_id', label: t('filter.merchant'), choices: useMerchants().choices };
}
