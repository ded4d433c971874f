/**
 * The dashboard's code outside the browser: the claims it reads from a person's token.
 */
import { decodeJwtClaims } from '../../dashboard/src/token-claims';

describe("a token's claims", () => {
  /** A JWT as an issuer writes it: base64url of the UTF-8 JSON, unpadded (the signature is not read). */
  const tokenWith = (claims: object) =>
    ['{"alg":"RS256"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.') +
    '.signature';

  test('are read as UTF-8: names with accents and ñ come out as written', () => {
    const claims = { username: 'josé', name: 'Peña Ñúñez', tenant: 'tienda-bogotá', scope: 'qrcodes.read', exp: 1 };
    // A jti whose bytes make the payload use both of base64url's own characters, so both are turned back.
    const token = tokenWith({ ...claims, jti: '???>>>' });
    expect(token.split('.')[1]).toMatch(/-/);
    expect(token.split('.')[1]).toMatch(/_/);
    expect(decodeJwtClaims(token)).toEqual({ ...claims, jti: '???>>>' });
  });
});
