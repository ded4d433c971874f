/**
 * The merchant dashboard: a platform's staff sign in (authorization code with PKCE) and work on
 * their tenant's QR codes, payments, refunds, reconciliation with the bank, merchants, keys and webhooks through the API, with the
 * person's own access token. The page shows what the token's claims say; the API decides.
 */
import { render, type ComponentChildren } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi } from './api';
import { AccountPage } from './pages/account';
import { ActivityPage } from './pages/activity';
import { Dashboard, type DashboardContext } from './components/context';
import { loadConfig, type DashboardConfig } from './config';
import { KeysPage } from './pages/keys';
import { MerchantPage } from './pages/merchant';
import { MerchantsPage } from './pages/merchants';
import { NewQrCodePage } from './pages/new-qr-code';
import { OverviewPage } from './pages/overview';
import { PaymentPage } from './pages/payment';
import { PaymentsPage } from './pages/payments';
import { RefundsPage } from './pages/refunds';
import { ReconciliationPage } from './pages/reconciliation';
import { QrCodePage } from './pages/qr-code';
import { QrCodesPage } from './pages/qr-codes';
import { WebhookPage } from './pages/webhook';
import { WebhooksPage } from './pages/webhooks';
import { canWriteAnything } from './permissions';
import { DEFAULT_SECTION, linkTo, useRoute, type Route } from './router';
import { SECTIONS } from './sections';
import { beginSignIn, completeSignIn, signOutUrl, type Session } from './sign-in';
import { LANGUAGES, t, type Language } from './i18n';
import { chooseLanguage, startLanguage } from './i18n/choice';

/** Each language named in itself, as a person looking for theirs reads it. */
const LANGUAGE_NAMES: Readonly<Record<Language, string>> = { es: 'Español', en: 'English' };

/** The header's switch between Spanish and English. */
function LanguageSwitch({ value, onChange }: { readonly value: Language; readonly onChange: (l: Language) => void }) {
  return (
    <div class="language">
      <label for="language">{t('app.language')}</label>
      <select id="language" value={value} onChange={(e) => onChange(e.currentTarget.value as Language)}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The section a route's page belongs to in the header: an account's is its merchant's, Merchants. */
const sectionOf = (route: Route): string => (route.section === 'accounts' ? 'merchants' : route.section);

function Page({ route }: { readonly route: Route }) {
  const { section, rest } = route;
  switch (section) {
    case 'overview':
      return <OverviewPage />;
    case 'qrcodes':
      if (rest === 'new') return <NewQrCodePage />;
      return rest ? <QrCodePage id={rest} /> : <QrCodesPage />;
    case 'payments':
      return rest ? <PaymentPage id={rest} /> : <PaymentsPage />;
    case 'refunds':
      // A refund is shown on its payment's page: the section is the list.
      return <RefundsPage />;
    case 'reconciliation':
      return <ReconciliationPage />;
    case 'merchants':
      return rest ? <MerchantPage id={rest} /> : <MerchantsPage />;
    case 'accounts':
      // An account is reached from its merchant's page (the accounts list); it has no list of its own here.
      return rest ? <AccountPage id={rest} /> : <MerchantsPage />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return rest ? <WebhookPage id={rest} /> : <WebhooksPage />;
    case 'activity':
      return <ActivityPage />;
    default:
      return (
        <>
          <h1>{t('app.notFound')}</h1>
          <p>
            <a href={linkTo(DEFAULT_SECTION)}>{t('app.notFound.link')}</a>
          </p>
        </>
      );
  }
}

function SignedIn({
  config,
  session,
  languageSwitch,
}: {
  readonly config: DashboardConfig;
  readonly session: Session;
  readonly languageSwitch: ComponentChildren;
}) {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const context = useMemo<DashboardContext>(
    () => ({
      api: createApi(config.apiUrl, () => session.accessToken),
      session,
      config,
      signIn: () => void beginSignIn(config),
    }),
    [config, session],
  );
  // A new page moves the focus to its content, as a page load would for a screen reader.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [route.section, route.rest]);

  return (
    <Dashboard.Provider value={context}>
      <a class="skip-link" href="#main" onClick={(e) => (e.preventDefault(), main.current?.focus())}>
        {t('app.skip')}
      </a>
      <header class="top">
        <p class="brand">{t('app.title')}</p>
        <p class="who">
          {t('app.signedInAs.before')} <strong>{session.username}</strong> {t('app.signedInAs.for')}{' '}
          <strong>{session.tenant}</strong>
          {!canWriteAnything(session.scopes) && <span class="badge">{t('app.readOnly')}</span>}
        </p>
        {languageSwitch}
        <button type="button" onClick={() => location.assign(signOutUrl(config))}>
          {t('app.signOut')}
        </button>
      </header>
      <nav class="sections" aria-label={t('app.sections')}>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section}>
              <a href={linkTo(section)} aria-current={sectionOf(route) === section ? 'page' : undefined}>
                {t(`section.${section}`)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1} ref={main}>
        <Page route={route} />
      </main>
    </Dashboard.Provider>
  );
}

function SignedOut({
  config,
  error,
  languageSwitch,
}: {
  readonly config: DashboardConfig;
  readonly error?: string;
  readonly languageSwitch: ComponentChildren;
}) {
  return (
    <main id="main" class="signed-out">
      <h1>{t('app.title')}</h1>
      <p>{t('app.tagline')}</p>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <button type="button" class="primary" onClick={() => void beginSignIn(config)}>
        {t('app.signIn')}
      </button>
      {/* After Sign in: the first Tab of the page reaches Sign in, as most people want. */}
      {languageSwitch}
    </main>
  );
}

type AppState =
  | { readonly kind: 'starting' }
  | { readonly kind: 'broken'; readonly error: string }
  | { readonly kind: 'signed-out'; readonly config: DashboardConfig; readonly error?: string }
  | { readonly kind: 'signed-in'; readonly config: DashboardConfig; readonly session: Session };

function App() {
  const [state, setState] = useState<AppState>({ kind: 'starting' });
  // The whole page renders again in the language chosen: every message is read from it at render.
  const [language, setLanguage] = useState<Language>(startLanguage);
  useEffect(() => {
    document.title = t('app.title');
  }, [language]);
  const languageSwitch = <LanguageSwitch value={language} onChange={(l) => setLanguage(chooseLanguage(l))} />;
  useEffect(() => {
    (async () => {
      const config = await loadConfig();
      const outcome = await completeSignIn(config);
      // A page opened or reloaded without a sign-in under way asks the issuer's session first.
      if (outcome === undefined) return beginSignIn(config, true);
      if ('session' in outcome) setState({ kind: 'signed-in', config, session: outcome.session });
      else setState({ kind: 'signed-out', config, ...('error' in outcome ? { error: outcome.error } : {}) });
    })().catch((error: unknown) => setState({ kind: 'broken', error: String(error) }));
  }, []);

  switch (state.kind) {
    case 'starting':
      return <p role="status">{t('app.loading')}</p>;
    case 'broken':
      return (
        <main id="main" class="signed-out">
          <h1>{t('app.broken.title')}</h1>
          <p role="alert">{t('app.broken.text')}</p>
          <button type="button" class="primary" onClick={() => location.reload()}>
            {t('app.retry')}
          </button>
          <details>
            <summary>{t('app.details')}</summary>
            <p>{state.error}</p>
          </details>
        </main>
      );
    case 'signed-out':
      return (
        <SignedOut
          config={state.config}
          languageSwitch={languageSwitch}
          {...(state.error ? { error: state.error } : {})}
        />
      );
    case 'signed-in':
      return <SignedIn config={state.config} session={state.session} languageSwitch={languageSwitch} />;
  }
}

render(<App />, document.getElementById('app')!);
