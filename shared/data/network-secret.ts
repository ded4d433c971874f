/**
 * The network connector's signing secrets (docs/network.md, "Signatures"): the stage's Secrets
 * Manager secret `{"current": "<base64>", "previous"?: "<base64>", "previous_expires_at"?: "<ISO>",
 * "signing_keys"?: [{"kid", "private_key_pem"}]}`. `current` and `previous` are Standard Webhooks
 * secrets `whsec_<value>` (a sandbox stage's in-process simulator): both sign and verify until
 * `previous_expires_at` (a rotation sets it 24 h ahead). `signing_keys` are our Ed25519 keys (a
 * connector stage's RFC 9421 signatures): the first signs, every one is published at
 * `GET /network/v1/keys`, so a new key is added first and the old one removed once the bank reads it.
 * Read once per five minutes at most (secret-values.ts), as the QR keys are. The local runtime
 * passes one `whsec_` value in NETWORK_SECRET and one key in NETWORK_SIGNING_KEY instead.
 */
import type { SigningKey } from '../domain/message-signatures';
import { ENV } from '../runtime/config';
import { secretString } from './secret-values';

export interface NetworkSecretValue {
  readonly current: string;
  readonly previous?: string;
  readonly previous_expires_at?: string;
  readonly signing_keys?: readonly SigningKey[];
}

/** One of `signing_keys` as stored: its kid and its PKCS#8 PEM (checked where it signs). */
function signingKeyOf(value: unknown): SigningKey {
  const { kid, private_key_pem: pem } = (value ?? {}) as Record<string, unknown>;
  if (typeof kid !== 'string' || typeof pem !== 'string' || !pem.includes('PRIVATE KEY')) {
    throw new Error('Each of the network secret\'s "signing_keys" needs "kid" and "private_key_pem" (PKCS#8 PEM)');
  }
  return { kid, privateKeyPem: pem };
}

const WHSEC = 'whsec_';
/** Base64 of at least 24 bytes: HMAC-SHA256 keys should carry well over 128 bits. */
const MIN_SECRET_LENGTH = 32;

const asWhsec = (value: string): string => (value.startsWith(WHSEC) ? value : `${WHSEC}${value}`);

export function parseNetworkSecret(json: string): NetworkSecretValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('The network secret is not JSON: expected {"current": "...", "previous"?: "...", ...}');
  }
  const {
    current,
    previous,
    previous_expires_at: expiresAt,
    signing_keys: keys,
  } = (parsed ?? {}) as Record<string, unknown>;
  if (keys !== undefined && !Array.isArray(keys)) throw new Error('The network secret\'s "signing_keys" is a list');
  const signing = keys === undefined ? {} : { signing_keys: keys.map(signingKeyOf) };
  const usable = (value: unknown): value is string =>
    typeof value === 'string' && value.replace(WHSEC, '').length >= MIN_SECRET_LENGTH;
  if (!usable(current))
    throw new Error(`The network secret needs "current" of at least ${MIN_SECRET_LENGTH} characters`);
  if (previous === undefined) return { current, ...signing };
  if (!usable(previous) || typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) {
    throw new Error('The network secret\'s "previous" needs a usable value and "previous_expires_at" (ISO 8601)');
  }
  return { current, previous, previous_expires_at: expiresAt, ...signing };
}

/** The secrets that sign and verify at `nowMs`: the current one, and the previous one until it expires. */
export function signingSecrets(value: NetworkSecretValue, nowMs: number): readonly string[] {
  const previousValid =
    value.previous !== undefined &&
    value.previous_expires_at !== undefined &&
    Date.parse(value.previous_expires_at) > nowMs;
  return previousValid ? [asWhsec(value.current), asWhsec(value.previous!)] : [asWhsec(value.current)];
}

/**
 * The secret's value: the local literals, else the stage's secret (read once per five minutes at
 * most: secret-values.ts).
 */
async function networkSecretValue(env: NodeJS.ProcessEnv): Promise<NetworkSecretValue> {
  const literal = env[ENV.networkSecret];
  if (literal) {
    const key = env[ENV.networkSigningKey];
    const signingKeys = key ? [JSON.parse(key) as unknown] : undefined;
    return parseNetworkSecret(JSON.stringify({ current: literal, signing_keys: signingKeys }));
  }
  const arn = env[ENV.networkSecretArn];
  if (!arn) throw new Error(`Neither ${ENV.networkSecretArn} nor ${ENV.networkSecret} is set: no network secret`);
  return parseNetworkSecret(await secretString(arn));
}

/** The `whsec_` secrets valid now. */
export async function networkSecrets(
  env: NodeJS.ProcessEnv = process.env,
  nowMs = Date.now(),
): Promise<readonly string[]> {
  return signingSecrets(await networkSecretValue(env), nowMs);
}

/** Our Ed25519 keys, the one that signs first: none on a stage that never signs for the network. */
export async function publishedSigningKeys(env: NodeJS.ProcessEnv = process.env): Promise<readonly SigningKey[]> {
  return (await networkSecretValue(env)).signing_keys ?? [];
}

/** Our Ed25519 keys, the one that signs first; throws when the stage has none (a connector stage needs one). */
export async function networkSigningKeys(env: NodeJS.ProcessEnv = process.env): Promise<readonly SigningKey[]> {
  const keys = await publishedSigningKeys(env);
  if (keys.length === 0) {
    throw new Error(
      'The network secret has no "signing_keys": a connector stage signs with one (docs/network.md, "Signatures")',
    );
  }
  return keys;
}
