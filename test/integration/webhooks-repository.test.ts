/**
 * Webhooks in DynamoDB Local, through the domain's rules: the item as stored (its secrets sealed, in
 * the tenant's collection only), secret rotation keeping the previous secret until its expiry, lists
 * of one tenant only with their totals, changes that lose to a concurrent one, and deletion; the
 * dispatcher's read of a tenant's webhooks, whatever gsi1 lists yet.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../shared/domain/clock';
import { AppError } from '../../shared/domain/errors';
import { parsePageRequest } from '../../shared/domain/lists';
import type { HostResolver } from '../../shared/domain/webhook-urls';
import {
  createWebhook,
  deleteWebhook,
  randomWebhookSecrets,
  rotateWebhookSecret,
  signingSecrets,
  webhookSecretOwner,
  type WebhookStore,
} from '../../shared/domain/webhooks';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { testSealer } from '../support/sealer';

let table: TestTable;
let webhooks: WebhookStore;

beforeAll(async () => {
  table = await createTestTable('webhooks');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
});
afterAll(() => table.drop());

/** A clock the test moves: rotation's expiry is 24 hours of it. */
function clockAt(start: string): Clock & { advance(ms: number): void } {
  let time = Date.parse(start);
  return { now: () => new Date(time).toISOString(), advance: (ms) => (time += ms) };
}

const HOUR = 60 * 60 * 1000;
const resolver: HostResolver = { resolve: async () => ['93.184.216.34'] };

function depsAt(clock: Clock) {
  return {
    clock,
    ids: { newId: () => randomUUID() },
    webhooks,
    secrets: randomWebhookSecrets,
    sealer: testSealer,
    urlPolicy: { localReceivers: false },
    resolver,
  };
}

const create = (tenant: string, clock: Clock = clockAt(new Date().toISOString())) =>
  createWebhook(depsAt(clock), tenant, { url: 'https://hooks.example.com/breb', events: ['payment.settled'] });

/** The webhook's secrets as stored, opened as the sender opens them. */
const openedSecrets = async (id: string) => {
  const webhook = (await webhooks.get(id))!;
  return testSealer.open(webhook.secrets, webhookSecretOwner(webhook));
};

test('the item holds the secret sealed and is listed in the tenant collection only', async () => {
  const tenant = `client-${randomUUID()}`;
  const created = await create(tenant);
  const [item] = await table.scan((i) => i['id'] === created.id);
  expect(item).toMatchObject({
    pk: `WEBHOOK#${created.id}`,
    sk: 'WEBHOOK',
    entity: 'WEBHOOK',
    tenant,
    gsi1pk: `${tenant}#WEBHOOK`,
    delivery_mode: 'RETRY',
    enabled: true,
  });
  expect(item).not.toHaveProperty('gsi3pk');
  // Neither the secret nor its key (the Base64 part a receiver signs with) is anywhere in the item.
  const stored = JSON.stringify(item);
  expect(stored).not.toContain(created.secret);
  expect(stored).not.toContain(created.secret.slice('whsec_'.length));
  expect(await openedSecrets(created.id)).toEqual([{ secret: created.secret }]);
  // Bound to its tenant and its webhook: under another's context it does not open.
  const sealed = item!['secrets'] as string;
  await expect(testSealer.open(sealed, { tenant: `client-${randomUUID()}`, owner: created.id })).rejects.toThrow();
  await expect(testSealer.open(sealed, { tenant, owner: randomUUID() })).rejects.toThrow();
});

test('a rotation keeps the previous secret until its expiry; rotating again drops an expired one', async () => {
  const tenant = `client-${randomUUID()}`;
  const clock = clockAt('2026-11-23T10:00:00.000Z');
  const deps = depsAt(clock);
  const first = await create(tenant, clock);

  clock.advance(HOUR);
  const second = await rotateWebhookSecret(deps, tenant, first.id);
  expect(second.secret).not.toBe(first.secret);
  const rotated = await openedSecrets(first.id);
  expect(rotated).toEqual([
    { secret: second.secret },
    { secret: first.secret, expires_at: '2026-11-24T11:00:00.000Z' },
  ]);
  expect(signingSecrets(rotated, '2026-11-24T10:59:59.999Z')).toEqual([second.secret, first.secret]);
  expect(signingSecrets(rotated, '2026-11-24T11:00:00.000Z')).toEqual([second.secret]);

  clock.advance(25 * HOUR);
  const third = await rotateWebhookSecret(deps, tenant, first.id);
  expect(await openedSecrets(first.id)).toEqual([
    { secret: third.secret },
    { secret: second.secret, expires_at: '2026-11-25T12:00:00.000Z' },
  ]);
});

test("a tenant's list holds its own webhooks only, and its total follows creation and deletion", async () => {
  const tenant = `client-${randomUUID()}`;
  const other = `client-${randomUUID()}`;
  const mine = [await create(tenant), await create(tenant), await create(tenant)];
  await create(other);
  const listed = async (who: string) =>
    webhooks.list(who, {}, parsePageRequest({ page_size: 100 }, new Date().toISOString()));

  const before = await listed(tenant);
  expect(before.items.map((w) => w.id).sort()).toEqual(mine.map((w) => w.id).sort());
  expect(before.items.every((w) => w.tenant === tenant)).toBe(true);
  expect(before.total).toBe(3);

  await deleteWebhook(webhooks, tenant, mine[0]!.id);
  const after = await listed(tenant);
  expect(after.items.map((w) => w.id).sort()).toEqual([mine[1]!.id, mine[2]!.id].sort());
  expect(after.total).toBe(2);
  expect((await listed(other)).total).toBe(1);
  expect(await webhooks.get(mine[0]!.id)).toBeUndefined();
});

test('a change made on a stale read is refused; deleting twice finds nothing the second time', async () => {
  const tenant = `client-${randomUUID()}`;
  const created = await create(tenant);
  const seen = (await webhooks.get(created.id))!;
  const changed = await webhooks.update(seen, { enabled: false }, new Date().toISOString());
  expect(changed).toMatchObject({ enabled: false });
  expect(await webhooks.update(seen, { description: 'late' }, new Date().toISOString())).toBeUndefined();
  expect((await webhooks.get(created.id))!.description).toBeUndefined();

  expect(await webhooks.delete(seen)).toBe(true);
  expect(await webhooks.delete(seen)).toBe(false);
  const error = await deleteWebhook(webhooks, tenant, created.id).catch((e: unknown) => e);
  expect((error as AppError).code).toBe('NOT_FOUND');
});

test("the dispatcher's read of a tenant's webhooks: each as it is now, none deleted, none of another tenant", async () => {
  const tenant = `client-${randomUUID()}`;
  const [kept, disabled, deleted] = [await create(tenant), await create(tenant), await create(tenant)];
  await create(`client-${randomUUID()}`);
  const seen = (await webhooks.get(disabled.id))!;
  await webhooks.update(seen, { enabled: false }, new Date().toISOString());
  await deleteWebhook(webhooks, tenant, deleted.id);
  const read = await webhooks.webhooksOf(tenant);
  expect(read.map((w) => [w.id, w.enabled]).sort()).toEqual(
    [
      [kept.id, true],
      [disabled.id, false],
    ].sort(),
  );
  // The domain's webhook, as get() answers it: no storage attributes.
  expect(read.find((w) => w.id === kept.id)).toEqual(await webhooks.get(kept.id));
  expect(read[0]).not.toHaveProperty('pk');
});

/** Changes a stored item behind the repository's back. */
const updateItem = (pk: string, sk: string, UpdateExpression: string, values?: Record<string, unknown>) =>
  table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: { pk, sk },
      UpdateExpression,
      ...(values ? { ExpressionAttributeValues: values } : {}),
    }),
  );

test("the dispatcher's read finds a webhook gsi1 does not list yet, and not once it is deleted", async () => {
  const tenant = `client-${randomUUID()}`;
  const [indexed, lagging] = [await create(tenant), await create(tenant)];
  await create(`client-${randomUUID()}`);
  // DynamoDB Local's indexes are never behind: a webhook gsi1 has not caught up with yet is one
  // without its gsi1 keys.
  await updateItem(`WEBHOOK#${lagging.id}`, 'WEBHOOK', 'REMOVE gsi1pk, gsi1sk');
  const listed = await webhooks.list(tenant, {}, parsePageRequest({ page_size: 100 }, new Date().toISOString()));
  expect(listed.items.map((w) => w.id)).toEqual([indexed.id]);

  const read = await webhooks.webhooksOf(tenant);
  expect(read.map((w) => w.id).sort()).toEqual([indexed.id, lagging.id].sort());
  expect(read.find((w) => w.id === lagging.id)).toEqual(await webhooks.get(lagging.id));

  await deleteWebhook(webhooks, tenant, lagging.id);
  expect((await webhooks.webhooksOf(tenant)).map((w) => w.id)).toEqual([indexed.id]);
  const [set] = await table.scan((item) => item['pk'] === `WEBHOOKS#${tenant}`);
  expect(set).toMatchObject({ sk: 'WEBHOOK_IDS', entity: 'WEBHOOK_SET', tenant, ids: new Set([indexed.id]) });
});

test("the dispatcher's read still finds, through gsi1, a webhook created before the tenant's webhook set", async () => {
  const tenant = `client-${randomUUID()}`;
  const [older, newer] = [await create(tenant), await create(tenant)];
  // A webhook created before the set existed is in no set.
  await updateItem(`WEBHOOKS#${tenant}`, 'WEBHOOK_IDS', 'DELETE ids :id', { ':id': new Set([older.id]) });
  expect((await webhooks.webhooksOf(tenant)).map((w) => w.id).sort()).toEqual([older.id, newer.id].sort());

  // Its delete takes nothing out of the set, and it is gone.
  await deleteWebhook(webhooks, tenant, older.id);
  expect((await webhooks.webhooksOf(tenant)).map((w) => w.id)).toEqual([newer.id]);
  // The last one's delete leaves the set empty (no ids attribute): the tenant has no webhooks.
  await deleteWebhook(webhooks, tenant, newer.id);
  expect(await webhooks.webhooksOf(tenant)).toEqual([]);
});
