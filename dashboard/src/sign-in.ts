/**
 * A person's sign-in: OAuth2 authorization code with PKCE (RFC 7636, S256). The page sends the
 * person to the sign-in page with a fresh verifier's challenge and a random state; the sign-in
 * comes back to this page with a code, which is exchanged for an access token with the verifier.
 *
 * The access token lives in this module's memory only: never in localStorage, sessionStorage or a
 * cookie, so a script of another page, a browser extension reading storage, or a shared computer's
 * next user finds nothing. A reload asks the issuer again without showing anything (`prompt=none`,
 * OpenID Connect): while the person's sign-in session at the issuer lasts (its own HttpOnly cookie,
 * which this page never sees), the issuer answers with a new code at once; when it has ended, it
 * answers login_required and the page offers Sign in. Only the verifier and the state
 * of a sign-in in progress are kept in sessionStorage (this tab, this origin), to survive the
 * round trip to the sign-in page, and deleted when it returns: neither is worth anything without
 * the code, which is good for one exchange.
 */
import type { DashboardConfig } from './config';
import { decodeJwtClaims } from './token-claims';
import { t } from './i18n';

/** What the page knows of the signed-in person, read from the access token's claims. */
export interface Session {
  readonly accessToken: string;
  readonly username: string;
  readonly tenant: string;
  readonly scopes: readonly string[];
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

const PENDING = 'breb-dashboard-sign-in';

interface PendingSignIn {
  readonly verifier: string;
  readonly state: string;
  /** The page to come back to (its hash route). */
  readonly returnTo: string;
  /** Asked without showing the sign-in page (prompt=none): a refusal means "sign in", not an error. */
  readonly silent?: boolean;
}

/** The issuer's answers to a silent request that mean only that the person must sign in (OIDC Core 3.1.2.6). */
const SIGN_IN_NEEDED = new Set([
  'login_required',
  'interaction_required',
  'consent_required',
  'account_selection_required',
]);

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const randomText = (): string => base64url(crypto.getRandomValues(new Uint8Array(32)));

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/** The address sign-in returns to: this page, without query or route. */
const redirectUri = (): string => `${location.origin}${location.pathname}`;

/**
 * Sends the person to the sign-in page; `silent`, asks the issuer for a code without showing it (the
 * issuer's session, if any, answers).
 */
export async function beginSignIn(config: DashboardConfig, silent = false): Promise<void> {
  const pending: PendingSignIn = {
    verifier: randomText(),
    state: randomText(),
    returnTo: location.hash,
    ...(silent ? { silent } : {}),
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(config.authorizeUrl, location.href);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: config.clientId,
    redirect_uri: redirectUri(),
    scope: config.scope,
    state: pending.state,
    code_challenge: await s256(pending.verifier),
    code_challenge_method: 'S256',
    ...(silent ? { prompt: 'none' } : {}),
  }).toString();
  location.assign(url.toString());
}

export type SignInOutcome =
  | { readonly session: Session }
  | { readonly error: string }
  /** A silent request answered that the person must sign in: no error to show. */
  | { readonly signedOut: true }
  | undefined;

/** The claims the page shows; the API checks the token, the page only reads it. */
function sessionOf(accessToken: string): Session {
  const claims = decodeJwtClaims(accessToken);
  return {
    accessToken,
    username: String(claims['username'] ?? claims['sub'] ?? ''),
    tenant: String(claims['tenant'] ?? claims['client_id'] ?? ''),
    scopes: String(claims['scope'] ?? '')
      .split(' ')
      .filter(Boolean),
    expiresAt: Number(claims['exp'] ?? 0) * 1000,
  };
}

/**
 * When the page is the sign-in's return (?code= or ?error=), exchanges the code; undefined when it
 * is not. Either way the query leaves the address bar, so a reload or a bookmark never replays it.
 */
export async function completeSignIn(config: DashboardConfig): Promise<SignInOutcome> {
  const query = new URLSearchParams(location.search);
  if (!query.has('code') && !query.has('error')) return undefined;
  const stored = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  const pending = stored ? (JSON.parse(stored) as PendingSignIn) : undefined;
  history.replaceState(null, '', `${location.pathname}${pending?.returnTo ?? ''}`);

  // A code or an error this page did not ask for (another tab's, or a forged link) is neither
  // exchanged nor shown: a link could otherwise put its own words on our page.
  if (!pending || query.get('state') !== pending.state) {
    return { error: t('signIn.notStartedHere') };
  }
  if (query.has('error')) {
    // A silent sign-in (a reload) that needs the person: the page offers Sign in, with no error.
    if (pending.silent && SIGN_IN_NEEDED.has(query.get('error') ?? '')) return { signedOut: true };
    return { error: signInErrorText(query.get('error')) };
  }
  const answer = await fetch(new URL(config.tokenUrl, location.href), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: config.clientId,
      code: query.get('code') ?? '',
      redirect_uri: redirectUri(),
      code_verifier: pending.verifier,
    }),
  });
  const body = (await answer.json()) as { access_token?: string; error?: string; error_description?: string };
  if (!answer.ok || !body.access_token) {
    return {
      error: t('signIn.failedWith', { reason: body.error_description ?? body.error ?? `HTTP ${answer.status}` }),
    };
  }
  return { session: sessionOf(body.access_token) };
}

/**
 * What the page says of an error the sign-in page sent back: fixed words by the OAuth error code
 * (RFC 6749, 4.1.2.1), never the text of the URL (`error_description` is anyone's to write).
 */
export function signInErrorText(code: string | null): string {
  switch (code) {
    case 'access_denied':
      return t('signIn.cancelled');
    case 'temporarily_unavailable':
    case 'server_error':
      return t('signIn.unavailable');
    default:
      return t('signIn.failed');
  }
}

/** Where signing out goes: the identity provider's logout, which ends its session too, or this page. */
export function signOutUrl(config: DashboardConfig): string {
  if (!config.logoutUrl) return redirectUri();
  const url = new URL(config.logoutUrl, location.href);
  url.searchParams.set('client_id', config.clientId);
  url.searchParams.set('logout_uri', redirectUri());
  return url.toString();
}
