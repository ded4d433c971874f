/**
 * A sandbox person's sign-in over HTTP, as the dashboard does it in a browser: the sign-in form of
 * /oauth2/authorize posted with a PKCE challenge, the redirect's code exchanged at /oauth2/token.
 */
import { randomBytes } from 'node:crypto';
import { s256 } from '../../infra/local/authorization-codes';
import { DASHBOARD_CLIENT_ID, DASHBOARD_PATH, SANDBOX_PEOPLE } from '../../infra/local/people';

export const FORM = 'application/x-www-form-urlencoded';

export const passwordOf = (username: string): string => {
  const person = SANDBOX_PEOPLE.find((p) => p.username === username);
  if (!person) throw new Error(`No sandbox person ${username}`);
  return person.password;
};

export interface SignInAttempt {
  readonly verifier: string;
  readonly redirectUri: string;
  /** The parameters of the authorization request. */
  readonly parameters: URLSearchParams;
}

/** The authorization request the dashboard at `baseUrl` makes: a new verifier, its S256 challenge. */
export function signInAttempt(baseUrl: string): SignInAttempt {
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = new URL(DASHBOARD_PATH, baseUrl).toString();
  const parameters = new URLSearchParams({
    response_type: 'code',
    client_id: DASHBOARD_CLIENT_ID,
    redirect_uri: redirectUri,
    scope: 'openid',
    state: randomBytes(16).toString('base64url'),
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
  });
  return { verifier, redirectUri, parameters };
}

/** Posts the sign-in form; the answer is not followed (a redirect carries the code). */
export function postSignIn(baseUrl: string, parameters: URLSearchParams, username: string, password: string) {
  const form = new URLSearchParams(parameters);
  form.set('username', username);
  form.set('password', password);
  return fetch(new URL('/oauth2/authorize', baseUrl), {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: form.toString(),
    redirect: 'manual',
  });
}

/** Exchanges a code at the token endpoint, as the dashboard does (no secret). */
export function exchangeCode(baseUrl: string, fields: Record<string, string>) {
  return fetch(new URL('/oauth2/token', baseUrl), {
    method: 'POST',
    headers: { 'content-type': FORM },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: DASHBOARD_CLIENT_ID, ...fields }),
  });
}

/** The code of a successful sign-in (fails the test otherwise). */
export async function signInCode(baseUrl: string, attempt: SignInAttempt, username: string): Promise<string> {
  const answer = await postSignIn(baseUrl, attempt.parameters, username, passwordOf(username));
  const code = new URL(answer.headers.get('location') ?? 'about:blank').searchParams.get('code');
  if (answer.status !== 302 || !code) throw new Error(`Sign-in of ${username} failed: ${answer.status}`);
  return code;
}

/** A person's access token, by the whole flow. */
export async function personToken(baseUrl: string, username: string): Promise<string> {
  const attempt = signInAttempt(baseUrl);
  const code = await signInCode(baseUrl, attempt, username);
  const answer = await exchangeCode(baseUrl, {
    code,
    redirect_uri: attempt.redirectUri,
    code_verifier: attempt.verifier,
  });
  if (answer.status !== 200) throw new Error(`Code exchange failed: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { access_token: string }).access_token;
}
