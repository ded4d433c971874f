/**
 * Envelope encryption of the secrets the API signs with (webhooks, inbound approval, and the network
 * connector's when it comes): each record's secrets are encrypted with a fresh AES-256-GCM data key,
 * and the data key is stored encrypted under the stage's customer-managed KMS key, with an
 * encryption context of the record's tenant and owner. KMS refuses to decrypt the data key under any
 * other context, and the same context is the GCM's associated data, so a sealed value copied onto
 * another tenant's record opens nowhere. Only the functions whose entry declares `sealing: ['open']`
 * may call kms:Decrypt (functions/routes/, functions/workers.ts).
 *
 * Locally (no KMS) the data key is encrypted with AES-256-GCM under a key the local runtime keeps in
 * its data folder: the same envelope, the same code, another key service.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import type { SealedSecrets, SecretOwner, SecretSealer, WebhookSecret } from '../domain/webhooks';
import { ENV } from '../runtime/config';

/** What holds the key that wraps the data keys: KMS on AWS, a local key otherwise. */
export interface KeyService {
  generateDataKey(context: Record<string, string>): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrapDataKey(wrapped: Buffer, context: Record<string, string>): Promise<Buffer>;
}

/** The stored form (JSON): version, wrapped data key, GCM nonce and ciphertext with its tag, Base64. */
interface Envelope {
  readonly v: 1;
  readonly key: string;
  readonly iv: string;
  readonly data: string;
}

const GCM_TAG_BYTES = 16;
/** How long an opened data key is reused: a busy sender does not call KMS per delivery. */
export const DATA_KEY_CACHE_MS = 5 * 60_000;
const DATA_KEY_CACHE_SIZE = 1_000;

/**
 * The keys of the encryption context, and only these: the key policy (infra/constructs/secret-key-policy.ts)
 * refuses a sealing call whose context has any other key or lacks one of them.
 */
export const ENCRYPTION_CONTEXT_KEYS = ['tenant', 'owner'] as const;

export const encryptionContext = (owner: SecretOwner): Record<(typeof ENCRYPTION_CONTEXT_KEYS)[number], string> => ({
  tenant: owner.tenant,
  owner: owner.owner,
});

/** The context as GCM's associated data: the same bytes whatever the order of its keys. */
const associatedData = (context: Record<string, string>): Buffer =>
  Buffer.from(JSON.stringify(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1))));

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): { iv: Buffer; data: Buffer } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(aad);
  const data = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv, data };
}

function decrypt(key: Buffer, iv: Buffer, data: Buffer, aad: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv).setAAD(aad);
  decipher.setAuthTag(data.subarray(data.length - GCM_TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(0, data.length - GCM_TAG_BYTES)), decipher.final()]);
}

const isPlainList = (stored: unknown): stored is readonly WebhookSecret[] => Array.isArray(stored);

/**
 * Why a plain list is refused, and what to do: the operator command that seals every one in place
 * (tools/secrets-reseal.ts, docs/operations.md, "The secret key").
 */
export const CLEAR_SECRETS_REFUSED =
  'Signing secrets stored in clear (from before sealing) are refused: run `npm run secrets:reseal` against the stage';

/** The sealer over a key service, caching opened data keys for DATA_KEY_CACHE_MS. */
export function envelopeSealer(keys: KeyService, nowMs: () => number = Date.now): SecretSealer {
  const opened = new Map<string, { readonly key: Buffer; readonly until: number }>();
  async function dataKey(wrapped: string, context: Record<string, string>): Promise<Buffer> {
    const cacheKey = `${JSON.stringify(context)}|${wrapped}`;
    const hit = opened.get(cacheKey);
    if (hit && hit.until > nowMs()) return hit.key;
    const key = await keys.unwrapDataKey(Buffer.from(wrapped, 'base64'), context);
    if (opened.size >= DATA_KEY_CACHE_SIZE) opened.delete(opened.keys().next().value!);
    opened.set(cacheKey, { key, until: nowMs() + DATA_KEY_CACHE_MS });
    return key;
  }
  return {
    async seal(secrets: readonly WebhookSecret[], owner: SecretOwner): Promise<SealedSecrets> {
      const context = encryptionContext(owner);
      const { plaintext, wrapped } = await keys.generateDataKey(context);
      const { iv, data } = encrypt(plaintext, Buffer.from(JSON.stringify(secrets)), associatedData(context));
      const envelope: Envelope = {
        v: 1,
        key: wrapped.toString('base64'),
        iv: iv.toString('base64'),
        data: data.toString('base64'),
      };
      return JSON.stringify(envelope);
    },
    async open(sealed: SealedSecrets, owner: SecretOwner): Promise<WebhookSecret[]> {
      // Stored before sealing existed: the plain list. Refused, always: a secret in clear in the table
      // is one that whoever reads the table can sign with. The reseal seals every such list in place.
      if (isPlainList(sealed)) throw new Error(CLEAR_SECRETS_REFUSED);
      const envelope = JSON.parse(sealed) as Envelope;
      if (envelope.v !== 1) throw new Error(`Unknown sealed secrets version ${String(envelope.v)}`);
      const context = encryptionContext(owner);
      const key = await dataKey(envelope.key, context);
      const plain = decrypt(
        key,
        Buffer.from(envelope.iv, 'base64'),
        Buffer.from(envelope.data, 'base64'),
        associatedData(context),
      );
      return JSON.parse(plain.toString('utf8')) as WebhookSecret[];
    },
  };
}

/** KMS: GenerateDataKey (AES_256) and Decrypt under the stage's key, with the record's context. */
export function kmsKeyService(keyArn: string, client: KMSClient = new KMSClient({ maxAttempts: 3 })): KeyService {
  return {
    async generateDataKey(context) {
      const answer = await client.send(
        new GenerateDataKeyCommand({ KeyId: keyArn, KeySpec: 'AES_256', EncryptionContext: context }),
      );
      return { plaintext: Buffer.from(answer.Plaintext!), wrapped: Buffer.from(answer.CiphertextBlob!) };
    },
    async unwrapDataKey(wrapped, context) {
      // KeyId pins the key: a blob wrapped under any other key is refused, not decrypted.
      const answer = await client.send(
        new DecryptCommand({ KeyId: keyArn, CiphertextBlob: wrapped, EncryptionContext: context }),
      );
      return Buffer.from(answer.Plaintext!);
    },
  };
}

/** The local key service: data keys wrapped with AES-256-GCM under `masterKey`, bound to the context. */
export function localKeyService(masterKey: Buffer): KeyService {
  if (masterKey.length !== 32) throw new Error('The local secret key must be 32 bytes');
  return {
    generateDataKey(context) {
      const plaintext = randomBytes(32);
      const { iv, data } = encrypt(masterKey, plaintext, associatedData(context));
      return Promise.resolve({ plaintext, wrapped: Buffer.concat([iv, data]) });
    },
    unwrapDataKey(wrapped, context) {
      return Promise.resolve(
        decrypt(masterKey, wrapped.subarray(0, 12), wrapped.subarray(12), associatedData(context)),
      );
    },
  };
}

/** One sealer (and its cache of data keys) per key, for the life of the process. */
let processSealer: { readonly key: string; readonly sealer: SecretSealer } | undefined;

/**
 * The function's sealer: KMS when SECRET_KEY_ARN is set (the stack sets it on the functions that
 * declare `sealing`), the local key when LOCAL_SECRET_KEY is; a function with neither cannot seal.
 */
export function secretSealer(env: NodeJS.ProcessEnv = process.env): SecretSealer {
  const keyArn = env[ENV.secretKeyArn];
  const localKey = env[ENV.localSecretKey];
  const key = keyArn ?? localKey;
  if (!key) {
    throw new Error(`Neither ${ENV.secretKeyArn} nor ${ENV.localSecretKey} is set: this function cannot seal secrets`);
  }
  if (processSealer?.key !== key) {
    const keys = keyArn ? kmsKeyService(keyArn) : localKeyService(Buffer.from(key, 'base64'));
    processSealer = { key, sealer: envelopeSealer(keys) };
  }
  return processSealer.sealer;
}
