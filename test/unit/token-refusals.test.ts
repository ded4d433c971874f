/**
 * What a refused token's answer says (the local server's 401 and 403): one sentence per failed check,
 * in the problem's detail and, as RFC 6750 asks, in the WWW-Authenticate challenge.
 */
import { scopeRefusal, tokenRefusal, type TokenFault } from '../../infra/local/token-refusals';

const ISSUER = 'http://127.0.0.1:3000';
/** RFC 6750 section 3: error_description is printable ASCII without `"` and `\`. */
const INVALID_TOKEN_CHALLENGE = /^Bearer error="invalid_token", error_description="([\x20\x21\x23-\x5b\x5d-\x7e]*)"$/;

describe('tokenRefusal', () => {
  test('no token: the bare challenge, without an error code (RFC 6750 section 3.1)', () => {
    expect(tokenRefusal({ kind: 'missing' }, ISSUER)).toEqual({
      detail: 'The request carries no access token; send one as Authorization: Bearer <token>, from POST /oauth2/token',
      challenge: 'Bearer',
    });
  });

  test.each<[string, TokenFault, string]>([
    [
      'malformed',
      { kind: 'malformed' },
      'The access token is not a JWT (three Base64url parts: header.payload.signature); ' +
        'send the access_token of POST /oauth2/token unchanged',
    ],
    [
      'bad signature',
      { kind: 'signature' },
      "The access token's signature does not verify with the issuer's keys (GET /.well-known/jwks.json): " +
        'it was altered or signed by someone else; get a new one from POST /oauth2/token',
    ],
    [
      'an algorithm other than RS256',
      { kind: 'signature', algorithm: 'none' },
      'The access token is signed with alg none; this API accepts RS256 only: get a token from POST /oauth2/token',
    ],
    [
      'expired',
      { kind: 'expired', expiredAt: new Date('2026-11-23T10:00:00Z') },
      'The access token expired at 2026-11-23T10:00:00Z; get a new one from POST /oauth2/token',
    ],
    [
      'not yet valid',
      { kind: 'not-yet-valid', notBefore: new Date('2026-11-23T10:10:00Z') },
      "The access token is not valid before 2026-11-23T10:10:00Z (nbf); wait until then, or correct the issuer's clock",
    ],
    [
      'another issuer',
      { kind: 'issuer', issuer: 'https://issuer.example.com' },
      'The access token was issued by https://issuer.example.com; ' +
        `this API accepts tokens of ${ISSUER} only: get one from POST /oauth2/token`,
    ],
    [
      'no issuer',
      { kind: 'issuer', issuer: undefined },
      `The access token names no issuer (iss); this API accepts tokens of ${ISSUER} only: get one from POST /oauth2/token`,
    ],
    [
      'another audience',
      { kind: 'audience', audience: 'unknown-client' },
      'The access token is for unknown-client, which is not a client of this API; ' +
        "get a token with your client's credentials from POST /oauth2/token",
    ],
    [
      'several audiences, none ours',
      { kind: 'audience', audience: ['https://a.example.com', 'https://b.example.com'] },
      'The access token is for https://a.example.com, https://b.example.com, which is not a client of this API; ' +
        "get a token with your client's credentials from POST /oauth2/token",
    ],
    [
      'no audience',
      { kind: 'audience', audience: undefined },
      'The access token names no audience (aud) and no client_id; ' +
        "get a token with your client's credentials from POST /oauth2/token",
    ],
  ])('%s: invalid_token, the header and the detail in the same words', (_, fault, detail) => {
    const refusal = tokenRefusal(fault, ISSUER);
    expect(refusal.detail).toBe(detail);
    expect(refusal.challenge).toBe(`Bearer error="invalid_token", error_description="${detail}"`);
    expect(refusal.challenge).toMatch(INVALID_TOKEN_CHALLENGE);
  });

  test.each<[string, TokenFault]>([
    ['an issuer', { kind: 'issuer', issuer: 'https://evil.example.com/"\r\nSet-Cookie: a=b\\ñ' + 'x'.repeat(500) }],
    ['an audience', { kind: 'audience', audience: { nested: '"quoted"' } }],
    ['an algorithm', { kind: 'signature', algorithm: 'RS"256\n' }],
  ])("%s from the token cannot break the header's quoting or length", (_, fault) => {
    const { challenge, detail } = tokenRefusal(fault, ISSUER);
    expect(challenge).toMatch(INVALID_TOKEN_CHALLENGE);
    expect(INVALID_TOKEN_CHALLENGE.exec(challenge)?.[1]).toBe(detail);
    expect(detail.length).toBeLessThan(300);
  });
});

describe('scopeRefusal', () => {
  test('insufficient_scope names the scope needed and the scopes the token carries', () => {
    const refusal = scopeRefusal(['breb/customers.write'], ['breb/customers.read', 'breb/accounts.read']);
    expect(refusal.detail).toBe(
      'This operation needs the scope breb/customers.write; the access token carries breb/customers.read ' +
        'breb/accounts.read: get a token with it from POST /oauth2/token (the client must be granted the scope)',
    );
    expect(refusal.challenge).toBe(
      `Bearer error="insufficient_scope", error_description="${refusal.detail}", scope="breb/customers.write"`,
    );
  });

  test('a token without scopes is said to carry none', () => {
    expect(scopeRefusal(['breb/keys.read'], []).detail).toMatch(
      /^This operation needs the scope breb\/keys\.read; the access token carries none:/,
    );
  });
});
