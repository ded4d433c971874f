/**
 * What the local server says when it refuses a request's token: the RFC 6750 challenge of the
 * `WWW-Authenticate` header and the problem's `detail`, which say the same thing. A client developer
 * reads either one to learn which check failed and what to do next, so each names the value the
 * token carries and the endpoint that gives a good one.
 */

/** Why a token was refused (401). `missing` means the request sent none. */
export type TokenFault =
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  /** `algorithm` when the header names one this API does not accept (e.g. `none`). */
  | { readonly kind: 'signature'; readonly algorithm?: string }
  | { readonly kind: 'expired'; readonly expiredAt: Date }
  | { readonly kind: 'not-yet-valid'; readonly notBefore: Date }
  /** `issuer` is the token's `iss`, undefined when it has none. */
  | { readonly kind: 'issuer'; readonly issuer: unknown }
  /** `audience` is the `aud` (or, without one, the `client_id`) the token names. */
  | { readonly kind: 'audience'; readonly audience: unknown };

export interface Refusal {
  readonly detail: string;
  readonly challenge: string;
}

const GET_A_TOKEN = 'POST /oauth2/token';
const MAX_SHOWN = 80;

/**
 * A value from the token, fit to quote: RFC 6750 allows only printable ASCII without `"` and `\` in
 * error_description, and a header value must not break the line. The value is the client's own, but
 * shortened: a kilobyte of `iss` helps nobody.
 */
function shown(value: unknown): string {
  const text = Array.isArray(value)
    ? value.map(String).join(', ')
    : ((typeof value === 'string' ? value : JSON.stringify(value)) ?? String(value));
  const safe = text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return safe.length > MAX_SHOWN ? `${safe.slice(0, MAX_SHOWN)}...` : safe;
}

/** A JWT's NumericDate as an ISO 8601 UTC timestamp to the second (the claim's precision). */
const instant = (date: Date): string => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The sentence for each fault; `expectedIssuer` is the `iss` this API accepts (its own setting). */
export function describeTokenFault(fault: TokenFault, expectedIssuer: string): string {
  switch (fault.kind) {
    case 'missing':
      return `The request carries no access token; send one as Authorization: Bearer <token>, from ${GET_A_TOKEN}`;
    case 'malformed':
      return (
        'The access token is not a JWT (three Base64url parts: header.payload.signature); ' +
        `send the access_token of ${GET_A_TOKEN} unchanged`
      );
    case 'signature':
      return fault.algorithm !== undefined
        ? `The access token is signed with alg ${shown(fault.algorithm)}; this API accepts RS256 only: ` +
            `get a token from ${GET_A_TOKEN}`
        : "The access token's signature does not verify with the issuer's keys (GET /.well-known/jwks.json): " +
            `it was altered or signed by someone else; get a new one from ${GET_A_TOKEN}`;
    case 'expired':
      return `The access token expired at ${instant(fault.expiredAt)}; get a new one from ${GET_A_TOKEN}`;
    case 'not-yet-valid':
      return (
        `The access token is not valid before ${instant(fault.notBefore)} (nbf); ` +
        "wait until then, or correct the issuer's clock"
      );
    case 'issuer':
      return (
        (fault.issuer === undefined
          ? 'The access token names no issuer (iss)'
          : `The access token was issued by ${shown(fault.issuer)}`) +
        `; this API accepts tokens of ${expectedIssuer} only: get one from ${GET_A_TOKEN}`
      );
    case 'audience':
      return (
        (fault.audience === undefined
          ? 'The access token names no audience (aud) and no client_id'
          : `The access token is for ${shown(fault.audience)}, which is not a client of this API`) +
        `; get a token with your client's credentials from ${GET_A_TOKEN}`
      );
  }
}

/**
 * The answer to a refused token. RFC 6750 section 3.1: a request without a token gets the bare
 * challenge (it may not know it needs one, so no error code); any other gets `invalid_token`.
 */
export function tokenRefusal(fault: TokenFault, expectedIssuer: string): Refusal {
  const detail = describeTokenFault(fault, expectedIssuer);
  return {
    detail,
    challenge: fault.kind === 'missing' ? 'Bearer' : `Bearer error="invalid_token", error_description="${detail}"`,
  };
}

/** The 403 of a valid token without the route's scope: RFC 6750's `insufficient_scope`, naming it. */
export function scopeRefusal(needed: readonly string[], carried: readonly string[]): Refusal {
  const detail =
    `This operation needs the scope ${needed.join(' or ')}; the access token carries ` +
    `${carried.length ? carried.map(shown).join(' ') : 'none'}: get a token with it from ${GET_A_TOKEN} ` +
    '(the client must be granted the scope)';
  return {
    detail,
    challenge: `Bearer error="insufficient_scope", error_description="${detail}", scope="${needed.join(' ')}"`,
  };
}
