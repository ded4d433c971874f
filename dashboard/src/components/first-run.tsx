/**
 * What a platform does first, shown where it would otherwise find an empty list: link a merchant the
 * sponsor bank approved, link its account, register a Bre-B key, then create QR codes (and add a
 * webhook to hear of payments). Each step says whether it is done, read from the API: the merchants
 * kept while the person is signed in (merchants.ts), then one item of the lists the others need (see
 * readDone). A read that failed says so, with Retry, and marks no step: never "not done" for a step
 * it could not read.
 */
import { useEffect, useState } from 'preact/hooks';
import { linkTo } from '../router';
import type { Api } from '../api';
import { useDashboard, useMay } from './context';
import { useMerchants } from './merchants';
import { ProblemMessage } from './problem';
import { t } from '../i18n';

/** Whether each step that is read is done. */
interface Done {
  readonly merchants: boolean;
  readonly accounts: boolean;
  readonly keys: boolean;
  readonly webhooks: boolean;
}

type DoneRead = { readonly done?: Done; readonly error?: unknown };

/**
 * What is done, in as few calls as the steps' order allows: an account belongs to a merchant and an
 * ACTIVE key to an account, so without merchants neither is read, and a key found says an account
 * exists. The webhooks are read beside: 2 calls, 3 only when there are merchants and no key.
 */
async function readDone(api: Api, merchants: number): Promise<Done> {
  const one = { page_number: 1, page_size: 1 };
  const webhooks = api.listWebhooks(one).then((page) => page.pagination_info.total_elements > 0);
  if (merchants === 0) return { merchants: false, accounts: false, keys: false, webhooks: await webhooks };
  const keys = (await api.listKeys({ ...one, status: 'ACTIVE' })).pagination_info.total_elements > 0;
  const accounts = keys || (await api.listAccounts(one)).pagination_info.total_elements > 0;
  return { merchants: true, accounts, keys, webhooks: await webhooks };
}

function useDone(merchants: number | undefined, attempt: number): DoneRead {
  const { api } = useDashboard();
  const [read, setRead] = useState<DoneRead>({});
  useEffect(() => {
    let live = true;
    setRead({});
    if (merchants === undefined) return;
    readDone(api, merchants).then(
      (done) => live && setRead({ done }),
      (error: unknown) => live && setRead({ error }),
    );
    return () => {
      live = false;
    };
  }, [api, merchants, attempt]);
  return read;
}

export function FirstRun() {
  const [attempt, setAttempt] = useState(0);
  const { state: merchantsRead, retry: retryMerchants } = useMerchants();
  const { done, error } = useDone(merchantsRead.step === 'read' ? merchantsRead.merchants.length : undefined, attempt);
  const may = useMay();
  const failed = error ?? (merchantsRead.step === 'failed' ? merchantsRead.error : undefined);
  // Until every read answered (or after a failure) no step is marked.
  const steps = [
    { done: done?.merchants, text: t('firstRun.merchant'), href: linkTo('merchants') },
    { done: done?.accounts, text: t('firstRun.account'), href: linkTo('merchants') },
    { done: done?.keys, text: t('firstRun.key'), href: linkTo('merchants') },
    { done: false, text: t('firstRun.code'), href: linkTo('qrcodes', 'new') },
    { done: done?.webhooks, text: t('firstRun.webhook'), href: linkTo('webhooks') },
  ];
  const next = done ? steps.findIndex((step) => !step.done) : -1;
  return (
    <section class="first-run" aria-labelledby="first-run">
      <h2 id="first-run">{t('firstRun.title')}</h2>
      {may('createQrCode') ? <p>{t('firstRun.steps')}</p> : <p>{t('firstRun.stepsViewer')}</p>}
      {failed !== undefined && (
        <ProblemMessage
          error={failed}
          onRetry={() => {
            if (error !== undefined) setAttempt((n) => n + 1);
            if (merchantsRead.step === 'failed') retryMerchants();
          }}
        />
      )}
      {!done && failed === undefined && <p role="status">{t('app.loading')}</p>}
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
