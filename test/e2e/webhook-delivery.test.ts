/**
 * Webhook delivery end to end (docs/webhooks.md): payments through the real local server with real
 * tokens, their events read from DynamoDB Local's stream by the dispatcher and sent by the sender to
 * a real receiver on loopback, which verifies every signature with the `standardwebhooks` package.
 * Every event type (webhook.disabled too, with a short disabling window for that test); only
 * subscribed, enabled webhooks of the event's client; the retry schedule (a short base: its lower
 * and upper bounds, a receiver down through four retries then up), ONCE, timeouts, refused
 * connections and redirects, the delivery log, redelivery, the test event, secret rotation, and 25
 * concurrent payments giving exactly their events.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { colombiaDay } from '../../shared/calendar/colombia-days';
import { MAX_RETRIES } from '../../shared/domain/deliveries';
import { ENV } from '../../shared/runtime/config';
import { signedHeaders } from '../../shared/domain/webhook-signature';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks';
import { walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem } from '../support/problems';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver, type Received } from '../support/webhook-receiver';

/** Short enough that twelve retries take seconds: 5 ms × (2^12 − 1) ≈ 20 s in all. */
const RETRY_BASE_MS = 5;
const TIMEOUT_MS = 400;
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const ALL_TYPES = [...WEBHOOK_EVENT_TYPES];

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
let payer: MerchantWithKey;

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({
      sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS,
      webhookRetryBaseMs: RETRY_BASE_MS,
      webhookTimeoutMs: TIMEOUT_MS,
      // 25 payments from one account at once meet on its balance, and DynamoDB Local runs their
      // transactions one at a time: on a loaded CI machine 4 of them once took over the deployed
      // 10 s. What this file tests is the events, not that latency.
      routeTimeoutMs: 30_000,
    }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  payer = await merchantWithKey(api, tokenA, { availableBalance: '100000.00' });
});
afterAll(async () => {
  delete process.env[ENV.webhookDisableAfterMs];
  await api?.stop();
  await receiver?.stop();
});

let paths = 0;
/** A webhook of `token`'s client to a path of its own on the receiver, which learns its secret. */
async function webhook(
  body: Record<string, unknown> = {},
  token = tokenA,
): Promise<{ id: string; path: string; secret: string }> {
  const path = `/hook-${++paths}`;
  const answer = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}${path}`, events: ALL_TYPES, ...body },
  });
  expect(answer.status).toBe(200);
  receiver.secrets.set(path, [answer.body.secret]);
  return { id: answer.body.id, path, secret: answer.body.secret };
}

async function resolve(customerId: string, key: Record<string, string>, token = tokenA): Promise<string> {
  const answer = await api.request('POST', '/v1/resolve-key', { token, body: { customer_id: customerId, key } });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

async function pay(value: string, key: Record<string, string> = ANA_PHONE): Promise<Record<string, any>> {
  const answer = await api.request('POST', '/v1/payments', {
    token: tokenA,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: await resolve(payer.customerId, key),
      amount: { value, currency: 'COP' },
    },
  });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The deliveries of a webhook, every page. */
const deliveriesOf = async (webhookId: string, token = tokenA): Promise<Record<string, any>[]> =>
  (await walkAll(api, token, `/v1/webhooks/${webhookId}/deliveries`, 'deliveries', { page_size: 100 })).items;

/** Waits until the delivery of `eventId` to the webhook is no longer PENDING; answers it. */
async function finishedDelivery(webhookId: string, eventId: string, timeoutMs = 30_000): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const delivery = (await deliveriesOf(webhookId)).find((d) => d.event_id === eventId);
    if (delivery && delivery.status !== 'PENDING') return delivery;
    if (Date.now() > deadline) throw new Error(`Delivery of ${eventId} still ${delivery?.status ?? 'absent'}`);
    await sleep(100);
  }
}

const eventsAt = (path: string, paymentId?: string): Received[] =>
  receiver.at(path).filter((r) => paymentId === undefined || r.event.data['id'] === paymentId);

describe('events reach the webhooks that want them, signed', () => {
  it('every event type, verified by standardwebhooks, with webhook-id = the event id and the payment as GET answers it', async () => {
    const hook = await webhook();
    const payee = await merchantWithKey(api, tokenA);
    // webhook.disabled: another webhook whose every attempt fails for the window, shortened for this
    // test alone (the sender reads the setting at each batch; the retry tests below need the default).
    process.env[ENV.webhookDisableAfterMs] = '1000';
    const failing = await webhook({ events: ['webhook.test'] });
    receiver.behave(failing.path, 'fail');
    expect((await api.request('POST', `/v1/webhooks/${failing.id}/test`, { token: tokenA })).status).toBe(200);

    const settled = await pay('10.00');
    const rejected = await pay('10.99');
    const own = await pay('5.00', payee.key);
    const code = await api.request('POST', '/v1/qrcodes', {
      token: tokenA,
      body: {
        customer_id: payee.customerId,
        key_id: payee.keyId,
        type: 'DYNAMIC',
        channel: 'POS',
        qr_code_reference: `WH${process.pid % 10000}X${Date.now() % 100000}`,
        amount: { value: '119.00', currency: 'COP' },
        vat: { vat_type: 'FIXED', vat_value: '19.00', vat_base_value: '100.00' },
        inc: { inc_type: 'WALLET' },
        additional_info: { transaction_purpose: '00', terminal_label: 'CAJA01' },
      },
    });
    expect(code.status).toBe(200);
    const qrPaid = await api.request('POST', `/sandbox/qrcodes/${code.body.id}/pay`, { token: tokenA, body: {} });
    expect(qrPaid.status).toBe(200);
    // The code's payment given back: 10.00 settles, 0.99 is rejected (the sandbox's .99 rule).
    const refund = async (value: string) => {
      const answer = await api.request('POST', `/v1/payments/${qrPaid.body.id}/refunds`, {
        token: tokenA,
        headers: { 'idempotency-key': `wh-refund-${value}-${Date.now()}` },
        body: { amount: { value, currency: 'COP' } },
      });
      expect(answer.status).toBe(200);
    };
    await refund('10.00');
    await refund('0.99');
    // The sponsor bank takes 1.00 of it back (the sandbox's credits come through the network's door,
    // which this stage's simulator signs with the network secret): payment.reversed.
    const reversal = JSON.stringify({
      reversal_id: `wh-${Date.now()}`,
      amount: { value: '1.00', currency: 'COP' },
      reason: 'Fraude',
    });
    // The network's door is not the clients' contract: plain fetch, not api.request's contract check.
    const reversed = await fetch(`${api.url}/network/v1/credits/${qrPaid.body.end_to_end_id}/reversals`, {
      method: 'POST',
      body: reversal,
      headers: {
        'content-type': 'application/json',
        ...signedHeaders(`msg_${randomUUID()}`, Math.floor(Date.now() / 1000), reversal, [api.runtime.networkSecret!]),
      },
    });
    expect(reversed.status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const report = await api.request('POST', '/v1/reports', {
      token: tokenA,
      headers: { 'idempotency-key': `wh-report-${Date.now()}` },
      body: { type: 'payments', created_from: today, created_to: today },
    });
    expect(report.status).toBe(200);
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ webhook_id: hook.id, event_type: 'webhook.test', status: 'PENDING' });
    // A customer deactivated: customer.updated, the customer as GET answers it.
    const leaving = await merchantWithKey(api, tokenA);
    const deactivated = await api.request('PATCH', `/v1/customers/${leaving.customerId}`, {
      token: tokenA,
      body: { status: 'INACTIVE' },
    });
    expect(deactivated.status).toBe(200);
    // The bank's file of the day, empty, signed as the sandbox's simulator signs: the client's transfers
    // settled today are missing at the bank, and its day's reconciliation.completed follows.
    const date = colombiaDay(new Date().toISOString());
    const file = await fetch(`${api.url}/network/v1/settlement-files/${date}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/x-ndjson',
        ...signedHeaders(`msg_${randomUUID()}`, Math.floor(Date.now() / 1000), '', [api.runtime.networkSecret!]),
      },
      body: '',
    });
    expect(file.status).toBe(202);

    const expected = (): [string, string][] => [
      ['payment.outbound.confirmed', settled['id']],
      ['payment.settled', settled['id']],
      ['payment.outbound.confirmed', rejected['id']],
      ['payment.rejected', rejected['id']],
      ['payment.outbound.confirmed', own['id']],
      ['payment.settled', own['id']],
    ];
    await receiver.until(
      () =>
        expected().every(([type, id]) => eventsAt(hook.path, id).some((r) => r.event.type === type)) &&
        [
          'payment.inbound.received',
          'payment.inbound.confirmed',
          'qr_code.paid',
          'refund.created',
          'refund.settled',
          'refund.rejected',
          'report.ready',
          'webhook.test',
          'customer.updated',
          'reconciliation.completed',
          'payment.reversed',
          'webhook.disabled',
        ].every((type) => receiver.at(hook.path).some((r) => r.event.type === type)),
    );
    delete process.env[ENV.webhookDisableAfterMs];
    const received = receiver.at(hook.path);
    expect(new Set(received.map((r) => r.event.type))).toEqual(new Set(ALL_TYPES));
    for (const r of received) {
      expect(r.verifiedBy).toEqual([hook.secret]);
      expect(r.headers['webhook-id']).toBe(r.event.id);
      expect(Number(r.headers['webhook-timestamp'])).toBeGreaterThan(Date.now() / 1000 - 60);
      expect(r.headers['content-type']).toBe('application/json');
      expect(Object.keys(r.event).sort()).toEqual(['created_at', 'data', 'id', 'type']);
    }

    // A settled payment's event carries it as GET answers it afterwards.
    const read = await answeredPayment(api, tokenA, settled['id']);
    const settledEvent = eventsAt(hook.path, settled['id']).find((r) => r.event.type === 'payment.settled')!;
    expect(settledEvent.event.data).toEqual(read.body);
    expect(
      eventsAt(hook.path, settled['id']).find((r) => r.event.type === 'payment.outbound.confirmed')!.event.data,
    ).toEqual(settled);
    // The QR code's payment carries the code and its prefixed reference.
    const inbound = receiver
      .at(hook.path)
      .find((r) => r.event.type === 'payment.inbound.received' && r.event.data['qr_code_id']);
    expect(inbound!.event.data).toMatchObject({ qr_code_id: code.body.id, qr_code_reference: expect.any(String) });
    const paid = receiver.at(hook.path).find((r) => r.event.type === 'qr_code.paid')!;
    expect(paid.event.data).toMatchObject({ id: code.body.id, status: 'PAID' });
    expect(receiver.at(hook.path).find((r) => r.event.type === 'webhook.test')!.event.data).toEqual({
      webhook_id: hook.id,
    });
    expect(receiver.at(hook.path).find((r) => r.event.type === 'customer.updated')!.event.data).toEqual(
      deactivated.body,
    );
    // The day as its GET answers it once the file is matched.
    const reconciled = await api.request('GET', `/v1/settlement-reconciliations/${date}`, { token: tokenA });
    expect(receiver.at(hook.path).find((r) => r.event.type === 'reconciliation.completed')!.event.data).toEqual(
      reconciled.body,
    );
    // The failing webhook as GET answers it, disabled.
    const disabled = await api.request('GET', `/v1/webhooks/${failing.id}`, { token: tokenA });
    expect(disabled.body).toMatchObject({ enabled: false, disabled_reason: 'DELIVERIES_FAILED' });
    expect(receiver.at(hook.path).find((r) => r.event.type === 'webhook.disabled')!.event.data).toEqual(disabled.body);

    // The delivery log: one SUCCEEDED delivery per event, one attempt each.
    const log = await deliveriesOf(hook.id);
    const delivered = new Set(received.map((r) => r.event.id));
    expect(new Set(log.map((d) => d.event_id))).toEqual(delivered);
    for (const delivery of log) {
      expect(delivery).toMatchObject({ webhook_id: hook.id, status: 'SUCCEEDED' });
      expect(delivery.attempts).toEqual([
        { attempted_at: expect.any(String), status_code: 200, duration_ms: expect.any(Number) },
      ]);
      expect(delivery.next_attempt_at).toBeUndefined();
    }
  });

  it("only the event's client's enabled webhooks subscribed to its type get it", async () => {
    const settledOnly = await webhook({ events: ['payment.settled'] });
    const disabled = await webhook({ enabled: false });
    const otherClient = await webhook({}, tokenB);
    const payment = await pay('11.00');
    await answeredPayment(api, tokenA, payment['id']);
    await receiver.until(() => eventsAt(settledOnly.path, payment['id']).length > 0);
    // Time for anything wrongly sent to arrive.
    await sleep(500);
    expect(eventsAt(settledOnly.path, payment['id']).map((r) => r.event.type)).toEqual(['payment.settled']);
    expect(eventsAt(settledOnly.path).every((r) => r.event.type === 'payment.settled')).toBe(true);
    expect(receiver.at(disabled.path)).toEqual([]);
    expect(receiver.at(otherClient.path)).toEqual([]);
    expect(await deliveriesOf(disabled.id)).toEqual([]);
    expect(await deliveriesOf(otherClient.id, tokenB)).toEqual([]);
    // Another client's webhook's deliveries are not ours to read.
    const foreign = await api.request('GET', `/v1/webhooks/${otherClient.id}/deliveries`, { token: tokenA });
    expectProblem(foreign, 403, 'FORBIDDEN');
  });
});

describe('failing receivers', () => {
  it('RETRY: a failing receiver gets 1 + 12 attempts on the jittered backoff schedule, then the delivery is FAILED', async () => {
    const hook = await webhook({ events: ['webhook.test'] });
    receiver.behave(hook.path, 'fail');
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    const delivery = await finishedDelivery(hook.id, test.body.event_id, 60_000);

    expect(delivery.status).toBe('FAILED');
    expect(delivery.attempts).toHaveLength(1 + MAX_RETRIES);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ status_code: 500, error: 'HTTP 500: not a 2xx answer' });
    }
    const requests = receiver.at(hook.path);
    expect(requests).toHaveLength(1 + MAX_RETRIES);
    // Every attempt is the same event under the same webhook-id (receivers dedupe on it).
    expect(new Set(requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([test.body.event_id]));
    // Retry n waits between half and all of base × 2^(n-1) after attempt n ended (the unit tests pin
    // its bounds with a fixed random source), never less: an early message waits for the rest. The
    // local queue, as SQS, delays in whole seconds: at most that and a second more (and the slack).
    const started = delivery.attempts.map((a: any) => Date.parse(a.attempted_at));
    for (let n = 1; n <= MAX_RETRIES; n += 1) {
      const ended = started[n - 1] + delivery.attempts[n - 1].duration_ms;
      expect(started[n] - ended).toBeGreaterThanOrEqual(Math.floor((RETRY_BASE_MS * 2 ** (n - 1)) / 2));
      expect(started[n] - ended).toBeLessThanOrEqual(RETRY_BASE_MS * 2 ** (n - 1) + 1_000 + 2_000);
    }
  }, 90_000);

  it('RETRY: a receiver down through four retries, then up, gets the event once, and the delivery SUCCEEDED', async () => {
    const hook = await webhook({ events: ['webhook.test'] });
    // Down for the first attempt and four retries: 500 to each, whatever the timing; then up.
    let calls = 0;
    receiver.behave(hook.path, () => ({ status: ++calls <= 5 ? 500 : 200, body: '' }));
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    const delivery = await finishedDelivery(hook.id, test.body.event_id);
    expect(delivery.status).toBe('SUCCEEDED');
    expect(delivery.attempts.map((a: any) => a.status_code)).toEqual([500, 500, 500, 500, 500, 200]);
    await sleep(RETRY_BASE_MS * 2 ** 5 + 1_500);
    // Received once up: one answered 2xx, no attempt after it, every attempt the same event.
    const requests = receiver.at(hook.path);
    expect(requests).toHaveLength(6);
    expect(new Set(requests.map((r) => r.event.id))).toEqual(new Set([test.body.event_id]));
    // The waits grow: each retry waited at least half its ceiling, more than half the one before.
    const started = delivery.attempts.map((a: any) => Date.parse(a.attempted_at));
    for (let n = 1; n <= 5; n += 1) {
      const waited = started[n] - (started[n - 1] + delivery.attempts[n - 1].duration_ms);
      expect(waited).toBeGreaterThanOrEqual(Math.floor((RETRY_BASE_MS * 2 ** (n - 1)) / 2));
    }
  });

  it('ONCE: one attempt, whatever it gets', async () => {
    const hook = await webhook({ events: ['webhook.test'], delivery_mode: 'ONCE' });
    receiver.behave(hook.path, 'fail');
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    const delivery = await finishedDelivery(hook.id, test.body.event_id);
    await sleep(300);
    expect(delivery).toMatchObject({ status: 'FAILED', attempts: [{ status_code: 500 }] });
    expect(receiver.at(hook.path)).toHaveLength(1);
  });

  it('a receiver that hangs is given up after the timeout; one that refuses connections is recorded so', async () => {
    const hung = await webhook({ events: ['webhook.test'], delivery_mode: 'ONCE' });
    receiver.behave(hung.path, 'hang');
    const refusing = await api.request('POST', '/v1/webhooks', {
      token: tokenA,
      // Port 1 of loopback: nothing listens there.
      body: { url: 'http://127.0.0.1:1/closed', events: ['webhook.test'], delivery_mode: 'ONCE' },
    });
    const [hungTest, refusedTest] = await Promise.all([
      api.request('POST', `/v1/webhooks/${hung.id}/test`, { token: tokenA }),
      api.request('POST', `/v1/webhooks/${refusing.body.id}/test`, { token: tokenA }),
    ]);
    const timedOut = await finishedDelivery(hung.id, hungTest.body.event_id);
    expect(timedOut.attempts).toEqual([
      { attempted_at: expect.any(String), duration_ms: expect.any(Number), error: `No answer within ${TIMEOUT_MS} ms` },
    ]);
    expect(timedOut.attempts[0].duration_ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    const refused = await finishedDelivery(refusing.body.id, refusedTest.body.event_id);
    expect(refused.attempts).toEqual([
      { attempted_at: expect.any(String), duration_ms: expect.any(Number), error: 'Connection refused by 127.0.0.1:1' },
    ]);
  });

  it('a redirect is not followed: the 3xx is the failed answer', async () => {
    const hook = await webhook({ events: ['webhook.test'], delivery_mode: 'ONCE' });
    receiver.behave(hook.path, 'redirect');
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    const delivery = await finishedDelivery(hook.id, test.body.event_id);
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ status_code: 302, error: 'HTTP 302: redirects are not followed' }),
    ]);
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toEqual([]);
  });
});

describe('redelivery, the test event, disabled webhooks, rotation', () => {
  it('redeliver sends a FAILED delivery again, as the same event; a PENDING one is 409', async () => {
    const hook = await webhook({ events: ['webhook.test'], delivery_mode: 'ONCE' });
    receiver.behave(hook.path, 'fail');
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    const failed = await finishedDelivery(hook.id, test.body.event_id);
    expect(failed.status).toBe('FAILED');

    receiver.behave(hook.path, 'ok');
    const again = await api.request('POST', `/v1/webhooks/${hook.id}/deliveries/${failed.id}/redeliver`, {
      token: tokenA,
      headers: { 'idempotency-key': `redeliver-${failed.id}` },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: failed.id, status: 'PENDING', attempts: failed.attempts });
    const delivered = await finishedDelivery(hook.id, test.body.event_id);
    expect(delivered.status).toBe('SUCCEEDED');
    expect(delivered.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
    expect(receiver.at(hook.path).map((r) => r.headers['webhook-id'])).toEqual([
      test.body.event_id,
      test.body.event_id,
    ]);

    // A delivery still being attempted cannot be redelivered.
    const slow = await webhook({ events: ['webhook.test'] });
    receiver.behave(slow.path, 'hang');
    const slowTest = await api.request('POST', `/v1/webhooks/${slow.id}/test`, { token: tokenA });
    const pending = await api.request('POST', `/v1/webhooks/${slow.id}/deliveries/${slowTest.body.id}/redeliver`, {
      token: tokenA,
    });
    expectProblem(pending, 409, 'DELIVERY_IN_PROGRESS');
    // Not this webhook's delivery, or no such delivery: 404.
    const elsewhere = await api.request('POST', `/v1/webhooks/${slow.id}/deliveries/${failed.id}/redeliver`, {
      token: tokenA,
    });
    expectProblem(elsewhere, 404, 'NOT_FOUND');
    await api.request('PATCH', `/v1/webhooks/${slow.id}`, { token: tokenA, body: { enabled: false } });
  });

  it('a disabled webhook gets nothing, not even a test event (409)', async () => {
    const hook = await webhook({ events: ['webhook.test', 'payment.outbound.confirmed'] });
    const patched = await api.request('PATCH', `/v1/webhooks/${hook.id}`, { token: tokenA, body: { enabled: false } });
    expect(patched.status).toBe(200);
    const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    expectProblem(test, 409, 'WEBHOOK_DISABLED');
    await pay('12.00');
    await sleep(800);
    expect(receiver.at(hook.path)).toEqual([]);
  });

  it('after a rotation every delivery is signed by the new and the previous secret, each verifying alone', async () => {
    const hook = await webhook({ events: ['webhook.test'] });
    const rotated = await api.request('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { token: tokenA });
    expect(rotated.status).toBe(200);
    receiver.secrets.set(hook.path, [hook.secret, rotated.body.secret]);
    await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token: tokenA });
    await receiver.until(() => receiver.at(hook.path).length === 1);
    const [request] = receiver.at(hook.path);
    expect(request!.verifiedBy).toEqual([hook.secret, rotated.body.secret]);
    expect(String(request!.headers['webhook-signature']).split(' ')).toHaveLength(2);
  });
});

it('25 concurrent payments give exactly their events, each delivered, none twice in the log', async () => {
  const hook = await webhook({ events: ['payment.outbound.confirmed', 'payment.settled', 'payment.rejected'] });
  const resolutions = await Promise.all(Array.from({ length: 25 }, () => resolve(payer.customerId, ANA_PHONE)));
  const answers: ApiAnswer[] = await Promise.all(
    resolutions.map((resolutionId, i) =>
      api.request('POST', '/v1/payments', {
        token: tokenA,
        body: {
          customer_id: payer.customerId,
          account_id: payer.accountId,
          resolution_id: resolutionId,
          // Every fifth one is rejected by the sandbox network.
          amount: { value: i % 5 === 0 ? '1.99' : '1.00', currency: 'COP' },
        },
      }),
    ),
  );
  expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
  const expected = answers.flatMap((a) => [
    `payment.outbound.confirmed ${a.body.id}`,
    `${a.body.amount.value === '1.99' ? 'payment.rejected' : 'payment.settled'} ${a.body.id}`,
  ]);
  // Only these payments' events: an earlier test's payment settling after this webhook was created
  // is rightly sent to it too (its event is newer than the webhook).
  const ours = new Set(answers.map((a) => a.body.id));
  const seen = () =>
    new Set(
      receiver
        .at(hook.path)
        .filter((r) => ours.has(r.event.data['id']))
        .map((r) => `${r.event.type} ${r.event.data['id']}`),
    );
  await receiver.until(() => seen().size === expected.length, 60_000, 'the 50 events');
  expect([...seen()].sort()).toEqual([...expected].sort());
  // The sender records an attempt once its receiver has answered: under load a record may still be
  // PENDING when the receiver already has the event. Each is read once it is done.
  const received = new Set(
    receiver
      .at(hook.path)
      .filter((r) => ours.has(r.event.data['id']))
      .map((r) => r.event.id),
  );
  const deadline = Date.now() + 20_000;
  let log: Record<string, any>[];
  do {
    log = (await deliveriesOf(hook.id)).filter((d) => received.has(d.event_id));
    if (log.length === 50 && log.every((d) => d.status !== 'PENDING')) break;
    await sleep(200);
  } while (Date.now() < deadline);
  expect(log).toHaveLength(50);
  expect(new Set(log.map((d) => d.event_id)).size).toBe(50);
  // Succeeded, each once: an attempt past this file's 400 ms timeout (a loaded machine's receiver, in
  // this process) is retried, so a delivery may have failed attempts before its success, never after.
  for (const delivery of log) {
    expect(delivery.status).toBe('SUCCEEDED');
    const succeeded = delivery.attempts.filter((attempt: { status_code?: number }) => attempt.status_code === 200);
    expect(succeeded).toHaveLength(1);
    expect(delivery.attempts.at(-1)).toBe(succeeded[0]);
  }
}, 120_000);
