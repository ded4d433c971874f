/**
 * A webhook's run of failed deliveries in DynamoDB Local (shared/data/webhook-health.ts): a run's
 * start written once, its end only for the run read, and disabling as one transaction (the webhook,
 * its webhook.disabled event listed and counted, the audit event) refused when the webhook changed
 * since it was read; enabling it again through the domain's PATCH forgets the run.
 */
import { randomUUID } from 'node:crypto';
import { newEvent } from '../../shared/domain/events';
import type { WebhookHealthStore } from '../../shared/domain/webhook-health';
import {
  createWebhook,
  publicWebhook,
  randomWebhookSecrets,
  updateWebhook,
  type StoredWebhook,
  type WebhookStore,
} from '../../shared/domain/webhooks';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { testSealer } from '../support/sealer';

let table: TestTable;
let webhooks: WebhookStore;
let health: WebhookHealthStore;

beforeAll(async () => {
  table = await createTestTable('webhook-health');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
  ({ dynamoWebhookHealth: health } = await import('../../shared/data/webhook-health'));
});
afterAll(() => table.drop());

const clock = { now: () => new Date().toISOString() };
const ids = { newId: () => randomUUID() };
const deps = () => ({
  clock,
  ids,
  webhooks,
  secrets: randomWebhookSecrets,
  sealer: testSealer,
  urlPolicy: { localReceivers: false },
  resolver: { resolve: async () => ['93.184.216.34'] },
});

async function newWebhook(tenant = `client-${randomUUID()}`): Promise<StoredWebhook> {
  const created = await createWebhook(deps(), tenant, {
    url: 'https://hooks.example.com/breb',
    events: ['payment.settled', 'webhook.disabled'],
  });
  return (await webhooks.get(created.id))!;
}

/** The webhook disabled as the sender would make it, with its event. */
function disabledOf(seen: StoredWebhook) {
  const now = new Date().toISOString();
  const disabled: StoredWebhook = { ...seen, enabled: false, disabled_reason: 'DELIVERIES_FAILED', updated_at: now };
  return { disabled, event: newEvent(ids, seen.tenant, 'webhook.disabled', now, publicWebhook(disabled)) };
}

test("a run's start is written once, on an existing webhook only; its end only for the run read", async () => {
  const webhook = await newWebhook();
  await health.startFailing(webhook, '2026-11-01T00:00:00.000Z');
  await health.startFailing(webhook, '2026-11-02T00:00:00.000Z');
  const failing = (await webhooks.get(webhook.id))!;
  expect(failing.failing_since).toBe('2026-11-01T00:00:00.000Z');
  // Neither the client's version nor updated_at moves: a PATCH read before still holds.
  expect(failing.updated_at).toBe(webhook.updated_at);
  expect((failing as unknown as { version: number }).version).toBe(1);

  // A success of an attempt that read another run (none, here) ends nothing.
  await health.recover(webhook);
  expect((await webhooks.get(webhook.id))!.failing_since).toBe('2026-11-01T00:00:00.000Z');
  await health.recover(failing);
  expect(await webhooks.get(webhook.id)).not.toHaveProperty('failing_since');

  // A webhook deleted meanwhile is not made again by the note.
  const gone = await newWebhook();
  await webhooks.delete(gone);
  await health.startFailing(gone, '2026-11-01T00:00:00.000Z');
  expect(await table.scan((item) => item['pk'] === `WEBHOOK#${gone.id}`)).toEqual([]);
});

test('disabling writes the webhook, its event (listed, counted by day) and the audit event at once', async () => {
  const webhook = await newWebhook();
  await health.startFailing(webhook, '2026-11-01T00:00:00.000Z');
  const seen = (await webhooks.get(webhook.id))!;
  const { disabled, event } = disabledOf(seen);
  expect(await health.disable(seen, disabled, event, 'Every delivery attempt failed from a to b')).toBe(true);

  expect(await webhooks.get(webhook.id)).toMatchObject({
    enabled: false,
    disabled_reason: 'DELIVERIES_FAILED',
    failing_since: '2026-11-01T00:00:00.000Z',
    updated_at: disabled.updated_at,
    version: 2,
  });
  const [stored] = await table.scan((item) => item['pk'] === `EVENT#${event.id}`);
  expect(stored).toMatchObject({
    type: 'webhook.disabled',
    tenant: webhook.tenant,
    gsi1pk: `${webhook.tenant}#EVENT`,
    data: { id: webhook.id, enabled: false },
  });
  const counters = await table.scan((item) => item['pk'] === `DAYCOUNT#${webhook.tenant}#EVENT`);
  expect(counters.map((counter) => counter['count'])).toEqual([1]);
  const [audit] = await table.scan(
    (item) =>
      item['entity'] === 'AUDIT_EVENT' && item['action'] === 'webhook.disabled' && item['resource_id'] === webhook.id,
  );
  expect(audit).toMatchObject({
    tenant: webhook.tenant,
    actor: 'system:webhook-deliveries',
    request_id: event.id,
    evidence: 'Every delivery attempt failed from a to b',
    before: { enabled: true },
    after: { enabled: false, disabled_reason: 'DELIVERIES_FAILED' },
  });
});

test('a PATCH or a success since the read refuses the disable, and writes nothing of it', async () => {
  const patched = await newWebhook();
  await health.startFailing(patched, '2026-11-01T00:00:00.000Z');
  const seen = (await webhooks.get(patched.id))!;
  await updateWebhook(deps(), patched.tenant, patched.id, { description: 'Cambiada' });
  const first = disabledOf(seen);
  expect(await health.disable(seen, first.disabled, first.event, 'x')).toBe(false);

  const recovered = await newWebhook();
  await health.startFailing(recovered, '2026-11-01T00:00:00.000Z');
  const read = (await webhooks.get(recovered.id))!;
  await health.recover(read);
  const second = disabledOf(read);
  expect(await health.disable(read, second.disabled, second.event, 'x')).toBe(false);

  for (const webhook of [patched, recovered]) expect(await webhooks.get(webhook.id)).toMatchObject({ enabled: true });
  expect(await table.scan((item) => [first.event.id, second.event.id].includes(item['id']))).toEqual([]);
  expect(
    await table.scan(
      (item) => item['action'] === 'webhook.disabled' && [patched.id, recovered.id].includes(item['resource_id']),
    ),
  ).toEqual([]);
});

test('enabled again (or given a URL) through PATCH, the webhook forgets its run and why it was disabled', async () => {
  const webhook = await newWebhook();
  await health.startFailing(webhook, '2026-11-01T00:00:00.000Z');
  const seen = (await webhooks.get(webhook.id))!;
  const { disabled, event } = disabledOf(seen);
  await health.disable(seen, disabled, event, 'x');

  const enabled = await updateWebhook(deps(), webhook.tenant, webhook.id, { enabled: true });
  expect(enabled).toMatchObject({ enabled: true });
  expect(enabled).not.toHaveProperty('failing_since');
  expect(enabled).not.toHaveProperty('disabled_reason');
  const stored = (await webhooks.get(webhook.id))!;
  expect(stored).not.toHaveProperty('failing_since');
  expect(stored).not.toHaveProperty('disabled_reason');

  // Other changes keep a run going.
  await health.startFailing(stored, '2026-11-05T00:00:00.000Z');
  const described = await updateWebhook(deps(), webhook.tenant, webhook.id, { description: 'Conciliación' });
  expect(described).toMatchObject({ failing_since: '2026-11-05T00:00:00.000Z' });
  const moved = await updateWebhook(deps(), webhook.tenant, webhook.id, { url: 'https://hooks.example.com/v2' });
  expect(moved).not.toHaveProperty('failing_since');
});
