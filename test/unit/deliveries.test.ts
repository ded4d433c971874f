/**
 * The delivery rules (shared/domain/deliveries.ts) on in-memory fakes of their ports: the stores, the
 * queue, the transport, the host resolver and a clock the test moves. The domain is what is under
 * test here; the DynamoDB stores and the HTTP transport have tests of their own, and
 * test/e2e/webhook-delivery.test.ts runs the whole path.
 */
import { EndpointBreaker } from '../../shared/domain/endpoint-breaker';
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  attemptDelivery,
  deliveryIdOf,
  eventBody,
  MAX_RETRIES,
  WEBHOOK_USER_AGENT,
  type AttemptDeps,
  type AttemptRecord,
  type DeliverySettings,
  type StoredDelivery,
} from '../../shared/domain/deliveries';
import { redeliver, STALLED_AFTER_MS } from '../../shared/domain/delivery-log';
import { dispatchEvent } from '../../shared/domain/dispatch';
import { MAX_RETRY_DELAY_MS, retryCeilingMs, retryDelayMs } from '../../shared/domain/retry-backoff';
import { DEFAULT_WEBHOOK_RETRY_BASE_MS } from '../../shared/runtime/config';
import type { WebhookRequest, WebhookResponse } from '../../shared/domain/signed-post';
import type { DomainEvent } from '../../shared/domain/events';
import type { WebhookUrlPolicy } from '../../shared/domain/webhook-urls';
import type { WebhookHealthStore } from '../../shared/domain/webhook-health';
import type { StoredWebhook, WebhookSecret } from '../../shared/domain/webhooks';
import { readableSeal, readableSealer } from '../support/sealer';

/** A webhook's fields, with its secrets in clear: the fixture seals them as the store holds them. */
type WebhookFields = Partial<Omit<StoredWebhook, 'secrets'>> & { readonly secrets?: readonly WebhookSecret[] };

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;
const SETTINGS: DeliverySettings = { timeoutMs: 5 * SECOND, retryBaseMs: SECOND, disableAfterMs: 3 * DAY };
/** The retries' jitter in these tests: every draw halfway, so that each wait is pinned (3/4 of its ceiling). */
const JITTER = 0.5;
const jittered = (n: number): number => {
  const ceiling = SETTINGS.retryBaseMs * 2 ** (n - 1);
  return Math.floor(ceiling / 2 + (JITTER * ceiling) / 2);
};
const DEPLOYED: WebhookUrlPolicy = { localReceivers: false };
const LOCAL: WebhookUrlPolicy = { localReceivers: true };
const PUBLIC_ADDRESS = '93.184.216.34';
const UUID_V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Every port of the delivery rules, in memory, and what each was asked. */
function world(options: { policy?: WebhookUrlPolicy; names?: Record<string, string[]> } = {}) {
  // Near the real time: the standardwebhooks package refuses a timestamp 5 minutes off.
  let time = Math.floor(Date.now() / SECOND) * SECOND;
  const clock = {
    now: () => new Date(time).toISOString(),
    advance: (ms: number) => (time += ms),
    set: (iso: string) => (time = Date.parse(iso)),
  };

  const deliveries = new Map<string, StoredDelivery>();
  const deliveryStore = {
    /** Set: recordAttempt answers false, as when another sender recorded its attempt first. */
    loseRaces: false,
    get: async (id: string) => deliveries.get(id),
    async createIfAbsent(delivery: StoredDelivery): Promise<boolean> {
      if (deliveries.has(delivery.id)) return false;
      deliveries.set(delivery.id, delivery);
      return true;
    },
    // As the DynamoDB store: only while the delivery is as `seen` (same status, as many attempts).
    async recordAttempt(seen: StoredDelivery, record: AttemptRecord, now: string): Promise<boolean> {
      const current = deliveries.get(seen.id);
      if (this.loseRaces || !current) return false;
      if (current.status !== seen.status || current.attempts.length !== seen.attempts.length) return false;
      const { next_attempt_at: _dropped, ...rest } = current;
      deliveries.set(seen.id, {
        ...rest,
        attempts: [...current.attempts, record.attempt],
        status: record.status,
        ...(record.next_attempt_at === undefined ? {} : { next_attempt_at: record.next_attempt_at }),
        updated_at: now,
      });
      return true;
    },
    async postpone(seen: StoredDelivery, until: string, now: string): Promise<boolean> {
      const current = deliveries.get(seen.id);
      if (!current || current.status !== seen.status || current.attempts.length !== seen.attempts.length) return false;
      deliveries.set(seen.id, { ...current, next_attempt_at: until, updated_at: now });
      return true;
    },
  };

  const webhooks = new Map<string, StoredWebhook>();
  const webhookStore = {
    get: async (id: string) => webhooks.get(id),
    webhooksOf: async (tenant: string) => [...webhooks.values()].filter((w) => w.tenant === tenant),
  };

  const events = new Map<string, DomainEvent>();

  const sent: { deliveryId: string; delayMs: number }[] = [];
  const queue = { send: async (deliveryId: string, delayMs: number) => void sent.push({ deliveryId, delayMs }) };

  const requests: WebhookRequest[] = [];
  const transport = {
    answer: async (_request: WebhookRequest): Promise<Omit<WebhookResponse, 'duration_ms'>> => ({ status_code: 200 }),
    async post(request: WebhookRequest): Promise<WebhookResponse> {
      requests.push(request);
      return { duration_ms: 0, ...(await this.answer(request)) };
    },
  };

  const names = new Map(Object.entries({ 'hooks.example.com': [PUBLIC_ADDRESS], ...options.names }));
  const resolver = { resolve: async (hostname: string) => names.get(hostname) ?? [] };

  // As the DynamoDB store (shared/data/webhook-health.ts): each write only on the webhook as read.
  const disabledEvents: { event: DomainEvent; evidence: string }[] = [];
  const health: WebhookHealthStore = {
    async startFailing(webhook, at) {
      const current = webhooks.get(webhook.id);
      if (current && current.failing_since === undefined) webhooks.set(current.id, { ...current, failing_since: at });
    },
    async recover(webhook) {
      const current = webhooks.get(webhook.id);
      if (!current || current.failing_since !== webhook.failing_since) return;
      const { failing_since: _ended, ...rest } = current;
      webhooks.set(current.id, rest);
    },
    async disable(seen, disabled, event, evidence) {
      const current = webhooks.get(seen.id);
      if (current?.updated_at !== seen.updated_at || current.failing_since !== seen.failing_since) return false;
      webhooks.set(seen.id, disabled);
      events.set(event.id, event);
      disabledEvents.push({ event, evidence });
      return true;
    },
  };

  const attemptDeps: AttemptDeps = {
    deliveries: deliveryStore,
    webhooks: webhookStore,
    events: { get: async (id) => events.get(id) },
    transport,
    urls: { urlPolicy: options.policy ?? DEPLOYED, resolver },
    queue,
    clock,
    settings: SETTINGS,
    sealer: readableSealer,
    random: () => JITTER,
    health,
    ids: { newId: () => randomUUID() },
  };
  const dispatched: string[] = [];
  const dispatchDeps = {
    webhooks: webhookStore,
    deliveries: deliveryStore,
    events: { dispatched: async (id: string) => void dispatched.push(id) },
    queue,
    clock,
  };

  /** A webhook of client-a, its secrets (`secrets`: clear, one new by default) sealed as stored. */
  function addWebhook(fields: WebhookFields = {}): StoredWebhook & { readonly clearSecrets: readonly WebhookSecret[] } {
    const { secrets: clearSecrets = [{ secret: newSecret() }], ...rest } = fields;
    const id = rest.id ?? randomUUID();
    const tenant = rest.tenant ?? 'client-a';
    const webhook: StoredWebhook & { readonly clearSecrets: readonly WebhookSecret[] } = {
      id,
      tenant,
      url: 'https://hooks.example.com/breb',
      events: ['payment.settled'],
      delivery_mode: 'RETRY',
      enabled: true,
      created_at: clock.now(),
      updated_at: clock.now(),
      ...rest,
      secrets: readableSeal(clearSecrets, { tenant, owner: id }),
      clearSecrets,
    };
    webhooks.set(webhook.id, webhook);
    return webhook;
  }

  function addEvent(fields: Partial<DomainEvent> = {}): DomainEvent {
    const event: DomainEvent = {
      id: randomUUID(),
      tenant: 'client-a',
      type: 'payment.settled',
      created_at: clock.now(),
      data: { id: randomUUID(), status: 'SETTLED', amount: { value: '12500.00', currency: 'COP' } },
      ...fields,
    };
    events.set(event.id, event);
    return event;
  }

  /** A webhook, an event and their delivery, PENDING and due now (as the dispatcher leaves it). */
  async function pendingDelivery(webhookFields: WebhookFields = {}, fields: Partial<StoredDelivery> = {}) {
    const webhook = addWebhook(webhookFields);
    // The webhook's client's event.
    const event = addEvent(webhookFields.tenant ? { tenant: webhookFields.tenant } : {});
    await dispatchEvent(dispatchDeps, event);
    const id = deliveryIdOf(event.id, webhook.id);
    deliveries.set(id, { ...deliveries.get(id)!, ...fields });
    sent.length = 0;
    return { webhook, event, id, delivery: () => deliveries.get(id)! };
  }

  return {
    clock,
    deliveries,
    dispatched,
    deliveryStore,
    webhooks,
    events,
    sent,
    requests,
    transport,
    names,
    attemptDeps,
    dispatchDeps,
    addWebhook,
    addEvent,
    pendingDelivery,
    disabledEvents,
  };
}

describe('deliveryIdOf', () => {
  test('the same for the same event and webhook, UUID-shaped (version 8), another for any other pair', () => {
    const [eventId, webhookId] = [randomUUID(), randomUUID()];
    expect(deliveryIdOf(eventId, webhookId)).toBe(deliveryIdOf(eventId, webhookId));
    expect(deliveryIdOf(eventId, webhookId)).toMatch(UUID_V8);
    expect(deliveryIdOf(webhookId, eventId)).not.toBe(deliveryIdOf(eventId, webhookId));
    const ids = new Set<string>();
    const eventIds = Array.from({ length: 30 }, () => randomUUID());
    const webhookIds = Array.from({ length: 30 }, () => randomUUID());
    for (const e of eventIds) {
      for (const w of webhookIds) {
        const id = deliveryIdOf(e, w);
        expect(id).toMatch(UUID_V8);
        ids.add(id);
      }
    }
    expect(ids.size).toBe(900);
  });

  test('a known pair keeps its id: the first 128 bits of SHA-256("<event>/<webhook>"), version and variant set', () => {
    // SHA-256 of the pair starts 85eebe80d0eb88f6099e7e5074849428: nibble 12 becomes 8 (the version)
    // and nibble 16 (0) takes the variant bits 10 (8).
    expect(deliveryIdOf('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002')).toBe(
      '85eebe80-d0eb-88f6-899e-7e5074849428',
    );
  });
});

describe('dispatchEvent', () => {
  test("a delivery for each enabled webhook of the event's client subscribed to its type, queued at once", async () => {
    const w = world();
    const subscribed = w.addWebhook();
    const several = w.addWebhook({ events: ['payment.rejected', 'payment.settled', 'webhook.test'] });
    w.addWebhook({ events: ['payment.rejected'] });
    w.addWebhook({ enabled: false });
    w.addWebhook({ tenant: 'client-b' });
    const event = w.addEvent();

    const ids = await dispatchEvent(w.dispatchDeps, event);

    const expected = [deliveryIdOf(event.id, subscribed.id), deliveryIdOf(event.id, several.id)];
    expect(ids.sort()).toEqual([...expected].sort());
    expect(w.sent.map((s) => s.deliveryId).sort()).toEqual([...expected].sort());
    expect(w.sent.every((s) => s.delayMs === 0)).toBe(true);
    expect([...w.deliveries.keys()].sort()).toEqual([...expected].sort());
    expect(w.deliveries.get(expected[0]!)).toEqual({
      id: expected[0],
      tenant: 'client-a',
      webhook_id: subscribed.id,
      event_id: event.id,
      event_type: 'payment.settled',
      status: 'PENDING',
      attempts: [],
      round_start: 0,
      next_attempt_at: w.clock.now(),
      created_at: w.clock.now(),
      updated_at: w.clock.now(),
    });
  });

  test('an event no webhook wants makes no delivery and queues nothing', async () => {
    const w = world();
    w.addWebhook({ events: ['qr_code.paid'] });
    expect(await dispatchEvent(w.dispatchDeps, w.addEvent())).toEqual([]);
    expect(w.deliveries.size).toBe(0);
    expect(w.sent).toEqual([]);
  });

  test('a test event: the delivery written with it is queued, whatever its webhook is now, and no other', async () => {
    const w = world();
    const target = w.addWebhook({ events: ['qr_code.paid'] });
    w.addWebhook({ events: ['webhook.test'] });
    const test = w.addEvent({ type: 'webhook.test', webhook_id: target.id, data: { webhook_id: target.id } });
    expect(await dispatchEvent(w.dispatchDeps, test)).toEqual([deliveryIdOf(test.id, target.id)]);

    const disabled = w.addWebhook({ enabled: false, events: ['webhook.test'] });
    const toDisabled = w.addEvent({ type: 'webhook.test', webhook_id: disabled.id });
    expect(await dispatchEvent(w.dispatchDeps, toDisabled)).toEqual([deliveryIdOf(toDisabled.id, disabled.id)]);
    const deletedId = randomUUID();
    const toDeleted = w.addEvent({ type: 'webhook.test', webhook_id: deletedId });
    expect(await dispatchEvent(w.dispatchDeps, toDeleted)).toEqual([deliveryIdOf(toDeleted.id, deletedId)]);
    // sendTestEvent wrote each delivery with its event: the dispatcher makes none.
    expect(w.deliveries.size).toBe(0);
    expect(w.sent.map((s) => s.deliveryId)).toEqual([
      deliveryIdOf(test.id, target.id),
      deliveryIdOf(toDisabled.id, disabled.id),
      deliveryIdOf(toDeleted.id, deletedId),
    ]);
    expect(w.dispatched).toEqual([test.id, toDisabled.id, toDeleted.id]);
  });

  test('a test event to a webhook disabled before its attempt ends FAILED, not PENDING for ever', async () => {
    const w = world();
    const { webhook, id, delivery } = await w.pendingDelivery();
    w.webhooks.set(webhook.id, { ...webhook, enabled: false });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('FAILED');
    expect(delivery()).toMatchObject({
      status: 'FAILED',
      attempts: [{ duration_ms: 0, error: 'Not sent: the webhook is disabled' }],
    });
    expect(w.requests).toEqual([]);
  });

  test('every event is marked dispatched once its deliveries are made, also one no webhook wants', async () => {
    const w = world();
    w.addWebhook();
    const wanted = w.addEvent();
    const unwanted = w.addEvent({ type: 'qr_code.paid' });
    const failing = w.addEvent();
    await dispatchEvent(w.dispatchDeps, wanted);
    await dispatchEvent(w.dispatchDeps, unwanted);
    w.dispatchDeps.queue.send = async () => {
      throw new Error('SQS unavailable');
    };
    // A send that fails leaves the event undispatched: the sweeper (or a stream retry) dispatches it again.
    await expect(dispatchEvent(w.dispatchDeps, failing)).rejects.toThrow('SQS unavailable');
    expect(w.dispatched).toEqual([wanted.id, unwanted.id]);
  });

  test('an event from before a webhook existed (a replay, a re-drive, the sweeper) makes no delivery to it', async () => {
    const w = world();
    const event = w.addEvent();
    w.clock.advance(1);
    w.addWebhook();
    // (A test event's one delivery is written with it, to a webhook that exists: see above.)
    expect(await dispatchEvent(w.dispatchDeps, event)).toEqual([]);
    expect(w.deliveries.size).toBe(0);
    expect(w.dispatched).toEqual([event.id]);
    // Created at the event's very millisecond, it counts as existing.
    const same = w.addWebhook({ created_at: event.created_at });
    expect(await dispatchEvent(w.dispatchDeps, event)).toEqual([deliveryIdOf(event.id, same.id)]);
  });

  test('run twice for one event (a stream batch retried): the same ids, no second delivery, queued again', async () => {
    const w = world();
    w.addWebhook();
    w.addWebhook();
    const event = w.addEvent();
    const first = await dispatchEvent(w.dispatchDeps, event);
    const stored = new Map(w.deliveries);
    w.clock.advance(MINUTE);
    const second = await dispatchEvent(w.dispatchDeps, event);
    expect(second).toEqual(first);
    expect(first).toHaveLength(2);
    // The deliveries made first are kept as they were (not made again at the later time).
    expect(w.deliveries).toEqual(stored);
    expect(w.sent.map((s) => s.deliveryId)).toEqual([...first, ...first]);
  });
});

describe('attemptDelivery', () => {
  test('a message early for its delivery is queued again for the rest of the wait; 34 minutes take three hops', async () => {
    const w = world();
    const due = new Date(Date.parse(w.clock.now()) + 34 * MINUTE).toISOString();
    const { id } = await w.pendingDelivery({}, { next_attempt_at: due });
    // The queue as SQS: a message is delayed at most 15 minutes.
    const outcomes = [];
    for (let hop = 0; hop < 5; hop += 1) {
      const outcome = await attemptDelivery(w.attemptDeps, id);
      outcomes.push(outcome);
      if (outcome !== 'NOT_DUE') break;
      w.clock.advance(Math.min(15 * MINUTE, w.sent.at(-1)!.delayMs));
    }
    expect(outcomes).toEqual(['NOT_DUE', 'NOT_DUE', 'NOT_DUE', 'SUCCEEDED']);
    expect(w.sent.map((s) => s.delayMs)).toEqual([34 * MINUTE, 19 * MINUTE, 4 * MINUTE]);
    expect(w.sent.every((s) => s.deliveryId === id)).toBe(true);
    expect(w.requests).toHaveLength(1);
    expect(w.clock.now()).toBe(due);
  });

  test('an endpoint failing every attempt is held back: its deliveries made due after the cool-down, none counted as an attempt', async () => {
    const w = world();
    const breaker = new EndpointBreaker({ failures: 2, coolDownMs: 30 * SECOND });
    const deps = { ...w.attemptDeps, breaker };
    w.transport.answer = async () => ({ status_code: 503 });
    // Two deliveries fail in a row: the endpoint is held back from the second failure on.
    for (let n = 0; n < 2; n += 1) {
      const { id } = await w.pendingDelivery();
      expect(await attemptDelivery(deps, id)).toBe('RETRYING');
    }
    expect(w.requests).toHaveLength(2);
    const held = await w.pendingDelivery();
    w.clock.advance(10 * SECOND);
    expect(await attemptDelivery(deps, held.id)).toBe('HELD');
    expect(w.requests).toHaveLength(2);
    // Due when the cool-down ends (20 s from now), queued for then, and no attempt recorded.
    expect(held.delivery().attempts).toEqual([]);
    expect(held.delivery().next_attempt_at).toBe(new Date(Date.parse(w.clock.now()) + 20 * SECOND).toISOString());
    expect(w.sent).toEqual([{ deliveryId: held.id, delayMs: 20 * SECOND }]);
    // Another client's webhook at the same URL is not held back: one client's failures there (say,
    // deliveries the receiver refuses, not signed by its owner) never hold back another's.
    const neighbour = await w.pendingDelivery({ tenant: 'client-b' });
    w.transport.answer = async () => ({ status_code: 200 });
    expect(await attemptDelivery(deps, neighbour.id)).toBe('SUCCEEDED');
    w.transport.answer = async () => ({ status_code: 503 });
    // Another endpoint is not held back.
    const other = await w.pendingDelivery({ url: 'https://hooks.example.com/other' });
    w.transport.answer = async () => ({ status_code: 200 });
    expect(await attemptDelivery(deps, other.id)).toBe('SUCCEEDED');
    // After the cool-down one attempt goes through; it succeeds, and the endpoint is open again.
    w.clock.advance(20 * SECOND);
    const next = await w.pendingDelivery();
    expect(await attemptDelivery(deps, held.id)).toBe('SUCCEEDED');
    expect(await attemptDelivery(deps, next.id)).toBe('SUCCEEDED');
    expect(w.requests.map((request) => request.url.pathname)).toEqual([
      '/breb',
      '/breb',
      '/breb',
      '/other',
      '/breb',
      '/breb',
    ]);
  });

  test('success: one POST of the event, signed, to the address checked; SUCCEEDED, nothing queued', async () => {
    const w = world();
    const { webhook, event, id, delivery } = await w.pendingDelivery();
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');

    expect(w.requests).toHaveLength(1);
    const [request] = w.requests;
    expect(request!.url.href).toBe('https://hooks.example.com/breb');
    expect(request!.address).toBe(PUBLIC_ADDRESS);
    expect(request!.body).toBe(eventBody(event));
    expect(JSON.parse(request!.body)).toEqual({
      id: event.id,
      type: event.type,
      created_at: event.created_at,
      data: event.data,
    });
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'webhook-id': event.id,
      'webhook-timestamp': String(Date.parse(w.clock.now()) / SECOND),
    });
    expect(() =>
      new Webhook(webhook.clearSecrets[0]!.secret).verify(request!.body, { ...request!.headers }),
    ).not.toThrow();
    expect(request!.timeoutMs).toBeGreaterThan(0);
    expect(request!.timeoutMs).toBeLessThanOrEqual(SETTINGS.timeoutMs);

    expect(delivery()).toMatchObject({
      status: 'SUCCEEDED',
      attempts: [{ attempted_at: w.clock.now(), status_code: 200 }],
    });
    expect(delivery()).not.toHaveProperty('next_attempt_at');
    expect(delivery().attempts[0]).not.toHaveProperty('error');
    expect(w.sent).toEqual([]);
    // A message for it again (SQS delivers at least once): nothing more is sent.
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('DONE_ALREADY');
    expect(w.requests).toHaveLength(1);
  });

  test('RETRY: retry n waits its jitter × base × 2^(n-1) from the end of the attempt before it; 12 retries, then FAILED', async () => {
    // The design's "up to 12 retries" (docs/webhooks.md).
    expect(MAX_RETRIES).toBe(12);
    const w = world();
    w.transport.answer = async () => ({ status_code: 503 });
    const { id, delivery } = await w.pendingDelivery();

    for (let n = 1; n <= MAX_RETRIES; n += 1) {
      expect(await attemptDelivery(w.attemptDeps, id)).toBe('RETRYING');
      const last = delivery().attempts.at(-1)!;
      const wait = jittered(n);
      expect(retryDelayMs(SETTINGS, n, () => JITTER)).toBe(wait);
      expect(delivery().status).toBe('PENDING');
      expect(Date.parse(delivery().next_attempt_at!)).toBe(Date.parse(last.attempted_at) + last.duration_ms + wait);
      expect(w.sent.at(-1)).toEqual({ deliveryId: id, delayMs: last.duration_ms + wait });
      // A message a little early (SQS rounds up, a duplicate): it waits for the rest.
      w.clock.advance(last.duration_ms + wait - 1);
      expect(await attemptDelivery(w.attemptDeps, id)).toBe('NOT_DUE');
      expect(w.sent.at(-1)).toEqual({ deliveryId: id, delayMs: 1 });
      w.clock.advance(1);
    }
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('FAILED');

    expect(w.requests).toHaveLength(1 + MAX_RETRIES);
    expect(delivery().status).toBe('FAILED');
    expect(delivery()).not.toHaveProperty('next_attempt_at');
    expect(delivery().attempts).toHaveLength(1 + MAX_RETRIES);
    for (const attempt of delivery().attempts) {
      expect(attempt).toMatchObject({ status_code: 503, error: 'HTTP 503: not a 2xx answer' });
    }
    // One message per retry and per early message, none after the last attempt.
    expect(w.sent).toHaveLength(2 * MAX_RETRIES);
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('DONE_ALREADY');
    expect(w.requests).toHaveLength(1 + MAX_RETRIES);
    expect(w.sent).toHaveLength(2 * MAX_RETRIES);
  });

  test('each retry waits between half and all of base × 2^(n-1), capped at a day, spread over that window', () => {
    for (let n = 1; n <= MAX_RETRIES; n += 1) {
      const ceiling = SETTINGS.retryBaseMs * 2 ** (n - 1);
      expect(retryCeilingMs(SETTINGS, n)).toBe(ceiling);
      // The bounds, with a fixed random source: the lowest draw waits half, the highest just under all.
      expect(retryDelayMs(SETTINGS, n, () => 0)).toBe(ceiling / 2);
      expect(retryDelayMs(SETTINGS, n, () => 1 - Number.EPSILON)).toBe(ceiling - 1);
      // A thousand deliveries failing together come back spread over the upper half, not at one instant.
      const waits = Array.from({ length: 1000 }, () => retryDelayMs(SETTINGS, n, Math.random));
      expect(Math.min(...waits)).toBeGreaterThanOrEqual(ceiling / 2);
      expect(Math.max(...waits)).toBeLessThan(ceiling);
      expect(new Set(waits).size).toBeGreaterThan(Math.min(ceiling / 2, 1000) / 2);
      const mean = waits.reduce((a, b) => a + b, 0) / waits.length;
      expect(Math.abs(mean - (ceiling * 3) / 4)).toBeLessThan(ceiling * 0.05);
      // Waits never shrink: the shortest wait before the next retry is the longest before this one.
      if (n < MAX_RETRIES) {
        expect(retryDelayMs(SETTINGS, n + 1, () => 0)).toBeGreaterThanOrEqual(
          retryDelayMs(SETTINGS, n, () => 1 - Number.EPSILON),
        );
      }
    }
  });

  test('the default schedule: a minute first, a day at most, some one to two and a half days in all', () => {
    const schedule = { retryBaseMs: DEFAULT_WEBHOOK_RETRY_BASE_MS };
    expect(DEFAULT_WEBHOOK_RETRY_BASE_MS).toBe(MINUTE);
    const bounds = Array.from({ length: MAX_RETRIES }, (_, i) => [
      retryDelayMs(schedule, i + 1, () => 0),
      retryDelayMs(schedule, i + 1, () => 1 - Number.EPSILON),
    ]);
    expect(bounds[0]).toEqual([30 * SECOND, MINUTE - 1]);
    // The 11th retry's ceiling is 1,024 minutes; the 12th's, 2,048, is capped at a day.
    expect(bounds[10]).toEqual([512 * MINUTE, 1_024 * MINUTE - 1]);
    // (At a day, the highest draw rounds to the ceiling itself: never past it.)
    expect(bounds[11]![0]).toBe(MAX_RETRY_DELAY_MS / 2);
    expect(bounds[11]![1]).toBeGreaterThanOrEqual(MAX_RETRY_DELAY_MS - 1);
    expect(bounds[11]![1]).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
    expect(MAX_RETRY_DELAY_MS).toBe(24 * 60 * MINUTE);
    const [earliest, latest] = [0, 1].map((side) => bounds.reduce((sum, bound) => sum + bound[side]!, 0));
    // The last retry comes 1 day 5 h 3.5 min to 2 days 10 h 7 min after the first attempt.
    expect(earliest).toBe(1_743.5 * MINUTE);
    expect(latest).toBeGreaterThanOrEqual(3_487 * MINUTE - MAX_RETRIES);
    expect(latest).toBeLessThanOrEqual(3_487 * MINUTE);
    // However large the base, no wait exceeds the cap.
    const slow = { ...SETTINGS, retryBaseMs: 10 * 60 * 60 * SECOND };
    expect(retryCeilingMs(slow, MAX_RETRIES)).toBe(MAX_RETRY_DELAY_MS);
    expect(retryDelayMs(slow, MAX_RETRIES, () => 1 - Number.EPSILON)).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
  });

  test("the delivery's next attempt takes the jitter its deps draw", async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 503 });
    const draws = [0.1, 0.9];
    const deps: AttemptDeps = { ...w.attemptDeps, random: () => draws.shift()! };
    const one = await w.pendingDelivery();
    const two = await w.pendingDelivery();
    expect(await attemptDelivery(deps, one.id)).toBe('RETRYING');
    expect(await attemptDelivery(deps, two.id)).toBe('RETRYING');
    const waitOf = (d: StoredDelivery) =>
      Date.parse(d.next_attempt_at!) - Date.parse(d.attempts[0]!.attempted_at) - d.attempts[0]!.duration_ms;
    expect([waitOf(one.delivery()), waitOf(two.delivery())]).toEqual([
      Math.floor(0.55 * SETTINGS.retryBaseMs),
      Math.floor(0.95 * SETTINGS.retryBaseMs),
    ]);
  });

  test('the wait counts from the end of a slow attempt, and the timeout covers the lookup', async () => {
    const w = world();
    const resolve = w.attemptDeps.urls.resolver.resolve;
    const slowResolver = {
      resolve: async (host: string) => (await new Promise((r) => setTimeout(r, 40)), resolve(host)),
    };
    const deps: AttemptDeps = { ...w.attemptDeps, urls: { ...w.attemptDeps.urls, resolver: slowResolver } };
    w.transport.answer = async (request) => {
      await new Promise((r) => setTimeout(r, 60));
      expect(request.timeoutMs).toBeLessThanOrEqual(SETTINGS.timeoutMs - 35);
      return { timedOut: true };
    };
    const { id, delivery } = await w.pendingDelivery();
    expect(await attemptDelivery(deps, id)).toBe('RETRYING');
    const [attempt] = delivery().attempts;
    expect(attempt).toEqual({
      attempted_at: w.clock.now(),
      duration_ms: expect.any(Number),
      error: `No answer within ${SETTINGS.timeoutMs} ms`,
    });
    expect(attempt!.duration_ms).toBeGreaterThanOrEqual(95);
    expect(Date.parse(delivery().next_attempt_at!) - Date.parse(attempt!.attempted_at)).toBe(
      attempt!.duration_ms + jittered(1),
    );
  });

  test('a redelivered round gets 12 retries of its own, from the first delay again', async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 500 });
    const earlier = Array.from({ length: 1 + MAX_RETRIES }, () => ({
      attempted_at: '2026-11-23T10:00:00.000Z',
      status_code: 500,
      duration_ms: 3,
      error: 'HTTP 500: not a 2xx answer',
    }));
    const { id, delivery } = await w.pendingDelivery({}, { attempts: earlier, round_start: earlier.length });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('RETRYING');
    expect(w.sent).toEqual([{ deliveryId: id, delayMs: delivery().attempts.at(-1)!.duration_ms + jittered(1) }]);
  });

  test.each([
    ['an error status', { status_code: 500 }, { status_code: 500, error: 'HTTP 500: not a 2xx answer' }],
    ['a redirect', { status_code: 302 }, { status_code: 302, error: 'HTTP 302: redirects are not followed' }],
    ['no answer in time', { timedOut: true as const }, { error: `No answer within ${SETTINGS.timeoutMs} ms` }],
    ['a refused connection', { error: 'Connection refused by x:1' }, { error: 'Connection refused by x:1' }],
  ])('ONCE: %s ends the delivery FAILED after one attempt, nothing queued', async (_what, answer, attempt) => {
    const w = world();
    w.transport.answer = async () => answer;
    const { id, delivery } = await w.pendingDelivery({ delivery_mode: 'ONCE' });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('FAILED');
    expect(delivery().status).toBe('FAILED');
    expect(delivery().attempts).toEqual([{ attempted_at: w.clock.now(), duration_ms: expect.any(Number), ...attempt }]);
    expect(w.requests).toHaveLength(1);
    expect(w.sent).toEqual([]);
  });

  test('ONCE: a 2xx succeeds', async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 204 });
    const { id, delivery } = await w.pendingDelivery({ delivery_mode: 'ONCE' });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');
    expect(delivery().attempts).toEqual([
      { attempted_at: w.clock.now(), duration_ms: expect.any(Number), status_code: 204 },
    ]);
  });

  test.each([
    ['disabled', 'the webhook is disabled'],
    ['deleted', 'the webhook was deleted'],
    ['event expired', 'the event has expired (events are kept 30 days)'],
  ])('%s: FAILED, Not sent, even in RETRY; the transport never called', async (what, why) => {
    const w = world();
    const { webhook, event, id, delivery } = await w.pendingDelivery();
    if (what === 'disabled') w.webhooks.set(webhook.id, { ...webhook, enabled: false });
    if (what === 'deleted') w.webhooks.delete(webhook.id);
    if (what === 'event expired') w.events.delete(event.id);
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('FAILED');
    expect(delivery()).toMatchObject({
      status: 'FAILED',
      attempts: [{ attempted_at: w.clock.now(), duration_ms: 0, error: `Not sent: ${why}` }],
    });
    expect(delivery().attempts[0]).not.toHaveProperty('status_code');
    expect(w.requests).toEqual([]);
    expect(w.sent).toEqual([]);
  });

  describe('the URL checked again at send time', () => {
    test.each([
      [
        'a private address',
        DEPLOYED,
        'https://hooks.example.com/breb',
        ['10.0.0.1'],
        'must not point to a non-public address: its host resolves to a non-public address',
      ],
      [
        'the metadata service',
        DEPLOYED,
        'https://hooks.example.com/breb',
        ['169.254.169.254'],
        'must not point to a non-public address: its host resolves to a non-public address',
      ],
      [
        'one private address among public ones',
        DEPLOYED,
        'https://hooks.example.com/breb',
        [PUBLIC_ADDRESS, '10.0.0.1'],
        'must not point to a non-public address: its host resolves to a non-public address',
      ],
      [
        'no address any more',
        DEPLOYED,
        'https://hooks.example.com/breb',
        [],
        'has a host, hooks.example.com, that does not resolve to any address',
      ],
      [
        'localhost resolving off this machine (local stage)',
        LOCAL,
        'http://localhost:4010/hook',
        ['192.168.1.20'],
        'must not point to anything but this machine: its host resolves to an address other than loopback',
      ],
    ])(
      'a name that now resolves to %s: Not sent, the transport never called',
      async (_what, policy, url, addresses, why) => {
        const host = new URL(url).hostname;
        const w = world({ policy, names: { [host]: addresses } });
        const { id, delivery } = await w.pendingDelivery({ url });
        // RETRY: the name may resolve to a public address again by the next attempt.
        expect(await attemptDelivery(w.attemptDeps, id)).toBe('RETRYING');
        expect(delivery().attempts).toEqual([
          { attempted_at: w.clock.now(), duration_ms: expect.any(Number), error: `Not sent: the URL ${why}` },
        ]);
        expect(w.requests).toEqual([]);
      },
    );

    test('the transport gets the address the check passed, with the URL of the name', async () => {
      const w = world({ names: { 'hooks.example.com': ['2606:2800:220:1:248:1893:25c8:1946', PUBLIC_ADDRESS] } });
      const { id } = await w.pendingDelivery();
      expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');
      expect(w.requests.map((r) => [r.url.hostname, r.address])).toEqual([
        ['hooks.example.com', '2606:2800:220:1:248:1893:25c8:1946'],
      ]);
    });

    test('the address of the lookup made at send time, not of an earlier one', async () => {
      const w = world();
      const { id } = await w.pendingDelivery();
      w.names.set('hooks.example.com', ['93.184.216.35']);
      expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');
      expect(w.requests[0]!.address).toBe('93.184.216.35');
    });

    test('on the local stage, localhost resolving to loopback is posted to over http', async () => {
      const w = world({ policy: LOCAL, names: { localhost: ['127.0.0.1'] } });
      const { id } = await w.pendingDelivery({ url: 'http://localhost:4010/hook' });
      expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');
      expect(w.requests.map((r) => [r.url.href, r.address])).toEqual([['http://localhost:4010/hook', '127.0.0.1']]);
    });
  });

  test("the webhook's secrets never appear in what is recorded or queued", async () => {
    const w = world();
    const [current, previous] = [newSecret(), newSecret()];
    const secrets = [{ secret: current }, { secret: previous, expires_at: '2999-01-01T00:00:00.000Z' }];
    let calls = 0;
    w.transport.answer = async () =>
      (calls += 1) === 1 ? { error: 'Connection reset by hooks.example.com' } : { status_code: 200 };
    const { id, delivery } = await w.pendingDelivery({ secrets });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('RETRYING');
    w.clock.advance(w.sent.at(-1)!.delayMs);
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('SUCCEEDED');

    const written = JSON.stringify([delivery(), w.sent]);
    const sentOut = JSON.stringify(w.requests.map((r) => [r.headers, r.body]));
    for (const secret of [current, previous]) {
      for (const text of [written, sentOut]) {
        expect(text).not.toContain(secret);
        expect(text).not.toContain(secret.slice('whsec_'.length));
      }
    }
    // Both secrets signed (a rotation), each signature verifying alone.
    for (const request of w.requests) {
      expect(request.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      for (const secret of [current, previous]) {
        expect(() => new Webhook(secret).verify(request.body, { ...request.headers })).not.toThrow();
      }
    }
  });

  test('a lost race (another sender recorded first): DONE_ALREADY, and nothing queued', async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 500 });
    const { id, delivery } = await w.pendingDelivery();
    w.deliveryStore.loseRaces = true;
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('DONE_ALREADY');
    expect(w.sent).toEqual([]);
    expect(delivery().attempts).toEqual([]);
  });

  test('two senders of one message at once: one attempt recorded, one retry queued', async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 500 });
    const { id, delivery } = await w.pendingDelivery();
    const outcomes = await Promise.all([attemptDelivery(w.attemptDeps, id), attemptDelivery(w.attemptDeps, id)]);
    expect(outcomes.sort()).toEqual(['DONE_ALREADY', 'RETRYING']);
    expect(delivery().attempts).toHaveLength(1);
    expect(w.sent).toHaveLength(1);
  });

  test('an unknown delivery, or one no longer PENDING: DONE_ALREADY, nothing sent', async () => {
    const w = world();
    expect(await attemptDelivery(w.attemptDeps, randomUUID())).toBe('DONE_ALREADY');
    const { id } = await w.pendingDelivery({}, { status: 'FAILED' });
    expect(await attemptDelivery(w.attemptDeps, id)).toBe('DONE_ALREADY');
    expect(w.requests).toEqual([]);
    expect(w.sent).toEqual([]);
  });
});

describe('redeliver, of a delivery still PENDING', () => {
  /** Redeliver's dependencies over the world's stores: a reopening would fail the test. */
  const redeliverDeps = (w: ReturnType<typeof world>) => ({
    webhooks: w.attemptDeps.webhooks,
    deliveries: {
      get: w.deliveryStore.get,
      reopen: async (): Promise<undefined> => {
        throw new Error('A PENDING delivery is never reopened');
      },
    },
    queue: w.attemptDeps.queue,
    clock: w.clock,
  });

  test('is 409 while its attempt may still be on its way', async () => {
    const w = world();
    const { webhook, id } = await w.pendingDelivery();
    w.clock.advance(STALLED_AFTER_MS);
    await expect(redeliver(redeliverDeps(w), 'client-a', webhook.id, id)).rejects.toMatchObject({
      code: 'DELIVERY_IN_PROGRESS',
    });
    expect(w.sent).toEqual([]);
  });

  test('whose attempt has stalled (its message lost after its commit): queued again, answered as it is', async () => {
    const w = world();
    const { webhook, id, delivery } = await w.pendingDelivery();
    const before = delivery();
    w.clock.advance(STALLED_AFTER_MS + 1);
    const answer = await redeliver(redeliverDeps(w), 'client-a', webhook.id, id);
    expect(answer).toMatchObject({ id, status: 'PENDING', attempts: [], next_attempt_at: before.next_attempt_at });
    expect(w.sent).toEqual([{ deliveryId: id, delayMs: 0 }]);
    expect(delivery()).toEqual(before);
  });
});

describe('a webhook whose every attempt fails for WEBHOOK_DISABLE_AFTER_MS is disabled', () => {
  /** One ONCE delivery of a new event to the webhook, attempted now; answers its outcome. */
  async function deliverOnce(w: ReturnType<typeof world>, webhookId: string) {
    const event = w.addEvent();
    await dispatchEvent(w.dispatchDeps, event);
    return attemptDelivery(w.attemptDeps, deliveryIdOf(event.id, webhookId));
  }

  test('a run of failures starts at the first; a failure the window after it disables the webhook, once', async () => {
    const w = world();
    w.transport.answer = async () => ({ status_code: 500 });
    const failing = w.addWebhook({ delivery_mode: 'ONCE' });
    const started = w.clock.now();
    expect(await deliverOnce(w, failing.id)).toBe('FAILED');
    expect(w.webhooks.get(failing.id)).toMatchObject({ enabled: true, failing_since: started });

    // Every attempt failing for a millisecond less than the window: still enabled, the run unchanged.
    w.clock.advance(SETTINGS.disableAfterMs - 1);
    expect(await deliverOnce(w, failing.id)).toBe('FAILED');
    expect(w.webhooks.get(failing.id)).toMatchObject({ enabled: true, failing_since: started });
    expect(w.disabledEvents).toEqual([]);

    w.clock.advance(1);
    expect(await deliverOnce(w, failing.id)).toBe('FAILED');
    const disabled = w.webhooks.get(failing.id)!;
    expect(disabled).toMatchObject({ enabled: false, disabled_reason: 'DELIVERIES_FAILED', updated_at: w.clock.now() });
    expect(w.disabledEvents).toHaveLength(1);
    const [{ event, evidence }] = w.disabledEvents as [{ event: DomainEvent; evidence: string }];
    expect(event).toMatchObject({ tenant: 'client-a', type: 'webhook.disabled', created_at: w.clock.now() });
    // The webhook as GET answers it: no secret.
    expect(event.data).toEqual({
      id: failing.id,
      url: failing.url,
      events: failing.events,
      delivery_mode: 'ONCE',
      enabled: false,
      failing_since: started,
      disabled_reason: 'DELIVERIES_FAILED',
      created_at: failing.created_at,
      updated_at: w.clock.now(),
    });
    expect(evidence).toBe(`Every delivery attempt failed from ${started} to ${w.clock.now()}`);

    // Disabled: the next event is not even sent to it, and nothing more is noted.
    const sentBefore = w.requests.length;
    expect(await deliverOnce(w, failing.id)).toBe('DONE_ALREADY');
    expect(w.requests).toHaveLength(sentBefore);
    expect(w.disabledEvents).toHaveLength(1);
  });

  test("its webhook.disabled goes to the client's other webhooks, never to the one disabled", async () => {
    const w = world();
    const failing = w.addWebhook({
      url: 'https://hooks.example.com/down',
      delivery_mode: 'ONCE',
      events: ['payment.settled', 'webhook.disabled'],
    });
    const other = w.addWebhook({ events: ['webhook.disabled'] });
    // Another client's webhook, subscribed too: never told of this client's.
    w.addWebhook({ tenant: 'client-b', events: ['webhook.disabled'] });
    w.transport.answer = async () => ({ status_code: 500 });
    await deliverOnce(w, failing.id);
    w.clock.advance(SETTINGS.disableAfterMs);
    await deliverOnce(w, failing.id);
    const [{ event }] = w.disabledEvents as [{ event: DomainEvent; evidence: string }];

    // Even enabled again before the dispatch, the disabled webhook is not told of itself.
    w.webhooks.set(failing.id, { ...w.webhooks.get(failing.id)!, enabled: true });
    expect(await dispatchEvent(w.dispatchDeps, event)).toEqual([deliveryIdOf(event.id, other.id)]);
  });

  test('a success ends the run: the window counts again from the next failure', async () => {
    const w = world();
    const webhook = w.addWebhook({ delivery_mode: 'ONCE' });
    w.transport.answer = async () => ({ status_code: 500 });
    await deliverOnce(w, webhook.id);
    w.clock.advance(SETTINGS.disableAfterMs - 1);
    w.transport.answer = async () => ({ status_code: 204 });
    expect(await deliverOnce(w, webhook.id)).toBe('SUCCEEDED');
    expect(w.webhooks.get(webhook.id)).not.toHaveProperty('failing_since');

    w.clock.advance(1);
    w.transport.answer = async () => ({ status_code: 500 });
    await deliverOnce(w, webhook.id);
    const restarted = w.clock.now();
    w.clock.advance(SETTINGS.disableAfterMs - 1);
    await deliverOnce(w, webhook.id);
    expect(w.webhooks.get(webhook.id)).toMatchObject({ enabled: true, failing_since: restarted });
    expect(w.disabledEvents).toEqual([]);
  });

  test('an attempt not sent (the event expired) says nothing of the receiver', async () => {
    const w = world();
    const webhook = w.addWebhook({ delivery_mode: 'ONCE' });
    const event = w.addEvent();
    await dispatchEvent(w.dispatchDeps, event);
    w.events.delete(event.id);
    expect(await attemptDelivery(w.attemptDeps, deliveryIdOf(event.id, webhook.id))).toBe('FAILED');
    expect(w.webhooks.get(webhook.id)).not.toHaveProperty('failing_since');
  });

  test('a change of the webhook between its read and the disable wins: nothing is disabled', async () => {
    const w = world();
    const webhook = w.addWebhook({ delivery_mode: 'ONCE' });
    w.transport.answer = async () => ({ status_code: 500 });
    await deliverOnce(w, webhook.id);
    w.clock.advance(SETTINGS.disableAfterMs);
    // A PATCH lands while the last attempt is in flight (the sender read the webhook before it).
    w.transport.answer = async () => {
      w.webhooks.set(webhook.id, { ...w.webhooks.get(webhook.id)!, updated_at: w.clock.now() });
      return { status_code: 500 };
    };
    await deliverOnce(w, webhook.id);
    expect(w.webhooks.get(webhook.id)).toMatchObject({ enabled: true });
    expect(w.disabledEvents).toEqual([]);
  });
});
