/**
 * The merchant dashboard: a platform's staff sign in (authorization code with PKCE) and work on
 * their tenant's QR codes, payments, merchants, keys and webhooks through the API, with the
 * person's own access token. The page shows what the token's claims say; the API decides.
 */
import { render } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createApi } from './api';
import { ActivityPage } from './pages/activity';
import { Dashboard, type DashboardContext } from './components/context';
import { loadConfig, type DashboardConfig } from './config';
import { KeysPage } from './pages/keys';
import { MerchantPage } from './pages/merchant';
import { MerchantsPage } from './pages/merchants';
import { NewQrCodePage } from './pages/new-qr-code';
import { PaymentPage } from './pages/payment';
import { PaymentsPage } from './pages/payments';
import { QrCodePage } from './pages/qr-code';
import { QrCodesPage } from './pages/qr-codes';
import { WebhookPage } from './pages/webhook';
import { WebhooksPage } from './pages/webhooks';
import { canWriteAnything } from './permissions';
import { linkTo, useRoute, type Route } from './router';
import { beginSignIn, completeSignIn, signOutUrl, type Session } from './sign-in';

const SECTIONS = [
  { section: 'qrcodes', label: 'QR codes' },
  { section: 'payments', label: 'Payments' },
  { section: 'merchants', label: 'Merchants' },
  { section: 'keys', label: 'Keys' },
  { section: 'webhooks', label: 'Webhooks' },
  { section: 'activity', label: 'Activity' },
];

function Page({ route }: { readonly route: Route }) {
  const { section, rest } = route;
  switch (section) {
    case 'qrcodes':
      if (rest === 'new') return <NewQrCodePage />;
      return rest ? <QrCodePage id={rest} /> : <QrCodesPage />;
    case 'payments':
      return rest ? <PaymentPage id={rest} /> : <PaymentsPage />;
    case 'merchants':
      return rest ? <MerchantPage id={rest} /> : <MerchantsPage />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return rest ? <WebhookPage id={rest} /> : <WebhooksPage />;
    case 'activity':
      return <ActivityPage />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p>
            <a href={linkTo('qrcodes')}>Go to the QR codes</a>
          </p>
        </>
      );
  }
}

function SignedIn({ config, session }: { readonly config: DashboardConfig; readonly session: Session }) {
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
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Bre-B merchant dashboard</p>
        <p class="who">
          Signed in as <strong>{session.username}</strong> for <strong>{session.tenant}</strong>
          {!canWriteAnything(session.scopes) && <span class="badge">read only</span>}
        </p>
        <button type="button" onClick={() => location.assign(signOutUrl(config))}>
          Sign out
        </button>
      </header>
      <nav class="sections" aria-label="Sections">
        <ul>
          {SECTIONS.map(({ section, label }) => (
            <li key={section}>
              <a href={linkTo(section)} aria-current={route.section === section ? 'page' : undefined}>
                {label}
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

function SignedOut({ config, error }: { readonly config: DashboardConfig; readonly error?: string }) {
  return (
    <main id="main" class="signed-out">
      <h1>Bre-B merchant dashboard</h1>
      <p>QR codes, payments, merchants, keys and webhooks of your platform.</p>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <button type="button" class="primary" onClick={() => void beginSignIn(config)}>
        Sign in
      </button>
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
      return <p role="status">Loading…</p>;
    case 'broken':
      return (
        <main id="main" class="signed-out">
          <h1>The dashboard cannot start</h1>
          <p role="alert">
            The server cannot be reached, or answered what the page did not expect. Check the connection, then retry.
          </p>
          <button type="button" class="primary" onClick={() => location.reload()}>
            Retry
          </button>
          <details>
            <summary>Details</summary>
            <p>{state.error}</p>
          </details>
        </main>
      );
    case 'signed-out':
      return <SignedOut config={state.config} {...(state.error ? { error: state.error } : {})} />;
    case 'signed-in':
      return <SignedIn config={state.config} session={state.session} />;
  }
}

render(<App />, document.getElementById('app')!);
