/**
 * The local issuer's sign-in session (infra/local/sign-in-sessions.ts), as Cognito's hosted sign-in
 * keeps one: a right password opens it in an HttpOnly, SameSite=Lax cookie; while it lasts a new
 * authorization request gets a code without the page; prompt=none gets a code or login_required,
 * never the page; /logout ends it; it ends on its own after an hour.
 */
import { randomBytes } from 'node:crypto';
import { s256 } from '../../infra/local/authorization-codes';
import {
  answerAuthorizeRequest,
  answerLogoutRequest,
  type AuthorizeAnswer,
} from '../../infra/local/authorize-endpoint';
import { LocalIssuer } from '../../infra/local/oauth';
import { DASHBOARD_CLIENT_ID, SANDBOX_PEOPLE } from '../../infra/local/people';
import { SESSION_LIFETIME_MS, SignInSessions } from '../../infra/local/sign-in-sessions';
import { answerTokenRequest } from '../../infra/local/token-endpoint';

const ISSUER = 'http://127.0.0.1:3999';
const REDIRECT_URI = `${ISSUER}/dashboard/`;
const FORM = 'application/x-www-form-urlencoded';
const viewer = SANDBOX_PEOPLE.find((p) => p.username === 'viewer-a')!;

let issuer: LocalIssuer;
beforeAll(async () => {
  issuer = await LocalIssuer.create({ issuer: ISSUER });
});

const request = (verifier: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({
    response_type: 'code',
    client_id: DASHBOARD_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state: 'state-9',
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });

const get = (parameters: URLSearchParams, cookie?: string): AuthorizeAnswer =>
  answerAuthorizeRequest(issuer, 'GET', parameters, undefined, '', cookie);

/** Signs the viewer in with the form; answers the cookie the browser keeps (name=value). */
function signedIn(): string {
  const form = request(randomBytes(32).toString('base64url'));
  form.set('username', viewer.username);
  form.set('password', viewer.password);
  const answer = answerAuthorizeRequest(issuer, 'POST', new URLSearchParams(), FORM, form.toString());
  expect(answer.status).toBe(302);
  const setCookie = answer.headers['set-cookie']!;
  expect(setCookie).toMatch(/^breb_issuer_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=3600; HttpOnly; SameSite=Lax$/);
  return setCookie.split(';')[0]!;
}

const query = (answer: AuthorizeAnswer) => new URL(answer.headers['location']!).searchParams;

test("a session answers a new request with a code at once, and the code is the same person's token", async () => {
  const cookie = signedIn();
  const verifier = randomBytes(32).toString('base64url');
  const answer = get(request(verifier), `other=1; ${cookie}`);
  expect(answer.status).toBe(302);
  expect(query(answer).get('state')).toBe('state-9');
  const exchanged = await answerTokenRequest(
    issuer,
    FORM,
    undefined,
    new URLSearchParams({
      grant_type: 'authorization_code',
      client_id: DASHBOARD_CLIENT_ID,
      code: query(answer).get('code')!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }).toString(),
  );
  expect(exchanged.status).toBe(200);
  const token = (exchanged.body as { access_token: string }).access_token;
  expect((await issuer.verify(token)).claims['username']).toBe('viewer-a');
});

test('prompt=none: a code with a session, login_required without one, never the page', () => {
  const verifier = randomBytes(32).toString('base64url');
  expect(query(get(request(verifier, { prompt: 'none' }), signedIn())).get('code')).toBeTruthy();
  for (const cookie of [undefined, 'breb_issuer_session=forged', 'breb_issuer_session=']) {
    const answer = get(request(verifier, { prompt: 'none' }), cookie);
    expect(answer.status).toBe(302);
    expect(Object.fromEntries(query(answer))).toEqual({
      error: 'login_required',
      error_description: expect.any(String),
      state: 'state-9',
    });
  }
});

test('prompt=login shows the page whatever the session; a request that fails its checks is refused first', () => {
  const cookie = signedIn();
  const verifier = randomBytes(32).toString('base64url');
  expect(get(request(verifier, { prompt: 'login' }), cookie).status).toBe(200);
  // A session never lends a code to a request without PKCE or to an address not registered.
  expect(query(get(request(verifier, { code_challenge_method: 'plain' }), cookie)).get('error')).toBe(
    'invalid_request',
  );
  expect(get(request(verifier, { redirect_uri: 'https://evil.example/' }), cookie).status).toBe(400);
});

test('/logout ends the session and goes back to a registered address only', () => {
  const cookie = signedIn();
  const verifier = randomBytes(32).toString('base64url');
  const refused = answerLogoutRequest(
    issuer,
    new URLSearchParams({ client_id: DASHBOARD_CLIENT_ID, logout_uri: 'https://evil.example/' }),
    cookie,
  );
  expect(refused.status).toBe(400);
  expect(get(request(verifier), cookie).status).toBe(302);

  const out = answerLogoutRequest(
    issuer,
    new URLSearchParams({ client_id: DASHBOARD_CLIENT_ID, logout_uri: REDIRECT_URI }),
    cookie,
  );
  expect(out.status).toBe(302);
  expect(out.headers['location']).toBe(REDIRECT_URI);
  expect(out.headers['set-cookie']).toBe('breb_issuer_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax');
  // The browser would drop the cookie; one kept anyway (copied) names a session that is gone.
  expect(get(request(verifier), cookie).status).toBe(200);
});

test('a session lasts an hour', () => {
  let now = 1_000_000;
  const sessions = new SignInSessions(() => now);
  const cookie = sessions.open(viewer).split(';')[0]!;
  now += SESSION_LIFETIME_MS - 1;
  expect(sessions.personOf(cookie)).toBe(viewer);
  now += 1;
  expect(sessions.personOf(cookie)).toBeUndefined();
});
