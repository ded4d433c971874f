/**
 * The QR signing keys (README: rotating the QR signing key): the stage's Secrets Manager secret
 * `{"current": "...", "previous": "..."}`. New codes are signed with `current`; a signature verifies
 * with `current` or `previous`. Read once per five minutes at most, so a rotation reaches every
 * function within five minutes without a redeploy. The local runtime, which has no Secrets Manager,
 * passes the same JSON in QR_SIGNING_SECRET; with an endpoint override (LocalStack) the ARN works
 * as in AWS.
 */
import type { DecodeSettings } from '../domain/qrcodes';
import type { EmvSettings } from '../qr/emv-input';
import { ENV, runtimeConfig } from '../runtime/config';
import { secretString } from './secret-values';

export interface QrSigningKeys {
  readonly current: string;
  readonly previous?: string;
}

/** Keys shorter than this are refused: HMAC-SHA256 keys should carry at least 128 bits. */
export const MIN_SIGNING_KEY_LENGTH = 16;

export function parseSigningKeys(json: string): QrSigningKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('The QR signing secret is not JSON: expected {"current": "...", "previous"?: "..."}');
  }
  const { current, previous } = (parsed ?? {}) as Record<string, unknown>;
  const usable = (value: unknown): value is string =>
    typeof value === 'string' && value.length >= MIN_SIGNING_KEY_LENGTH;
  if (!usable(current)) {
    throw new Error(`The QR signing secret needs "current": a string of at least ${MIN_SIGNING_KEY_LENGTH} characters`);
  }
  if (previous !== undefined && !usable(previous)) {
    throw new Error(
      `The QR signing secret's "previous" must be a string of at least ${MIN_SIGNING_KEY_LENGTH} characters`,
    );
  }
  return previous === undefined ? { current } : { current, previous };
}

/** Every key a signature may verify with, current first. */
export const verificationKeys = (keys: QrSigningKeys): readonly string[] =>
  keys.previous === undefined ? [keys.current] : [keys.current, keys.previous];

/** The keys: the local literal, else the secret's (read once per five minutes at most: secret-values.ts). */
export async function qrSigningKeys(env: NodeJS.ProcessEnv = process.env): Promise<QrSigningKeys> {
  const literal = env[ENV.qrSigningSecret];
  if (literal) return parseSigningKeys(literal);
  const arn = env[ENV.qrSigningSecretArn];
  if (!arn) {
    throw new Error(
      `Neither ${ENV.qrSigningSecretArn} nor ${ENV.qrSigningSecret} is set: this route has no QR signing key`,
    );
  }
  return parseSigningKeys(await secretString(arn));
}

/** What the encoder needs to create a code: the stage's acquirer and the current signing key. */
export async function emvSettings(): Promise<EmvSettings> {
  return { acquirerId: runtimeConfig().acquirerId, signingSecret: (await qrSigningKeys()).current };
}

/** What the decoder needs to check our signatures: the acquirer and every key still valid. */
export async function decodeSettings(): Promise<DecodeSettings> {
  return { acquirerId: runtimeConfig().acquirerId, verificationKeys: verificationKeys(await qrSigningKeys()) };
}
