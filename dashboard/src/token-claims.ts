/**
 * A JWT's claims, unverified: the API checks the token, the page only reads it. On its own, with
 * no browser global but atob and TextDecoder, so a unit test under Node type-checks it too.
 */

/**
 * The payload is base64url of UTF-8 JSON; atob gives one character per byte, so the bytes are
 * decoded as UTF-8 (a name like "josé" would otherwise read "josÃ©").
 */
export function decodeJwtClaims(token: string): Record<string, unknown> {
  const payload = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(payload), (byte) => byte.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
}
