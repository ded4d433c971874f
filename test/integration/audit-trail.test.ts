/**
 * The audit trail against DynamoDB Local (shared/data/audit-trail.ts): a change made while someone
 * acts writes its event in the change's own transaction, with the actor and the non-secret fields
 * before and after; a change refused (a concurrent one won) writes no event; outside a request no
 * event is written; the list reads a resource's events alone, and never another tenant's.
 */
import { randomUUID } from 'node:crypto';
import { MAX_WEBHOOKS } from '../../shared/domain/webhooks';
import { parsePageRequest } from '../../shared/domain/lists';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { storedWebhookOf } from '../support/stored-webhooks';

let table: TestTable;
let webhooks: typeof import('../../shared/data/webhooks-repository').dynamoWebhookStore;
let audit: typeof import('../../shared/data/audit-trail');

beforeAll(async () => {
  table = await createTestTable('audit');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
  audit = await import('../../shared/data/audit-trail');
});

afterAll(async () => {
  await table.drop();
});

const now = (): string => new Date().toISOString();
const page = () => parsePageRequest({ page_size: 100 }, now());

const webhookOf = storedWebhookOf;

const eventsOf = async (tenant: string, resourceId?: string) =>
  (await audit.dynamoAuditStore.list(tenant, resourceId ? { resourceType: 'WEBHOOK', resourceId } : {}, page())).items;

test('a change writes its event with the actor, the action and the non-secret fields before and after', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const actor = { tenant, subject: 'person-ana', requestId: 'req-1' };
  const webhook = webhookOf(tenant);
  await audit.actingAs(actor, () => webhooks.insert(webhook, MAX_WEBHOOKS));
  const stored = (await webhooks.get(webhook.id))!;
  const updated = await audit.actingAs({ ...actor, requestId: 'req-2' }, () =>
    webhooks.update(stored, { url: 'https://elsewhere.example.com/b', enabled: false }, now()),
  );
  expect(updated).toMatchObject({ url: 'https://elsewhere.example.com/b', enabled: false });
  expect(await webhooks.get(webhook.id)).toEqual(updated);

  const events = await eventsOf(tenant, webhook.id);
  expect(events.map((event) => [event.action, event.actor, event.request_id]).sort()).toEqual([
    ['webhook.created', 'person-ana', 'req-1'],
    ['webhook.updated', 'person-ana', 'req-2'],
  ]);
  const change = events.find((event) => event.action === 'webhook.updated')!;
  expect(change.before).toEqual({
    url: 'https://hooks.example.com/a',
    events: ['payment.settled'],
    delivery_mode: 'RETRY',
    enabled: true,
  });
  expect(change.after).toMatchObject({ url: 'https://elsewhere.example.com/b', enabled: false });
  // Never a secret, in any event.
  expect(JSON.stringify(events)).not.toContain('whsec_');
  // Another tenant's list holds none of them.
  expect(await eventsOf(`tenant-${randomUUID()}`)).toEqual([]);
});

test('a change refused (another request changed the webhook first) writes no event', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const actor = { tenant, subject: 'person-eva', requestId: 'req-1' };
  const webhook = webhookOf(tenant);
  await audit.actingAs(actor, () => webhooks.insert(webhook, MAX_WEBHOOKS));
  const seen = (await webhooks.get(webhook.id))!;
  await audit.actingAs(actor, () => webhooks.update(seen, { enabled: false }, now()));
  // Made on the version read before that change: refused, and no event for it.
  const stale = await audit.actingAs(actor, () => webhooks.update(seen, { url: 'https://late.example.com/' }, now()));
  expect(stale).toBeUndefined();
  expect((await eventsOf(tenant, webhook.id)).map((event) => event.action).sort()).toEqual([
    'webhook.created',
    'webhook.updated',
  ]);
  expect((await webhooks.get(webhook.id))!.url).toBe('https://hooks.example.com/a');
});

test('a change whose transaction fails writes no event, and an event is never written without its change', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const actor = { tenant, subject: 'person-leo', requestId: 'req-1' };
  // A webhook that is not there: the delete's condition fails, the whole transaction with it.
  const ghost = webhookOf(tenant);
  await expect(audit.actingAs(actor, () => webhooks.delete(ghost))).resolves.toBe(false);
  expect(await eventsOf(tenant)).toEqual([]);
});

test('outside a request nobody acts: the change is made, no event written', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const webhook = webhookOf(tenant);
  await webhooks.insert(webhook, MAX_WEBHOOKS);
  expect(await webhooks.get(webhook.id)).toBeDefined();
  expect(await eventsOf(tenant)).toEqual([]);
});

test('events, never updated, are listed by creation only: no copies in the update-order lists, whose walks read that order', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const actor = { tenant, subject: 'person-eva', requestId: 'req-1' };
  const webhook = webhookOf(tenant);
  await audit.actingAs(actor, () => webhooks.insert(webhook, MAX_WEBHOOKS));
  let current = (await webhooks.get(webhook.id))!;
  for (const enabled of [false, true, false]) {
    current = (await audit.actingAs(actor, () => webhooks.update(current, { enabled }, now())))!;
  }
  const stored = await table.scan((item) => item['entity'] === 'AUDIT_EVENT' && item['tenant'] === tenant);
  expect(stored).toHaveLength(4);
  for (const item of stored) {
    expect(Object.keys(item).filter((name) => /^gsi[24]/.test(name))).toEqual([]);
    expect(item).toMatchObject({ gsi1pk: `${tenant}#AUDIT_EVENT`, gsi3pk: expect.stringContaining('#WEBHOOK#') });
  }
  const ids = async (query: Record<string, string | number>, filters = {}) => {
    const answer = await audit.dynamoAuditStore.list(
      tenant,
      filters,
      parsePageRequest({ page_size: 3, ...query }, now()),
    );
    return { ids: answer.items.map((event) => event.id), total: answer.total };
  };
  const byCreation = await ids({ order_direction: 'desc' });
  expect(byCreation.total).toBe(4);
  // By update time, in either scope: the same walk, pages and totals.
  expect(await ids({ order_key: 'updated_at', order_direction: 'desc' })).toEqual(byCreation);
  expect(
    await ids(
      { order_key: 'updated_at', order_direction: 'desc' },
      { resourceType: 'WEBHOOK', resourceId: webhook.id },
    ),
  ).toEqual(byCreation);
  expect((await ids({ order_key: 'updated_at', page_number: 2, order_direction: 'desc' })).ids).toHaveLength(1);
});
