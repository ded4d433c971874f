/**
 * Tag 91: an HMAC-SHA256, keyed with a per-environment secret, over the payload text that precedes
 * tag 91, i.e. from tag 00 through the end of tag 90 as written (ASCII bytes). Written as 64
 * lower-case hex digits (the case real Bre-B payloads use). Tag 91 must be followed by tag 63 and
 * nothing else, so the signature covers every field but the CRC.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SigningSecret = string | Buffer;

const HEX_64 = /^[0-9a-fA-F]{64}$/;

export function signPayload(signedText: string, secret: SigningSecret): string {
  return createHmac('sha256', secret).update(signedText, 'utf8').digest('hex');
}

/** Constant-time comparison; any case of hex is accepted, anything but 64 hex digits is invalid. */
export function verifySignature(signedText: string, signature: string, secret: SigningSecret): boolean {
  if (!HEX_64.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(signedText, 'utf8').digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export function assertSecret(secret: SigningSecret | undefined, name = 'signingSecret'): void {
  if (secret === undefined || secret.length === 0) throw new TypeError(`${name} must not be empty`);
}
