/**
 * A person's sign-in at the local issuer (docs/dashboard.md): /oauth2/authorize with PKCE, then the
 * code exchanged at /oauth2/token. Each refusal a browser or an attacker could meet is here.
 */
import { randomBytes } from 'node:crypto';
import { allScopes, readScopes } from '../../functions/routes';
import { AuthorizationCodes, CODE_LIFETIME_MS, s256 } from '../../infra/local/authorization-codes';
import { answerAuthorizeRequest, type AuthorizeAnswer } from '../../infra/local/authorize-endpoint';
import { LocalIssuer } from '../../infra/local/oauth';
import { DASHBOARD_CLIENT_ID, dashboardClient, SANDBOX_PEOPLE } from '../../infra/local/people';
import { answerTokenRequest } from '../../infra/local/token-endpoint';

const ISSUER = 'http://127.0.0.1:3999';
const REDIRECT_URI = `${ISSUER}/dashboard/`;
const FORM = 'application/x-www-form-urlencoded';

let issuer: LocalIssuer;
beforeAll(async () => {
  issuer = await LocalIssuer.create({ issuer: ISSUER });
});

const newVerifier = (): string => randomBytes(32).toString('base64url');

/** The parameters the dashboard sends to /oauth2/authorize. */
const authorizeParameters = (verifier: string, changes: Record<string, string | undefined> = {}) => {
  const parameters: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: DASHBOARD_CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
    state: 'state-123',
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
    ...changes,
  };
  return new URLSearchParams(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
};

const authorizeGet = (parameters: URLSearchParams): AuthorizeAnswer =>
  answerAuthorizeRequest(issuer, 'GET', parameters, undefined, '');

/** The sign-in form sent: the request's parameters, username and password. */
function signIn(username: string, password: string, parameters: URLSearchParams): AuthorizeAnswer {
  const form = new URLSearchParams(parameters);
  form.set('username', username);
  form.set('password', password);
  return answerAuthorizeRequest(issuer, 'POST', new URLSearchParams(), FORM, form.toString());
}

const locationOf = (answer: AuthorizeAnswer): URL => new URL(answer.headers['location']!);

/** Signs a sandbox person in and answers the code of the redirect. */
function codeFor(username: string, verifier: string): string {
  const person = SANDBOX_PEOPLE.find((p) => p.username === username)!;
  const answer = signIn(person.username, person.password, authorizeParameters(verifier));
  expect(answer.status).toBe(302);
  return locationOf(answer).searchParams.get('code')!;
}

const exchange = (fields: Record<string, string>, authorization?: string) =>
  answerTokenRequest(
    issuer,
    FORM,
    authorization,
    new URLSearchParams({ grant_type: 'authorization_code', client_id: DASHBOARD_CLIENT_ID, ...fields }).toString(),
  );

describe('GET /oauth2/authorize', () => {
  test('serves the sign-in form, which carries the request back and runs no script', () => {
    const answer = authorizeGet(authorizeParameters(newVerifier()));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/<label for="username">Username<\/label>/);
    expect(answer.body).toMatch(/<label for="password">Password<\/label>/);
    expect(answer.body).toMatch(/<button type="submit">Sign in<\/button>/);
    expect(answer.body).toContain('<input type="hidden" name="state" value="state-123">');
    expect(answer.body).not.toMatch(/<script/i);
    expect(answer.headers['content-security-policy']).toMatch(/default-src 'none'.*frame-ancestors 'none'/);
  });

  test('a state with markup is written as text, not markup', () => {
    const answer = authorizeGet(authorizeParameters(newVerifier(), { state: '"><script>alert(1)</script>' }));
    expect(answer.body).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(answer.body).not.toContain('<script>');
  });

  test.each([
    ['an unknown client_id', { client_id: 'sandbox-client-a' }, /client_id names no client/],
    ['no client_id', { client_id: undefined }, /client_id names no client/],
    ['an unregistered redirect_uri', { redirect_uri: 'https://evil.example/dashboard/' }, /redirect_uri is not/],
    ['a redirect_uri that only starts like a registered one', { redirect_uri: `${REDIRECT_URI}x` }, /redirect_uri/],
  ])('%s: a page that says so, and no redirect', (_case, changes, detail) => {
    const answer = authorizeGet(authorizeParameters(newVerifier(), changes));
    expect(answer.status).toBe(400);
    expect(answer.headers['location']).toBeUndefined();
    expect(answer.body).toMatch(detail);
  });

  test.each([
    [
      'no code_challenge (PKCE missing)',
      { code_challenge: undefined },
      'invalid_request',
      /code_challenge is required/,
    ],
    ['the plain method', { code_challenge_method: 'plain' }, 'invalid_request', /must be S256/],
    ['no method (plain by default)', { code_challenge_method: undefined }, 'invalid_request', /must be S256/],
    ['a challenge that is no SHA-256', { code_challenge: 'short' }, 'invalid_request', /43 characters/],
    ['the implicit flow', { response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
  ])('%s: back to the client with the error and its state', (_case, changes, error, description) => {
    const answer = authorizeGet(authorizeParameters(newVerifier(), changes));
    expect(answer.status).toBe(302);
    const location = locationOf(answer);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toMatch(description);
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.has('code')).toBe(false);
  });

  test('both names of the local server are registered; the dashboard client is in the audience', () => {
    expect(dashboardClient('http://127.0.0.1:3000').redirectUris).toEqual([
      'http://127.0.0.1:3000/dashboard/',
      'http://localhost:3000/dashboard/',
    ]);
    expect(issuer.audience).toContain(DASHBOARD_CLIENT_ID);
  });
});

describe('POST /oauth2/authorize (the sign-in form)', () => {
  test.each(SANDBOX_PEOPLE.map((p) => [p.username, p] as const))(
    '%s: redirected with a code and the state',
    (_name, person) => {
      const answer = signIn(person.username, person.password, authorizeParameters(newVerifier()));
      expect(answer.status).toBe(302);
      const location = locationOf(answer);
      expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location.searchParams.get('state')).toBe('state-123');
      expect(answer.headers['cache-control']).toBe('no-store');
    },
  );

  test.each([
    ['a wrong password', 'merchant-admin-a', 'sandbox-password-b'],
    ['another person’s password', 'viewer-a', 'sandbox-password-a'],
    ['an unknown person', 'nobody', 'sandbox-password-a'],
    ['an empty password', 'merchant-admin-a', ''],
  ])('%s: the form again, saying so, and no code', (_case, username, password) => {
    const answer = signIn(username, password, authorizeParameters(newVerifier()));
    expect(answer.status).toBe(401);
    expect(answer.headers['location']).toBeUndefined();
    expect(answer.body).toContain(
      '<p class="error" role="alert">Incorrect username or password. <span lang="es">Usuario o contraseña incorrectos.</span></p>',
    );
    expect(answer.body).toContain(`value="${username}"`);
  });

  test('a form whose parameters were tampered with is checked again', () => {
    const parameters = authorizeParameters(newVerifier(), { redirect_uri: 'https://evil.example/' });
    const answer = signIn('merchant-admin-a', 'sandbox-password-a', parameters);
    expect(answer.status).toBe(400);
    expect(answer.headers['location']).toBeUndefined();
  });
});

describe('POST /oauth2/token, grant_type=authorization_code', () => {
  test.each(SANDBOX_PEOPLE.map((p) => [p.username, p] as const))(
    '%s: an access token with the tenant and the person’s scopes',
    async (_name, person) => {
      const verifier = newVerifier();
      const code = codeFor(person.username, verifier);
      const answer = await exchange({ code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      const { claims, scopes } = await issuer.verify(answer.body['access_token'] as string);
      expect(claims).toMatchObject({
        sub: person.username,
        username: person.username,
        client_id: DASHBOARD_CLIENT_ID,
        tenant: person.tenant,
        token_use: 'access',
      });
      expect(scopes).toEqual(person.username === 'viewer-a' ? readScopes : allScopes);
    },
  );

  test('a code is good for one exchange: the second is refused', async () => {
    const verifier = newVerifier();
    const code = codeFor('merchant-admin-a', verifier);
    const fields = { code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    expect((await exchange(fields)).status).toBe(200);
    expect(await exchange(fields)).toEqual({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The code is unknown or was already used: sign in again' },
    });
  });

  test('a wrong verifier is refused, and spends the code', async () => {
    const verifier = newVerifier();
    const code = codeFor('merchant-admin-a', verifier);
    const wrong = await exchange({ code, redirect_uri: REDIRECT_URI, code_verifier: newVerifier() });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier is missing or does not match the code_challenge of the sign-in',
    });
    const right = await exchange({ code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(right.body['error']).toBe('invalid_grant');
  });

  test.each([
    ['no verifier', { code_verifier: undefined }, /code_verifier is missing/],
    ['the challenge sent as the verifier', { code_verifier: 'CHALLENGE' }, /code_verifier/],
    ['another redirect_uri', { redirect_uri: 'http://localhost:3999/dashboard/' }, /redirect_uri is not the one/],
    ['no redirect_uri', { redirect_uri: undefined }, /redirect_uri is not the one/],
    ['a made-up code', { code: 'A'.repeat(43) }, /unknown or was already used/],
  ])('%s: invalid_grant', async (_case, changes, description) => {
    const verifier = newVerifier();
    const code = codeFor('viewer-a', verifier);
    const fields: Record<string, string | undefined> = {
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...changes,
    };
    if (fields['code_verifier'] === 'CHALLENGE') fields['code_verifier'] = s256(verifier);
    const sent = Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));
    const answer = await exchange(sent);
    expect(answer.status).toBe(400);
    expect(answer.body['error']).toBe('invalid_grant');
    expect(answer.body['error_description']).toMatch(description);
  });

  test('a secret is refused: the public client has none to send', async () => {
    const verifier = newVerifier();
    const code = codeFor('merchant-admin-a', verifier);
    const fields = { code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const withSecret = await exchange({ ...fields, client_secret: 'sandbox-secret-a' });
    expect(withSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const basic = `Basic ${Buffer.from(`${DASHBOARD_CLIENT_ID}:x`).toString('base64')}`;
    expect(await exchange(fields, basic)).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });

  test('a code given to another client is refused; the dashboard cannot ask for client credentials', async () => {
    const verifier = newVerifier();
    const code = codeFor('merchant-admin-a', verifier);
    const asMachine = await exchange({
      client_id: 'sandbox-client-a',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(asMachine).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const credentials = await answerTokenRequest(
      issuer,
      FORM,
      undefined,
      `grant_type=client_credentials&client_id=${DASHBOARD_CLIENT_ID}`,
    );
    expect(credentials).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
  });
});

describe('AuthorizationCodes', () => {
  const grant = {
    clientId: DASHBOARD_CLIENT_ID,
    redirectUri: REDIRECT_URI,
    person: SANDBOX_PEOPLE[0]!,
  };

  test('a code expires a minute after its sign-in', () => {
    let now = 1_000_000;
    const codes = new AuthorizationCodes(() => now);
    const verifier = newVerifier();
    const late = codes.issue({ ...grant, codeChallenge: s256(verifier) });
    const inTime = codes.issue({ ...grant, codeChallenge: s256(verifier) });
    now += CODE_LIFETIME_MS - 1;
    expect(codes.exchange(inTime, DASHBOARD_CLIENT_ID, REDIRECT_URI, verifier)).toEqual({
      grant: { ...grant, codeChallenge: s256(verifier) },
    });
    now += 1;
    expect(codes.exchange(late, DASHBOARD_CLIENT_ID, REDIRECT_URI, verifier)).toEqual({ refused: 'expired code' });
  });

  test('every code is new', () => {
    const codes = new AuthorizationCodes();
    const issued = new Set(Array.from({ length: 50 }, () => codes.issue({ ...grant, codeChallenge: 'x' })));
    expect(issued.size).toBe(50);
  });
});
