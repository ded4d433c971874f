/**
 * The network connector's signing secrets (docs/network.md, "Signatures"): the stage's Secrets
 * Manager secret `{"current": "<base64>", "previous"?: "<base64>", "previous_expires_at"?: "<ISO>"}`,
 * each used as the Standard Webhooks secret `whsec_<value>`. Both sign and verify until
 * `previous_expires_at` (a rotation sets it 24 h ahead), so the bank switches without a gap. Read once
 * per five minutes at most, as the QR keys are. The local runtime passes one `whsec_` value in
 * NETWORK_SECRET instead.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ENV } from '../runtime/config';

export interface NetworkSecretValue {
  readonly current: string;
  readonly previous?: string;
  readonly previous_expires_at?: string;
}

const WHSEC = 'whsec_';
/** Base64 of at least 24 bytes: HMAC-SHA256 keys should carry well over 128 bits. */
const MIN_SECRET_LENGTH = 32;
const SECRETS_TTL_MS = 5 * 60_000;

const asWhsec = (value: string): string => (value.startsWith(WHSEC) ? value : `${WHSEC}${value}`);

export function parseNetworkSecret(json: string): NetworkSecretValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new Error('The network secret is not JSON: expected {"current": "...", "previous"?: "...", ...}');
  }
  const { current, previous, previous_expires_at: expiresAt } = (parsed ?? {}) as Record<string, unknown>;
  const usable = (value: unknown): value is string =>
    typeof value === 'string' && value.replace(WHSEC, '').length >= MIN_SECRET_LENGTH;
  if (!usable(current))
    throw new Error(`The network secret needs "current" of at least ${MIN_SECRET_LENGTH} characters`);
  if (previous === undefined) return { current };
  if (!usable(previous) || typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) {
    throw new Error('The network secret\'s "previous" needs a usable value and "previous_expires_at" (ISO 8601)');
  }
  return { current, previous, previous_expires_at: expiresAt };
}

/** The secrets that sign and verify at `nowMs`: the current one, and the previous one until it expires. */
export function signingSecrets(value: NetworkSecretValue, nowMs: number): readonly string[] {
  const previousValid =
    value.previous !== undefined &&
    value.previous_expires_at !== undefined &&
    Date.parse(value.previous_expires_at) > nowMs;
  return previousValid ? [asWhsec(value.current), asWhsec(value.previous!)] : [asWhsec(value.current)];
}

let secretsManager: SecretsManagerClient | undefined;
let cached: { readonly value: NetworkSecretValue; readonly until: number; readonly source: string } | undefined;

async function readSecretValue(env: NodeJS.ProcessEnv): Promise<NetworkSecretValue> {
  const literal = env[ENV.networkSecret];
  if (literal) return parseNetworkSecret(JSON.stringify({ current: literal }));
  const arn = env[ENV.networkSecretArn];
  if (!arn) throw new Error(`Neither ${ENV.networkSecretArn} nor ${ENV.networkSecret} is set: no network secret`);
  secretsManager ??= new SecretsManagerClient({ maxAttempts: 3 });
  const { SecretString } = await secretsManager.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!SecretString) throw new Error(`The secret ${arn} has no string value`);
  return parseNetworkSecret(SecretString);
}

/** The `whsec_` secrets valid now, from the cache while it is fresh and its source unchanged. */
export async function networkSecrets(
  env: NodeJS.ProcessEnv = process.env,
  nowMs = Date.now(),
): Promise<readonly string[]> {
  const source = `${env[ENV.networkSecret] ?? ''}|${env[ENV.networkSecretArn] ?? ''}`;
  if (cached?.source !== source || nowMs >= cached.until) {
    cached = { value: await readSecretValue(env), until: nowMs + SECRETS_TTL_MS, source };
  }
  return signingSecrets(cached.value, nowMs);
}
