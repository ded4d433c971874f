/**
 * What a platform does first, shown where it would otherwise find an empty list: link a merchant the
 * sponsor bank approved, link its account, register a Bre-B key, then create QR codes (and add a
 * webhook to hear of payments). Each step says whether it is done, read from the API's lists.
 */
import { useEffect, useState } from 'preact/hooks';
import { linkTo } from '../router';
import { useDashboard, useMay } from './context';
import { t } from '../i18n';

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
      text: t('firstRun.merchant'),
      href: linkTo('merchants'),
    },
    { done: (counts?.accounts ?? 0) > 0, text: t('firstRun.account'), href: linkTo('merchants') },
    { done: (counts?.keys ?? 0) > 0, text: t('firstRun.key'), href: linkTo('merchants') },
    { done: false, text: t('firstRun.code'), href: linkTo('qrcodes', 'new') },
    { done: (counts?.webhooks ?? 0) > 0, text: t('firstRun.webhook'), href: linkTo('webhooks') },
  ];
  const next = steps.findIndex((step) => !step.done);
  return (
    <section class="first-run" aria-labelledby="first-run">
      <h2 id="first-run">{t('firstRun.title')}</h2>
      {may('createQrCode') ? <p>{t('firstRun.steps')}</p> : <p>{t('firstRun.stepsViewer')}</p>}
      <ol class="steps">
        {steps.map((step, index) => (
          <li key={step.text} class={step.done ? 'done' : index === next ? 'next' : undefined}>
            {may('linkMerchant') && index === next ? <a href={step.href}>{step.text}</a> : step.text}
            {step.done && <span class="visually-hidden"> {t('firstRun.done')}</span>}
            {index === next && <strong class="next-label"> {t('firstRun.next')}</strong>}
          </li>
        ))}
      </ol>
    </section>
  );
}
