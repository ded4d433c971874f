/**
 * The Standard Webhooks v1 signature (docs/webhooks.md, "Signature"): an HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` keyed with the base64 part of each `whsec_` secret. A receiver verifies
 * it with any Standard Webhooks library; during a rotation every signing secret signs, so the header
 * holds one signature per secret, separated by spaces.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

export interface SignedHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/** `v1,<base64 HMAC-SHA256>` of one message under one `whsec_` secret. */
export function signatureOf(secret: string, message: string): string {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error('A webhook secret starts with whsec_');
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return `v1,${createHmac('sha256', key).update(message).digest('base64')}`;
}

/**
 * The three headers of a message `id` sent at `timestamp` (Unix seconds) with `body`, signed by each
 * of `secrets` (at least one).
 */
export function signedHeaders(id: string, timestamp: number, body: string, secrets: readonly string[]): SignedHeaders {
  if (secrets.length === 0) throw new Error(`Message ${id} has no secret to be signed with`);
  const message = `${id}.${timestamp}.${body}`;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, message)).join(' '),
  };
}

/** A signed message older (or further ahead) than this is refused: a captured request cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck = { readonly valid: true } | { readonly valid: false; readonly reason: string };

/**
 * Checks a message received with Standard Webhooks headers: its timestamp within the tolerance of
 * `nowSeconds`, and one of its `v1` signatures made by one of `secrets` (during a rotation, either the
 * new secret or the old one). Signatures are compared in constant time.
 */
export function verifySignedMessage(
  headers: Readonly<Record<string, string | undefined>>,
  body: string,
  secrets: readonly string[],
  nowSeconds: number,
): SignatureCheck {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signatures = headers['webhook-signature'];
  if (!id || !timestamp || !signatures) {
    return { valid: false, reason: 'webhook-id, webhook-timestamp and webhook-signature are required' };
  }
  if (!/^\d{1,12}$/.test(timestamp)) return { valid: false, reason: 'webhook-timestamp is not Unix seconds' };
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) {
    return { valid: false, reason: `webhook-timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} s away from now` };
  }
  const message = `${id}.${timestamp}.${body}`;
  const expected = secrets.map((secret) => Buffer.from(signatureOf(secret, message)));
  const matches = signatures
    .split(' ')
    .map((signature) => Buffer.from(signature))
    .some((given) => expected.some((wanted) => wanted.length === given.length && timingSafeEqual(wanted, given)));
  return matches ? { valid: true } : { valid: false, reason: 'No signature matches a current secret' };
}
