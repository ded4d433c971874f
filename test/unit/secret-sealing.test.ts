/**
 * The envelope of sealed secrets (shared/data/secret-sealing.ts), over the local key service: a
 * sealed value holds nothing of the secrets, opens for its owner only, refuses a tampered envelope,
 * and reuses an opened data key (one unwrap per key within the cache's time). A plain list stored
 * before sealing existed is refused: `npm run secrets:reseal` seals it (test/integration/secret-reseal.test.ts).
 * KMS is asked with exactly the context keys the key policy demands (infra/constructs/secret-key-policy.ts).
 */
import { randomBytes } from 'node:crypto';
import type { KMSClient } from '@aws-sdk/client-kms';
import {
  CLEAR_SECRETS_REFUSED,
  DATA_KEY_CACHE_MS,
  ENCRYPTION_CONTEXT_KEYS,
  envelopeSealer,
  kmsKeyService,
  localKeyService,
  type KeyService,
} from '../../shared/data/secret-sealing';
import type { SealedSecrets } from '../../shared/domain/webhooks';

const owner = { tenant: 'client-a', owner: '7d7c5a1e-0000-4000-8000-000000000001' };
const secrets = [
  { secret: 'whsec_Y3VycmVudC1zZWNyZXQtMjQtYnl0ZXMhIQ==' },
  { secret: 'whsec_cHJldmlvdXMtc2VjcmV0LTI0LWJ5dGVzISE=', expires_at: '2026-11-26T10:00:00.000Z' },
];

/** The local key service, counting its unwraps. */
function countingKeys() {
  const keys = localKeyService(randomBytes(32));
  const counted = { unwraps: 0 };
  const service: KeyService = {
    generateDataKey: (context) => keys.generateDataKey(context),
    unwrapDataKey: (wrapped, context) => {
      counted.unwraps += 1;
      return keys.unwrapDataKey(wrapped, context);
    },
  };
  return { service, counted };
}

test('sealed, nothing of the secrets shows; opened by its owner, they come back whole', async () => {
  const sealer = envelopeSealer(countingKeys().service);
  const sealed = await sealer.seal(secrets, owner);
  for (const { secret } of secrets) {
    expect(sealed).not.toContain(secret);
    expect(sealed).not.toContain(secret.slice('whsec_'.length));
  }
  expect(await sealer.open(sealed, owner)).toEqual(secrets);
  // Two seals of the same secrets differ (a fresh data key and nonce each time).
  expect(await sealer.seal(secrets, owner)).not.toBe(sealed);
});

test('another tenant, another owner, another key, or a changed byte: it does not open', async () => {
  const { service } = countingKeys();
  const sealed = await envelopeSealer(service).seal(secrets, owner);
  await expect(envelopeSealer(service).open(sealed, { ...owner, tenant: 'client-b' })).rejects.toThrow();
  await expect(envelopeSealer(service).open(sealed, { ...owner, owner: 'inbound-approval' })).rejects.toThrow();
  await expect(envelopeSealer(countingKeys().service).open(sealed, owner)).rejects.toThrow();
  const envelope = JSON.parse(sealed) as { data: string };
  const data = Buffer.from(envelope.data, 'base64');
  data[0]! ^= 1;
  const tampered: SealedSecrets = JSON.stringify({ ...envelope, data: data.toString('base64') });
  await expect(envelopeSealer(service).open(tampered, owner)).rejects.toThrow();
});

test('an opened data key is reused for a while, then unwrapped again', async () => {
  let now = 0;
  const { service, counted } = countingKeys();
  const sealer = envelopeSealer(service, () => now);
  const sealed = await sealer.seal(secrets, owner);
  await sealer.open(sealed, owner);
  await sealer.open(sealed, owner);
  expect(counted.unwraps).toBe(1);
  now += DATA_KEY_CACHE_MS + 1;
  await sealer.open(sealed, owner);
  expect(counted.unwraps).toBe(2);
  // Nor does a cached key open it for another owner: the context is the GCM's associated data too.
  await expect(sealer.open(sealed, { ...owner, tenant: 'client-b' })).rejects.toThrow();
});

test('a plain list stored before sealing is refused, naming the command that seals it', async () => {
  const sealer = envelopeSealer(countingKeys().service);
  await expect(sealer.open(secrets as unknown as SealedSecrets, owner)).rejects.toThrow(CLEAR_SECRETS_REFUSED);
  expect(CLEAR_SECRETS_REFUSED).toContain('npm run secrets:reseal');
});

test('KMS is asked with the encryption context the key policy demands: tenant and owner, nothing else', async () => {
  const inputs: Record<string, any>[] = [];
  // One data key: GenerateDataKey answers it with a wrapped blob, Decrypt answers it back.
  const dataKey = randomBytes(32);
  const client = {
    send: async (command: { input: Record<string, any> }) => {
      inputs.push(command.input);
      return { Plaintext: dataKey, CiphertextBlob: randomBytes(64) };
    },
  } as unknown as KMSClient;
  const sealer = envelopeSealer(kmsKeyService('arn:aws:kms:us-east-1:111122223333:key/k', client));
  expect(await sealer.open(await sealer.seal(secrets, owner), owner)).toEqual(secrets);
  // GenerateDataKey, then Decrypt.
  expect(inputs.map((input) => 'KeySpec' in input)).toEqual([true, false]);
  for (const input of inputs) {
    expect(input['KeyId']).toBe('arn:aws:kms:us-east-1:111122223333:key/k');
    expect(Object.keys(input['EncryptionContext']).sort()).toEqual([...ENCRYPTION_CONTEXT_KEYS].sort());
    expect(input['EncryptionContext']).toEqual(owner);
  }
});
