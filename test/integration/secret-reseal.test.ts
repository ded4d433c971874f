/**
 * The reseal (tools/secrets-reseal.ts, `npm run secrets:reseal`) against DynamoDB Local: webhook and
 * inbound approval secrets stored in clear (as before sealing) are sealed in place, for their record,
 * unchanged (a delivery signed with them verifies with the same secret); what was sealed already is
 * not touched; a second run finds nothing; a clear list met after that is refused, naming the
 * command; and a rotation racing the reseal, either way round, is kept.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ENV } from '../../shared/runtime/config';
import type { SecretSealer, StoredWebhook, WebhookSecret } from '../../shared/domain/webhooks';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let tool: typeof import('../../tools/secrets-reseal');
let webhooks: typeof import('../../shared/domain/webhooks');
let approvals: typeof import('../../shared/domain/inbound-approval');
let reseal: typeof import('../../shared/domain/secret-reseal');
let signatures: typeof import('../../shared/domain/webhook-signature');
let store: typeof import('../../shared/data/webhooks-repository').dynamoWebhookStore;
let settingsStore: typeof import('../../shared/data/approval-settings-repository').dynamoApprovalSettingsStore;
let clearStore: typeof import('../../shared/data/clear-secrets-repository').dynamoClearSecretsStore;
let sealer: SecretSealer;

const clock = { now: () => new Date().toISOString() };

beforeAll(async () => {
  table = await createTestTable('secret-reseal');
  process.env[ENV.localSecretKey] = randomBytes(32).toString('base64');
  tool = await import('../../tools/secrets-reseal');
  webhooks = await import('../../shared/domain/webhooks');
  approvals = await import('../../shared/domain/inbound-approval');
  reseal = await import('../../shared/domain/secret-reseal');
  signatures = await import('../../shared/domain/webhook-signature');
  ({ dynamoWebhookStore: store } = await import('../../shared/data/webhooks-repository'));
  ({ dynamoApprovalSettingsStore: settingsStore } = await import('../../shared/data/approval-settings-repository'));
  ({ dynamoClearSecretsStore: clearStore } = await import('../../shared/data/clear-secrets-repository'));
  sealer = (await import('../../shared/data/secret-sealing')).secretSealer();
}, 60_000);

afterAll(async () => {
  await table?.drop();
});

/** A webhook as the routes create it: sealed. */
const createdWebhook = (tenant: string) =>
  webhooks.createWebhook(
    {
      clock,
      ids: { newId: () => randomUUID() },
      webhooks: store,
      secrets: webhooks.randomWebhookSecrets,
      sealer,
      urlPolicy: { localReceivers: true },
      resolver: { resolve: async () => ['93.184.216.34'] },
    },
    tenant,
    { url: 'https://receiver.example.com/hooks', events: ['payment.settled'] },
  );

/** A webhook whose secrets are `clear`, as stored before sealing existed. */
async function clearWebhook(tenant: string, clear: readonly WebhookSecret[]): Promise<StoredWebhook> {
  const created = await createdWebhook(tenant);
  await putClear(`WEBHOOK#${created.id}`, clear);
  return (await store.get(created.id))!;
}

/** Writes `clear` as the secrets of the item of partition `pk`, behind the repositories' back. */
async function putClear(pk: string, clear: readonly WebhookSecret[]): Promise<void> {
  const item = await itemOf(pk);
  await table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: { pk, sk: item['sk'] },
      UpdateExpression: 'SET secrets = :clear',
      ExpressionAttributeValues: { ':clear': clear },
    }),
  );
}

const itemOf = async (pk: string): Promise<Item> => (await table.scan((item) => item['pk'] === pk))[0]!;

/** A delivery signed with the secrets as the sender opens them verifies with `secret`, the client's. */
async function verifiesWith(sealed: string, owner: { tenant: string; owner: string }, secret: string) {
  const now = Math.floor(Date.now() / 1000);
  const body = '{"type":"payment.settled"}';
  const opened = await sealer.open(sealed, owner);
  const headers = signatures.signedHeaders('msg_1', now, body, webhooks.signingSecrets(opened, clock.now()));
  return signatures.verifySignedMessage({ ...headers }, body, [secret], now).valid;
}

/** The sealer of the release before this one: it took a clear list as it was (the reseal runs before the deploy). */
const previousRelease = (): SecretSealer => ({
  seal: (secrets, owner) => sealer.seal(secrets, owner),
  open: async (stored, owner) =>
    Array.isArray(stored) ? [...(stored as WebhookSecret[])] : sealer.open(stored, owner),
});

/** A rotation as the release before this one made it, on a clear list. */
const rotateAsBefore = (tenant: string, id: string, fresh: string) =>
  webhooks.rotateWebhookSecret(
    { webhooks: store, clock, secrets: { newSecret: () => fresh }, sealer: previousRelease() },
    tenant,
    id,
  );

it('seals clear secrets in place, the same secrets; a second run finds nothing; a clear one is then refused', async () => {
  const tenant = `client-${randomUUID()}`;
  const current = webhooks.randomWebhookSecrets.newSecret();
  const previous = { secret: webhooks.randomWebhookSecrets.newSecret(), expires_at: '2099-01-01T00:00:00.000Z' };
  const clearList = [{ secret: current }, previous];
  const webhook = await clearWebhook(tenant, clearList);
  const approvalSecret = webhooks.randomWebhookSecrets.newSecret();
  const now = clock.now();
  expect(
    await settingsStore.insert({
      tenant,
      callback_url: 'https://approvals.example.com/ask',
      enabled: true,
      auto_approve_on_error: false,
      secrets: [{ secret: approvalSecret }] as unknown as string,
      created_at: now,
      updated_at: now,
    }),
  ).toBe(true);
  // One sealed, as every webhook created since sealing: the reseal leaves it be.
  const sealedAlready = await createdWebhook(tenant);
  const sealedValue = (await itemOf(`WEBHOOK#${sealedAlready.id}`))['secrets'];
  const before = await itemOf(`WEBHOOK#${webhook.id}`);

  const told: string[] = [];
  const counts = await tool.resealSecrets((line) => told.push(line));
  expect(counts).toEqual({ found: 2, sealed: 2, changed: 0 });
  expect(told.sort()).toEqual(
    [`INBOUND_APPROVAL ${tenant}: sealed`, `WEBHOOK ${webhook.id} (client ${tenant}): sealed`].sort(),
  );
  expect(tool.summary(counts)).toBe('2 record(s) held secrets in clear: 2 sealed, 0 changed meanwhile');

  const after = await itemOf(`WEBHOOK#${webhook.id}`);
  expect(typeof after['secrets']).toBe('string');
  for (const { secret } of clearList) expect(JSON.stringify(after)).not.toContain(secret.slice('whsec_'.length));
  // The stored form alone changed: same version, same updated_at, the same secrets inside.
  expect({ ...after, secrets: undefined }).toEqual({ ...before, secrets: undefined });
  const owner = webhooks.webhookSecretOwner(webhook);
  expect(await sealer.open(after['secrets'], owner)).toEqual(clearList);
  expect(await verifiesWith(after['secrets'], owner, current)).toBe(true);
  expect(await verifiesWith(after['secrets'], owner, previous.secret)).toBe(true);
  const approvalItem = await itemOf(`SETTINGS#${tenant}`);
  const approvalOwner = approvals.approvalSecretOwner(tenant);
  expect(await verifiesWith(approvalItem['secrets'], approvalOwner, approvalSecret)).toBe(true);
  expect((await itemOf(`WEBHOOK#${sealedAlready.id}`))['secrets']).toBe(sealedValue);

  // Again: nothing left, nothing written.
  const everything = await table.scan();
  expect(await tool.resealSecrets()).toEqual({ found: 0, sealed: 0, changed: 0 });
  expect(tool.summary({ found: 0, sealed: 0, changed: 0 })).toBe('No signing secret is stored in clear: nothing to do');
  expect(await table.scan()).toEqual(everything);

  // A clear list met now is refused where secrets are opened, naming the command that seals it.
  await putClear(`WEBHOOK#${webhook.id}`, clearList);
  await expect(
    webhooks.rotateWebhookSecret(
      { webhooks: store, clock, secrets: webhooks.randomWebhookSecrets, sealer },
      tenant,
      webhook.id,
    ),
  ).rejects.toThrow('npm run secrets:reseal');
  await expect(sealer.open((await itemOf(`WEBHOOK#${webhook.id}`))['secrets'], owner)).rejects.toThrow(
    'npm run secrets:reseal',
  );
  expect(await tool.resealSecrets()).toEqual({ found: 1, sealed: 1, changed: 0 });
});

it('a rotation between the reseal reading a clear list and writing it is kept: the reseal writes nothing', async () => {
  const tenant = `client-${randomUUID()}`;
  const old = webhooks.randomWebhookSecrets.newSecret();
  const webhook = await clearWebhook(tenant, [{ secret: old }]);
  const fresh = webhooks.randomWebhookSecrets.newSecret();
  const racing: typeof clearStore = {
    find: () => clearStore.find(),
    replace: async (found, sealed) => {
      // The client rotates (the release before this one still serving) while the reseal seals.
      if (found.id === webhook.id) await rotateAsBefore(tenant, webhook.id, fresh);
      return clearStore.replace(found, sealed);
    },
  };
  expect(await reseal.resealClearSecrets({ store: racing, sealer })).toEqual({ found: 1, sealed: 0, changed: 1 });
  const opened = await sealer.open(
    (await itemOf(`WEBHOOK#${webhook.id}`))['secrets'],
    webhooks.webhookSecretOwner(webhook),
  );
  expect(opened.map(({ secret }) => secret)).toEqual([fresh, old]);
  expect(await tool.resealSecrets()).toEqual({ found: 0, sealed: 0, changed: 0 });
});

it('a rotation that read the clear list before the reseal wrote still writes after it: kept', async () => {
  const tenant = `client-${randomUUID()}`;
  const old = webhooks.randomWebhookSecrets.newSecret();
  const webhook = await clearWebhook(tenant, [{ secret: old }]);
  const seen = (await store.get(webhook.id))!;
  expect(await tool.resealSecrets()).toEqual({ found: 1, sealed: 1, changed: 0 });
  // The rotation read `seen` (clear) before the reseal, and writes now: its version condition holds.
  const fresh = webhooks.randomWebhookSecrets.newSecret();
  const owner = webhooks.webhookSecretOwner(webhook);
  const rotated = webhooks.rotatedSecrets(seen.secrets as unknown as WebhookSecret[], fresh, clock.now());
  expect(await store.update(seen, { secrets: await sealer.seal(rotated, owner) }, clock.now())).toBeDefined();
  const opened = await sealer.open((await itemOf(`WEBHOOK#${webhook.id}`))['secrets'], owner);
  expect(opened.map(({ secret }) => secret)).toEqual([fresh, old]);
  expect(await tool.resealSecrets()).toEqual({ found: 0, sealed: 0, changed: 0 });
});
