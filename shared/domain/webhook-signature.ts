/**
 * The Standard Webhooks v1 signature (docs/webhooks.md, "Signature"): an HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` keyed with the base64 part of each `whsec_` secret. A receiver verifies
 * it with any Standard Webhooks library; during a rotation every signing secret signs, so the header
 * holds one signature per secret, separated by spaces.
 */
import { createHmac } from 'node:crypto';

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
