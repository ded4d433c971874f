/**
 * The tenant's merchants as choices for a filter or a form: the newest 100 (one page of the API's
 * largest size), read once while the person is signed in and kept for every page that asks (a tab
 * a second must not spend the person's budget on the same list), read again after the person links
 * one. A read that failed is not kept: the page says so, with Retry, and never "no merchants".
 */
import { useEffect, useState } from 'preact/hooks';
import type { Api, Customer } from '../api';
import { useDashboard } from './context';
import type { Choice, FilterSpec } from './filters';
import { t } from '../i18n';

type MerchantsRead = Promise<readonly Customer[]>;

/** The read of each signed-in session's merchants, by its API client (a new sign-in, a new client). */
const reads = new WeakMap<Api, MerchantsRead>();

function readMerchants(api: Api): MerchantsRead {
  let read = reads.get(api);
  if (!read) {
    read = api
      .listCustomers({ page_number: 1, page_size: 100, order_direction: 'desc' })
      .then((page) => page.customers);
    reads.set(api, read);
    // A failure is said where it was asked for, and the next page (or Retry) asks again.
    read.catch(() => reads.get(api) === read && reads.delete(api));
  }
  return read;
}

/** Forgets the session's merchants: the next page that needs them reads them again (after a link). */
export function forgetMerchants(api: Api): void {
  reads.delete(api);
}

export type MerchantsState =
  | { readonly step: 'reading' }
  | { readonly step: 'read'; readonly merchants: readonly Customer[] }
  | { readonly step: 'failed'; readonly error: unknown };

export function useMerchants(): {
  readonly merchants: readonly Customer[];
  readonly choices: readonly Choice[];
  readonly state: MerchantsState;
  /** Reads them again after a failure. */
  readonly retry: () => void;
} {
  const { api } = useDashboard();
  const [state, setState] = useState<MerchantsState>({ step: 'reading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setState({ step: 'reading' });
    readMerchants(api).then(
      (merchants) => live && setState({ step: 'read', merchants }),
      (error: unknown) => live && setState({ step: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [api, attempt]);
  const merchants = state.step === 'read' ? state.merchants : [];
  return {
    merchants,
    state,
    retry: () => setAttempt((n) => n + 1),
    choices: merchants.map((m) => ({ value: m.id, label: `${m.business_name} (NIT ${m.identification_number})` })),
  };
}

/** A list's filter by merchant (its `customer_id`); a filter without choices still works. */
export function useMerchantFilter(): FilterSpec {
  return { name: 'customer_id', label: t('filter.merchant'), choices: useMerchants().choices };
}
