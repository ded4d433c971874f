/**
 * What a platform does first, shown where it would otherwise find an empty list: link a merchant the
 * sponsor bank approved, link its account, register a Bre-B key, then create QR codes (and add a
 * webhook to hear of payments). Each step says whether it is done, read from the API's lists.
 */
import { useEffect, useState } from 'preact/hooks';
import { linkTo } from '../router';
import { useDashboard, useMay } from './context';

interface Counts {
  readonly merchants: number;
  readonly accounts: number;
  readonly keys: number;
  readonly webhooks: number;
}

function useCounts(): Counts | undefined {
  const { api } = useDashboard();
  const [counts, setCounts] = useState<Counts>();
  useEffect(() => {
    let live = true;
    const one = { page_number: 1, page_size: 1 };
    Promise.all([
      api.listCustomers(one),
      api.listAccounts(one),
      api.listKeys({ ...one, status: 'ACTIVE' }),
      api.listWebhooks(one),
    ]).then(
      ([merchants, accounts, keys, webhooks]) =>
        live &&
        setCounts({
          merchants: merchants.pagination_info.total_elements,
          accounts: accounts.pagination_info.total_elements,
          keys: keys.pagination_info.total_elements,
          webhooks: webhooks.pagination_info.total_elements,
        }),
      // The steps are a guide: without them the page still says what to do.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);
  return counts;
}

export function FirstRun() {
  const counts = useCounts();
  const may = useMay();
  const steps = [
    {
      done: (counts?.merchants ?? 0) > 0,
      text: 'Link a merchant the sponsor bank approved',
      href: linkTo('merchants'),
    },
    { done: (counts?.accounts ?? 0) > 0, text: "Link the merchant's account", href: linkTo('merchants') },
    { done: (counts?.keys ?? 0) > 0, text: 'Register a Bre-B key for the account', href: linkTo('merchants') },
    { done: false, text: 'Create a QR code with the key', href: linkTo('qrcodes', 'new') },
    { done: (counts?.webhooks ?? 0) > 0, text: 'Add a webhook to hear of payments', href: linkTo('webhooks') },
  ];
  const next = steps.findIndex((step) => !step.done);
  return (
    <section class="first-run" aria-labelledby="first-run">
      <h2 id="first-run">No QR codes yet</h2>
      {may('createQrCode') ? (
        <p>A QR code needs a merchant with an account and a Bre-B key. The steps, in order:</p>
      ) : (
        <p>Your platform has not created any. Someone who may change its data starts with these steps:</p>
      )}
      <ol class="steps">
        {steps.map((step, index) => (
          <li key={step.text} class={step.done ? 'done' : index === next ? 'next' : undefined}>
            {may('linkMerchant') && index === next ? <a href={step.href}>{step.text}</a> : step.text}
            {step.done && <span class="visually-hidden"> (done)</span>}
            {index === next && <strong class="next-label"> Next</strong>}
          </li>
        ))}
      </ol>
    </section>
  );
}
