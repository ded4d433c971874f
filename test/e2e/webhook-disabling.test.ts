/**
 * A webhook whose every delivery fails for WEBHOOK_DISABLE_AFTER_MS is disabled (docs/webhooks.md,
 * "Disabled webhooks"), through the real local server with real tokens and a real receiver, the
 * window shortened to 1.5 s: failures within the window leave it enabled and say since when it fails;
 * the first failure past the window disables it, with `webhook.disabled` to the client's other
 * webhooks (verified by standardwebhooks; not to the failing one, nor to another client's), an audit
 * event naming the worker, and the event in GET /v1/events; enabling it again starts afresh.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { WebhookReceiver } from '../support/webhook-receiver';

const WINDOW_MS = 1_500;

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({ webhookDisableAfterMs: WINDOW_MS, webhookTimeoutMs: 400 }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

async function webhook(token: string, path: string, body: Record<string, unknown>): Promise<Record<string, any>> {
  const created = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}${path}`, ...body },
  });
  expect(created.status).toBe(200);
  receiver.secrets.set(path, [created.body.secret]);
  return created.body;
}

const read = async (id: string) => (await api.request('GET', `/v1/webhooks/${id}`, { token: tokenA })).body;

/** A test event to the webhook, and its one attempt made (ONCE): the delivery as it ended. */
async function failedTest(webhookId: string): Promise<Record<string, any>> {
  const sent = await api.request('POST', `/v1/webhooks/${webhookId}/test`, { token: tokenA });
  expect(sent.status).toBe(200);
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
    const { items } = await walkAll(api, tokenA, `/v1/webhooks/${webhookId}/deliveries`, 'deliveries');
    const delivery = items.find((d: Record<string, any>) => d['id'] === sent.body.id);
    if (delivery && delivery['status'] !== 'PENDING') return delivery;
  }
  throw new Error(`Delivery ${sent.body.id} did not end`);
}

test('every attempt failing for the window disables the webhook, tells the others, and is audited', async () => {
  const down = await webhook(tokenA, '/down', { events: ['webhook.test', 'webhook.disabled'], delivery_mode: 'ONCE' });
  const watcher = await webhook(tokenA, '/watcher', { events: ['webhook.disabled'] });
  await webhook(tokenB, '/other-client', { events: ['webhook.disabled'] });
  receiver.behave('/down', 'fail');

  // Failures within the window: still enabled, failing since the first.
  const first = await failedTest(down.id);
  const since = first.attempts[0].attempted_at as string;
  expect(await read(down.id)).toMatchObject({ enabled: true, failing_since: since });
  await failedTest(down.id);
  expect(await read(down.id)).toMatchObject({ enabled: true, failing_since: since });

  // The first failure the window after the first disables it.
  await sleep(Math.max(0, Date.parse(since) + WINDOW_MS - Date.now()));
  const last = await failedTest(down.id);
  expect(Date.parse(last.attempts[0].attempted_at) - Date.parse(since)).toBeGreaterThanOrEqual(WINDOW_MS);
  const disabled = await read(down.id);
  expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'DELIVERIES_FAILED', failing_since: since });

  // webhook.disabled, the webhook as GET answers it, to the client's other webhook only.
  await receiver.until(() => receiver.at('/watcher').length >= 1, 20_000, 'webhook.disabled at the watcher');
  const [told] = receiver.at('/watcher');
  expect(told!.event).toMatchObject({ type: 'webhook.disabled', data: disabled });
  expect(told!.verifiedBy).toEqual([watcher.secret]);
  await sleep(500);
  expect(receiver.at('/down').filter((r) => r.event.type === 'webhook.disabled')).toEqual([]);
  expect(receiver.at('/other-client')).toEqual([]);
  const listed = await api.request('GET', '/v1/events?type=webhook.disabled', { token: tokenA });
  expect(listed.body.events).toEqual([told!.event]);

  // The audit event: the worker as actor, what it rests on, the event that told the others.
  const audit = await api.request('GET', `/v1/audit-events?resource_type=WEBHOOK&resource_id=${down.id}`, {
    token: tokenA,
  });
  const disabling = audit.body.audit_events.filter((e: Record<string, any>) => e['action'] === 'webhook.disabled');
  expect(disabling).toEqual([
    expect.objectContaining({
      actor: 'system:webhook-deliveries',
      request_id: told!.event.id,
      evidence: `Every delivery attempt failed from ${since} to ${last.attempts[0].attempted_at}`,
      before: expect.objectContaining({ enabled: true }),
      after: expect.objectContaining({ enabled: false, disabled_reason: 'DELIVERIES_FAILED' }),
    }),
  ]);

  // Disabled, it gets nothing: a test event is refused.
  expectProblem(await api.request('POST', `/v1/webhooks/${down.id}/test`, { token: tokenA }), 409, 'WEBHOOK_DISABLED');

  // Fixed and enabled again: it starts afresh, the run and the reason gone.
  receiver.behave('/down', 'ok');
  const enabled = await api.request('PATCH', `/v1/webhooks/${down.id}`, { token: tokenA, body: { enabled: true } });
  expect(enabled.body).toMatchObject({ enabled: true });
  expect(enabled.body).not.toHaveProperty('failing_since');
  expect(enabled.body).not.toHaveProperty('disabled_reason');
  const ok = await failedTest(down.id);
  expect(ok.status).toBe('SUCCEEDED');
});

test('a success within the window ends the run: the webhook stays enabled', async () => {
  const flaky = await webhook(tokenA, '/flaky', { events: ['webhook.test'], delivery_mode: 'ONCE' });
  receiver.behave('/flaky', 'fail');
  await failedTest(flaky.id);
  receiver.behave('/flaky', 'ok');
  expect((await failedTest(flaky.id)).status).toBe('SUCCEEDED');
  expect(await read(flaky.id)).not.toHaveProperty('failing_since');

  receiver.behave('/flaky', 'fail');
  await sleep(WINDOW_MS);
  const restarted = await failedTest(flaky.id);
  // Past the window since the first failure, but not since the run that began after the success.
  expect(await read(flaky.id)).toMatchObject({ enabled: true, failing_since: restarted.attempts[0].attempted_at });
});
