/**
 * People signing in to the dashboard through the real local server (docs/dashboard.md): the
 * sign-in page, the code and its exchange over HTTP, every refusal, and what a person's token does
 * at the API: the tenant's data (from the `tenant` claim), never another tenant's, and no write
 * without the scope.
 */
import { decodeJwt } from 'jose';
import { allScopes, readScopes } from '../../functions/routes';
import { LocalIssuer } from '../../infra/local/oauth';
import { DASHBOARD_CLIENT_ID } from '../../infra/local/people';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import {
  exchangeCode,
  passwordOf,
  personToken,
  postSignIn,
  signInAttempt,
  signInCode,
  type SignInAttempt,
} from '../support/people';
import { expectProblem } from '../support/problems';

let api: TestApi;
let merchantA: MerchantWithKey;
let qrCodeOfA: string;

beforeAll(async () => {
  api = await startTestApi();
  // Client A's platform onboards a merchant and prints a code, with its machine token.
  const machineA = await api.token('sandbox-client-a');
  merchantA = await merchantWithKey(api, machineA);
  const created = await api.request('POST', '/v1/qrcodes', {
    token: machineA,
    body: {
      key_id: merchantA.keyId,
      customer_id: merchantA.customerId,
      type: 'STATIC',
      channel: 'POS',
      qr_code_reference: 'SIGNIN1',
    },
  });
  expect(created.status).toBe(200);
  qrCodeOfA = created.body.id;
});
afterAll(() => api.stop());

describe('the sign-in page', () => {
  test('GET /oauth2/authorize serves the form; a wrong password is refused on it', async () => {
    const attempt = signInAttempt(api.url);
    const page = await fetch(`${api.url}/oauth2/authorize?${attempt.parameters}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<label for="username">Username</label>');
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toContain('<button type="submit">Sign in</button>');
    // The Spanish words beside them, outside the labels and the button: their names stay the same.
    for (const spanish of ['Usuario', 'Contraseña', 'Ingresar']) {
      expect(html).toContain(`<span class="es" lang="es">${spanish}</span>`);
    }

    const wrong = await postSignIn(api.url, attempt.parameters, 'merchant-admin-a', 'sandbox-password-viewer-a');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('location')).toBeNull();
    expect(await wrong.text()).toContain('Incorrect username or password.');
  });

  test('no PKCE: back to the dashboard with invalid_request, no code', async () => {
    const { parameters } = signInAttempt(api.url);
    parameters.delete('code_challenge');
    const answer = await postSignIn(api.url, parameters, 'merchant-admin-a', passwordOf('merchant-admin-a'));
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location')!);
    expect(location.pathname).toBe('/dashboard/');
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe(parameters.get('state'));
    expect(location.searchParams.has('code')).toBe(false);
  });

  test('a redirect_uri that is not registered: refused on the page, no redirect', async () => {
    const { parameters } = signInAttempt(api.url);
    parameters.set('redirect_uri', 'http://127.0.0.1:1/dashboard/');
    const answer = await postSignIn(api.url, parameters, 'merchant-admin-a', passwordOf('merchant-admin-a'));
    expect(answer.status).toBe(400);
    expect(answer.headers.get('location')).toBeNull();
  });
});

describe('the code', () => {
  test('is exchanged once: the second exchange is invalid_grant', async () => {
    const attempt = signInAttempt(api.url);
    const code = await signInCode(api.url, attempt, 'viewer-a');
    const fields = { code, redirect_uri: attempt.redirectUri, code_verifier: attempt.verifier };
    const first = await exchangeCode(api.url, fields);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const second = await exchangeCode(api.url, fields);
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
  });

  test.each([
    ['another verifier', (_attempt: SignInAttempt) => ({ code_verifier: signInAttempt(api.url).verifier })],
    [
      'another redirect_uri',
      (attempt: SignInAttempt) => ({ redirect_uri: attempt.redirectUri.replace('127.0.0.1', 'localhost') }),
    ],
  ])('with %s: invalid_grant', async (_case, change) => {
    const attempt = signInAttempt(api.url);
    const code = await signInCode(api.url, attempt, 'viewer-a');
    const answer = await exchangeCode(api.url, {
      code,
      redirect_uri: attempt.redirectUri,
      code_verifier: attempt.verifier,
      ...change(attempt),
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ error: 'invalid_grant' });
  });
});

describe("a person's token at the API", () => {
  test.each([
    ['merchant-admin-a', 'sandbox-client-a', allScopes],
    ['viewer-a', 'sandbox-client-a', readScopes],
    ['merchant-admin-b', 'sandbox-client-b', allScopes],
  ])('%s works for %s with its scopes', async (username, tenant, scopes) => {
    const claims = decodeJwt(await personToken(api.url, username));
    expect(claims).toMatchObject({ client_id: DASHBOARD_CLIENT_ID, tenant, sub: username });
    expect(String(claims['scope']).split(' ')).toEqual(scopes);
  });

  test("tenant A's people see tenant A's codes; tenant B's person sees none of them", async () => {
    for (const username of ['merchant-admin-a', 'viewer-a']) {
      const token = await personToken(api.url, username);
      const list = await api.request('GET', '/v1/qrcodes', { token });
      expect(list.status).toBe(200);
      expect(list.body.qr_codes.map((code: { id: string }) => code.id)).toEqual([qrCodeOfA]);
      expect((await api.request('GET', `/v1/qrcodes/${qrCodeOfA}`, { token })).status).toBe(200);
    }
    const tokenB = await personToken(api.url, 'merchant-admin-b');
    const listB = await api.request('GET', '/v1/qrcodes', { token: tokenB });
    expect(listB.body).toMatchObject({ qr_codes: [], pagination_info: { total_elements: 0 } });
    expectProblem(await api.request('GET', `/v1/qrcodes/${qrCodeOfA}`, { token: tokenB }), 403, 'FORBIDDEN');
  });

  test("what a person creates belongs to the tenant, not to the dashboard's client", async () => {
    const admin = await personToken(api.url, 'merchant-admin-a');
    const created = await api.request('POST', '/v1/qrcodes', {
      token: admin,
      body: {
        key_id: merchantA.keyId,
        customer_id: merchantA.customerId,
        type: 'STATIC',
        channel: 'APP',
        qr_code_reference: 'SIGNIN2',
      },
    });
    expect(created.status).toBe(200);
    const machineA = await api.token('sandbox-client-a');
    expect((await api.request('GET', `/v1/qrcodes/${created.body.id}`, { token: machineA })).status).toBe(200);
  });

  test('the viewer cannot write: 403 INSUFFICIENT_SCOPE naming the scope', async () => {
    const viewer = await personToken(api.url, 'viewer-a');
    const refused = await api.request('DELETE', `/v1/qrcodes/${qrCodeOfA}`, { token: viewer });
    expectProblem(refused, 403, 'INSUFFICIENT_SCOPE');
    expect(refused.body.detail).toMatch(/^This operation needs the scope breb\/qrcodes\.write;/);
    const machineA = await api.token('sandbox-client-a');
    const still = await api.request('GET', `/v1/qrcodes/${qrCodeOfA}`, { token: machineA });
    expect(still.body.status).toBe('ACTIVE');
  });

  test('a token naming a tenant but signed by another key is refused', async () => {
    const admin = decodeJwt(await personToken(api.url, 'merchant-admin-b'));
    const impostor = await LocalIssuer.create({ issuer: api.runtime.issuer.issuer });
    const forged = await impostor.sign({ ...admin, tenant: 'sandbox-client-a' });
    expectProblem(await api.request('GET', '/v1/qrcodes', { token: forged }), 401, 'UNAUTHORIZED');
  });
});
