/**
 * The local OAuth2 issuer verifies tokens as API Gateway's JWT authorizer does, and its token
 * endpoint answers like Cognito's (docs/sandbox.md).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { allScopes, readScopes, SCOPES, scopesFor } from '../../functions/routes';
import {
  LocalIssuer,
  SANDBOX_CLIENTS,
  TOKEN_LIFETIME_SECONDS,
  TokenRejected,
  type OAuthClient,
} from '../../infra/local/oauth';
import { answerTokenRequest } from '../../infra/local/token-endpoint';

const ISSUER = 'http://issuer.test';
const FORM = 'application/x-www-form-urlencoded';

function sandboxClient(clientId: string): OAuthClient {
  const client = SANDBOX_CLIENTS.find((c) => c.clientId === clientId);
  if (!client) throw new Error(`No sandbox client ${clientId}`);
  return client;
}

const clientA = sandboxClient('sandbox-client-a');
const readonlyClient = sandboxClient('sandbox-client-readonly');
const base64url = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const basic = (id: string, secret: string): string => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

let issuer: LocalIssuer;
beforeAll(async () => {
  issuer = await LocalIssuer.create({ issuer: ISSUER });
});

/** The token is refused, for the reason `fault` (the check of API Gateway's authorizer it fails). */
async function expectRejected(token: string, fault: TokenRejected['fault']): Promise<void> {
  const refusal = issuer.verify(token);
  await expect(refusal).rejects.toBeInstanceOf(TokenRejected);
  await expect(refusal).rejects.toEqual(expect.objectContaining({ fault }));
}

describe('LocalIssuer', () => {
  test('an issued token verifies and carries the access-token claims', async () => {
    const token = await issuer.issueAccessToken(clientA, [SCOPES.customersRead]);
    const { claims, scopes } = await issuer.verify(token);
    expect(scopes).toEqual([SCOPES.customersRead]);
    expect(claims).toMatchObject({
      iss: ISSUER,
      sub: clientA.clientId,
      client_id: clientA.clientId,
      scope: SCOPES.customersRead,
      token_use: 'access',
      jti: expect.any(String),
      iat: expect.any(Number),
      exp: expect.any(Number),
    });
    expect(claims.exp! - claims.iat!).toBe(TOKEN_LIFETIME_SECONDS);
    expect(Math.abs(claims.iat! - nowSeconds())).toBeLessThanOrEqual(5);
  });

  test('the token header names RS256 and the kid published in the JWKS', async () => {
    const header = decodeProtectedHeader(await issuer.issueAccessToken(clientA, allScopes));
    const [publicKey] = issuer.jwks().keys;
    expect(header).toMatchObject({ alg: 'RS256', typ: 'JWT', kid: publicKey?.kid });
    expect(publicKey).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    // The JWKS is public: no private members of the RSA key.
    expect(publicKey).not.toHaveProperty('d');
    expect(publicKey).not.toHaveProperty('p');
  });

  test('every token has its own jti', async () => {
    const first = decodeJwt(await issuer.issueAccessToken(clientA, allScopes));
    const second = decodeJwt(await issuer.issueAccessToken(clientA, allScopes));
    expect(first.jti).not.toBe(second.jti);
  });

  test('an expired token is rejected, with its exp', async () => {
    const token = await issuer.sign({ client_id: clientA.clientId, scope: SCOPES.customersRead }, -10);
    await expectRejected(token, { kind: 'expired', expiredAt: new Date(decodeJwt(token).exp! * 1000) });
  });

  test('a token not valid yet (nbf in the future) is rejected, with its nbf', async () => {
    const nbf = nowSeconds() + 600;
    await expectRejected(await issuer.sign({ client_id: clientA.clientId, nbf }), {
      kind: 'not-yet-valid',
      notBefore: new Date(nbf * 1000),
    });
  });

  test('a token of another issuer instance (another key) is rejected', async () => {
    const other = await LocalIssuer.create({ issuer: ISSUER });
    await expectRejected(await other.issueAccessToken(clientA, allScopes), { kind: 'signature' });
  });

  test('a token signed by another key under our kid is rejected (the signature is checked)', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const kid = issuer.jwks().keys[0]?.kid;
    const forged = await new SignJWT({ client_id: clientA.clientId, scope: allScopes.join(' ') })
      .setProtectedHeader({ alg: 'RS256', kid: kid! })
      .setIssuer(ISSUER)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectRejected(forged, { kind: 'signature' });
  });

  test('a token naming another issuer is rejected', async () => {
    await expectRejected(await issuer.sign({ iss: 'http://other-issuer.test', client_id: clientA.clientId }), {
      kind: 'issuer',
      issuer: 'http://other-issuer.test',
    });
  });

  test('a token without iss is rejected for naming no issuer', async () => {
    await expectRejected(await issuer.sign({ iss: undefined, client_id: clientA.clientId }), {
      kind: 'issuer',
      issuer: undefined,
    });
  });

  test('a signed token whose exp is not a NumericDate is malformed', async () => {
    await expectRejected(await issuer.sign({ client_id: clientA.clientId, exp: 'tomorrow' }), { kind: 'malformed' });
  });

  test('a client_id outside the audience is rejected', async () => {
    await expectRejected(await issuer.sign({ client_id: 'stranger', sub: 'stranger' }), {
      kind: 'audience',
      audience: 'stranger',
    });
  });

  test('an aud naming a known client is accepted without client_id, an unknown one is not', async () => {
    await expect(issuer.verify(await issuer.sign({ aud: clientA.clientId }))).resolves.toBeDefined();
    await expectRejected(await issuer.sign({ aud: 'stranger' }), { kind: 'audience', audience: 'stranger' });
  });

  test('an aud outside the audience is rejected even with a known client_id (API Gateway reads aud first)', async () => {
    await expectRejected(await issuer.sign({ aud: 'https://other-api.test', client_id: clientA.clientId }), {
      kind: 'audience',
      audience: 'https://other-api.test',
    });
  });

  test("an unsigned token (alg 'none') is rejected", async () => {
    const header = base64url({ alg: 'none', typ: 'JWT' });
    const payload = base64url({
      iss: ISSUER,
      sub: clientA.clientId,
      client_id: clientA.clientId,
      scope: allScopes.join(' '),
      iat: nowSeconds(),
      exp: nowSeconds() + 3600,
    });
    await expectRejected(`${header}.${payload}.`, { kind: 'signature', algorithm: 'none' });
  });

  test('a tampered payload is rejected', async () => {
    const [header, , signature] = (await issuer.issueAccessToken(readonlyClient, [SCOPES.customersRead])).split('.');
    const payload = base64url({
      iss: ISSUER,
      client_id: readonlyClient.clientId,
      scope: allScopes.join(' '),
      exp: nowSeconds() + 3600,
    });
    await expectRejected(`${header}.${payload}.${signature}`, { kind: 'signature' });
  });

  test.each(['', 'not-a-jwt', 'a.b.c'])('garbage %j is rejected', async (token) => {
    await expectRejected(token, { kind: 'malformed' });
  });

  test('authenticate checks the secret', () => {
    expect(issuer.authenticate(clientA.clientId, clientA.clientSecret)).toBe(clientA);
    expect(issuer.authenticate(clientA.clientId, 'wrong')).toBeUndefined();
    expect(issuer.authenticate(clientA.clientId, readonlyClient.clientSecret)).toBeUndefined();
    expect(issuer.authenticate('stranger', clientA.clientSecret)).toBeUndefined();
  });

  describe('keyFile', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'breb-oauth-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test('two issuers with the same key file verify each other’s tokens', async () => {
      const keyFile = join(dir, 'signing-key.json');
      const first = await LocalIssuer.create({ issuer: ISSUER, keyFile });
      const second = await LocalIssuer.create({ issuer: ISSUER, keyFile });
      expect(second.jwks()).toEqual(first.jwks());
      await expect(second.verify(await first.issueAccessToken(clientA, allScopes))).resolves.toBeDefined();
      await expect(first.verify(await second.issueAccessToken(clientA, allScopes))).resolves.toBeDefined();
      // ...while an issuer without the file has a key of its own.
      await expectRejected(await first.issueAccessToken(clientA, allScopes), { kind: 'signature' });
    });

    test('the key file is readable by its owner only', async () => {
      const keyFile = join(dir, 'private.json');
      await LocalIssuer.create({ issuer: ISSUER, keyFile });
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    });
  });
});

describe('answerTokenRequest', () => {
  const grant = 'grant_type=client_credentials';

  async function tokenScopes(answer: { body: Record<string, unknown> }): Promise<readonly string[]> {
    return (await issuer.verify(String(answer.body['access_token']))).scopes;
  }

  test('client credentials by HTTP Basic', async () => {
    const answer = await answerTokenRequest(issuer, FORM, basic(clientA.clientId, clientA.clientSecret), grant);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
    });
    const { claims, scopes } = await issuer.verify(String(answer.body['access_token']));
    expect(claims['client_id']).toBe(clientA.clientId);
    expect([...scopes].sort()).toEqual([...allScopes].sort());
  });

  test('client credentials as form fields, with a charset in the content type', async () => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientA.clientId,
      client_secret: clientA.clientSecret,
    });
    const answer = await answerTokenRequest(issuer, `${FORM}; charset=UTF-8`, undefined, form.toString());
    expect(answer.status).toBe(200);
    expect((await issuer.verify(String(answer.body['access_token']))).claims['client_id']).toBe(clientA.clientId);
  });

  test.each([
    ['a wrong secret by Basic', basic(clientA.clientId, 'wrong-secret'), grant],
    ['a wrong secret as form field', undefined, `${grant}&client_id=${clientA.clientId}&client_secret=wrong`],
    ['an unknown client', basic('stranger', 'whatever'), grant],
    ['no credentials at all', undefined, grant],
  ])('%s is 401 invalid_client', async (_what, authorization, body) => {
    const answer = await answerTokenRequest(issuer, FORM, authorization, body);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: 'invalid_client' });
    expect(answer.body).not.toHaveProperty('access_token');
  });

  test.each(['grant_type=password', ''])('%j is 400 unsupported_grant_type', async (body) => {
    const answer = await answerTokenRequest(issuer, FORM, basic(clientA.clientId, clientA.clientSecret), body);
    expect(answer).toMatchObject({ status: 400, body: { error: 'unsupported_grant_type' } });
  });

  test('a client with a secret may not use the authorization code grant: 400 unauthorized_client', async () => {
    const body = 'grant_type=authorization_code&code=x&redirect_uri=x&code_verifier=x';
    const answer = await answerTokenRequest(issuer, FORM, basic(clientA.clientId, clientA.clientSecret), body);
    expect(answer).toMatchObject({ status: 400, body: { error: 'unauthorized_client' } });
  });

  test('a requested subset of the client’s scopes is what the token carries', async () => {
    const answer = await answerTokenRequest(
      issuer,
      FORM,
      basic(clientA.clientId, clientA.clientSecret),
      `${grant}&scope=${encodeURIComponent(SCOPES.customersRead)}`,
    );
    expect(answer.status).toBe(200);
    expect(await tokenScopes(answer)).toEqual([SCOPES.customersRead]);
  });

  test('the read-only client gets read scopes only by default', async () => {
    const answer = await answerTokenRequest(
      issuer,
      FORM,
      basic(readonlyClient.clientId, readonlyClient.clientSecret),
      grant,
    );
    expect(await tokenScopes(answer)).toEqual([
      SCOPES.customersRead,
      SCOPES.accountsRead,
      SCOPES.keysRead,
      SCOPES.qrCodesRead,
      SCOPES.paymentsRead,
      SCOPES.webhooksRead,
      SCOPES.auditRead,
    ]);
  });

  test('no read-only principal may resolve keys or operate the sandbox: those scopes are not read scopes', () => {
    expect(readScopes).not.toContain(SCOPES.keysResolve);
    expect(readScopes).not.toContain(SCOPES.sandboxOperate);
    expect(scopesFor('full')).toEqual(expect.arrayContaining([SCOPES.keysResolve, SCOPES.sandboxOperate]));
  });

  test('a scope beyond the client’s (read-only client asking to write) is 400 invalid_scope', async () => {
    const scope = encodeURIComponent(`${SCOPES.customersRead} ${SCOPES.customersWrite}`);
    const answer = await answerTokenRequest(
      issuer,
      FORM,
      basic(readonlyClient.clientId, readonlyClient.clientSecret),
      `${grant}&scope=${scope}`,
    );
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(answer.body).not.toHaveProperty('access_token');
  });

  test('an unknown scope is 400 invalid_scope', async () => {
    const answer = await answerTokenRequest(
      issuer,
      FORM,
      basic(clientA.clientId, clientA.clientSecret),
      `${grant}&scope=breb/admin`,
    );
    expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  test.each(['application/json', 'text/plain', undefined])(
    'content type %j is 400 invalid_request',
    async (contentType) => {
      const answer = await answerTokenRequest(
        issuer,
        contentType,
        basic(clientA.clientId, clientA.clientSecret),
        grant,
      );
      expect(answer).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    },
  );
});
