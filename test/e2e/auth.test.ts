/**
 * The local server checks tokens the way API Gateway's JWT authorizer does, and routes like it.
 * Each case below is a token a real client could send.
 */
import { decodeJwt } from 'jose';
import { LocalIssuer } from '../../infra/local/oauth';
import { readScopes, SCOPES } from '../../functions/routes';
import { startTestApi, type TestApi } from '../support/local-api';
import { base64url, claimsOf } from '../support/tokens';

let api: TestApi;
const CUSTOMER = '/v1/customers/7d7c5a1e-0000-4000-8000-000000000000';

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.stop());

/** A client's claims with the one scope these checks need. */
const claimsWith = (clientId: string, scope: string = SCOPES.customersRead) => claimsOf(clientId, [scope]);

describe('tokens (401)', () => {
  /** A bad Authorization header (none when undefined) and the detail its refusal must give. */
  interface Rejection {
    readonly authorization?: string;
    readonly detail: string | RegExp;
  }
  const GET_A_TOKEN = 'get a new one from POST /oauth2/token';
  const NOT_SENT =
    'The request carries no access token; send one as Authorization: Bearer <token>, from POST /oauth2/token';
  const BAD_SIGNATURE =
    /^The access token's signature does not verify with the issuer's keys \(GET \/\.well-known\/jwks\.json\)/;
  /** A NumericDate claim of the token as the answer writes it. */
  const claimAt = (token: string, claim: 'exp' | 'nbf'): string =>
    new Date(Number(decodeJwt(token)[claim]) * 1000).toISOString().replace('.000Z', 'Z');
  const signed = (claims: Record<string, unknown>, lifetimeSeconds?: number) =>
    api.runtime.issuer.sign(claims, lifetimeSeconds);

  const rejected: [string, () => Promise<Rejection>][] = [
    ['no Authorization header', async () => ({ detail: NOT_SENT })],
    ['an empty bearer', async () => ({ authorization: 'Bearer ', detail: NOT_SENT })],
    [
      'a token that is not a JWT',
      async () => ({ authorization: 'Bearer not.a.jwt', detail: /^The access token is not a JWT \(three Base64url/ }),
    ],
    [
      'a token signed by another key',
      async () => {
        const impostor = await LocalIssuer.create({ issuer: api.runtime.issuer.issuer });
        return {
          authorization: `Bearer ${await impostor.sign(claimsWith('sandbox-client-a'))}`,
          detail: BAD_SIGNATURE,
        };
      },
    ],
    [
      'an expired token',
      async () => {
        const token = await signed(claimsWith('sandbox-client-a'), -60);
        return {
          authorization: `Bearer ${token}`,
          detail: `The access token expired at ${claimAt(token, 'exp')}; ${GET_A_TOKEN}`,
        };
      },
    ],
    [
      'a token not valid yet',
      async () => {
        const token = await signed({ ...claimsWith('sandbox-client-a'), nbf: Math.floor(Date.now() / 1000) + 600 });
        return {
          authorization: `Bearer ${token}`,
          detail: `The access token is not valid before ${claimAt(token, 'nbf')} (nbf); wait until then, or correct the issuer's clock`,
        };
      },
    ],
    [
      'a token of another issuer',
      async () => ({
        authorization: `Bearer ${await signed({ ...claimsWith('sandbox-client-a'), iss: 'https://issuer.example.com' })}`,
        detail:
          'The access token was issued by https://issuer.example.com; ' +
          `this API accepts tokens of ${api.runtime.issuer.issuer} only: get one from POST /oauth2/token`,
      }),
    ],
    [
      'a token for a client outside the audience',
      async () => ({
        authorization: `Bearer ${await signed(claimsWith('unknown-client'))}`,
        detail:
          'The access token is for unknown-client, which is not a client of this API; ' +
          "get a token with your client's credentials from POST /oauth2/token",
      }),
    ],
    [
      'a token whose aud names another API, with a client_id of ours',
      async () => ({
        authorization: `Bearer ${await signed({ ...claimsWith('sandbox-client-a'), aud: 'https://api.example.com' })}`,
        detail: /^The access token is for https:\/\/api\.example\.com, which is not a client of this API;/,
      }),
    ],
    [
      'an unsigned token (alg none)',
      async () => {
        const now = Math.floor(Date.now() / 1000);
        const payload = { ...claimsWith('sandbox-client-a'), iss: api.runtime.issuer.issuer, iat: now, exp: now + 600 };
        return {
          authorization: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`,
          detail:
            'The access token is signed with alg none; this API accepts RS256 only: get a token from POST /oauth2/token',
        };
      },
    ],
    [
      'a valid token whose payload was altered',
      async () => {
        const [header, , signature] = (await api.token('sandbox-client-readonly')).split('.');
        const forged = base64url({
          ...claimsWith('sandbox-client-a', SCOPES.customersWrite),
          iss: api.runtime.issuer.issuer,
        });
        return { authorization: `Bearer ${header}.${forged}.${signature}`, detail: BAD_SIGNATURE };
      },
    ],
  ];

  it.each(rejected)('rejects %s, saying why', async (_, rejection) => {
    const { authorization, detail } = await rejection();
    const answer = await api.request('GET', CUSTOMER, { headers: authorization ? { authorization } : {} });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHORIZED');
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body.detail).toEqual(typeof detail === 'string' ? detail : expect.stringMatching(detail));
    // RFC 6750 section 3.1: no error code for a request that sent no token; the header and body agree.
    expect(answer.headers.get('www-authenticate')).toBe(
      detail === NOT_SENT ? 'Bearer' : `Bearer error="invalid_token", error_description="${answer.body.detail}"`,
    );
  });

  it('accepts a valid token with or without the word Bearer, as API Gateway does', async () => {
    const token = await api.token('sandbox-client-a');
    expect((await api.request('GET', CUSTOMER, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    expect((await api.request('GET', CUSTOMER, { headers: { authorization: token } })).status).toBe(404);
  });
});

describe('scopes (403)', () => {
  it('refuses a POST to the read-only client', async () => {
    const answer = await api.request('POST', '/v1/customers/business/link', {
      token: await api.token('sandbox-client-readonly'),
      body: {},
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('INSUFFICIENT_SCOPE');
    expect(answer.body.detail).toBe(
      `This operation needs the scope ${SCOPES.customersWrite}; the access token carries ${readScopes.join(' ')}: ` +
        'get a token with it from POST /oauth2/token (the client must be granted the scope)',
    );
    expect(answer.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="${answer.body.detail}", scope="${SCOPES.customersWrite}"`,
    );
  });

  it('lets the read-only client read', async () => {
    const answer = await api.request('GET', CUSTOMER, { token: await api.token('sandbox-client-readonly') });
    expect(answer.status).toBe(404);
  });

  it('honours a token asked for with fewer scopes', async () => {
    const readOnly = await api.token('sandbox-client-a', SCOPES.customersRead);
    const answer = await api.request('POST', '/v1/customers/business/link', { token: readOnly, body: {} });
    expect(answer.status).toBe(403);
  });

  it('admits to the sandbox operator routes only a token with breb/sandbox.operate', async () => {
    const body = { identification_type: 'NIT', identification_number: '812345678', business_name: 'Operador' };
    const approve = async (token: string) => api.request('POST', '/sandbox/sponsor-bank/merchants', { token, body });
    expect((await approve(await api.token('sandbox-client-readonly'))).status).toBe(403);
    expect((await approve(await api.token('sandbox-client-a', SCOPES.sandboxOperate))).status).toBe(201);
  });
});

describe('token endpoint', () => {
  const tokenRequest = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${api.url}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });

  it('issues a Cognito-shaped access token for form credentials', async () => {
    const answer = await tokenRequest(
      'grant_type=client_credentials&client_id=sandbox-client-b&client_secret=sandbox-secret-b',
    );
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const [header, payload] = String(body['access_token'])
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    const jwks = (await (await fetch(`${api.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(header).toMatchObject({ alg: 'RS256', kid: jwks.keys[0]!.kid });
    expect(payload).toMatchObject({
      iss: api.url,
      sub: 'sandbox-client-b',
      client_id: 'sandbox-client-b',
      token_use: 'access',
      jti: expect.any(String),
    });
    expect(payload.exp - payload.iat).toBe(3600);
  });

  it('refuses a wrong secret with invalid_client', async () => {
    const answer = await tokenRequest('grant_type=client_credentials', {
      authorization: `Basic ${Buffer.from('sandbox-client-a:wrong').toString('base64')}`,
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'invalid_client' });
  });
});

describe('routing', () => {
  it('answers 404 ROUTE_NOT_FOUND for an unknown path', async () => {
    const answer = await api.request('GET', '/v1/unknown', { token: await api.token('sandbox-client-a') });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('ROUTE_NOT_FOUND');
  });

  it('answers 405 with Allow for a known path and another method', async () => {
    const answer = await api.request('DELETE', '/v1/customers/business/link', {
      token: await api.token('sandbox-client-a'),
    });
    expect(answer.status).toBe(405);
    expect(answer.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(answer.headers.get('allow')).toBe('POST');
  });
});
