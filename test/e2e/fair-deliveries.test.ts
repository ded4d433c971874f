/**
 * Fair queues end to end (docs/webhooks.md, "Slow receivers"; docs/operations.md, "Queues"), through the
 * real local server, its queues and real receivers on loopback: every delivery and settlement job goes
 * in its tenant's message group; a batch's deliveries go out at once, so a slow receiver does not hold
 * back a healthy one of its batch; and an endpoint failing every attempt is held back for its
 * cool-down, then tried again.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { installQueue, queueOf, type MessageQueue, type QueueName } from '../../shared/data/queues';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

const COOL_DOWN_MS = 3_000;
const SLOW_ANSWER_MS = 1_500;
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
let payerA: MerchantWithKey;
let payerB: MerchantWithKey;
/** Every message sent to the runtime's queues, with its group, as the sender handed it to the queue. */
const sent: { queue: QueueName; body: Record<string, string>; group: string | undefined }[] = [];

/** The runtime's own queue `name`, each send noted on its way in. */
function noting(name: QueueName): void {
  const queue = queueOf(name)!;
  const noted: MessageQueue = {
    send: (message, delayMs, attributes, group) => {
      sent.push({ queue: name, body: message as Record<string, string>, group });
      return queue.send(message, delayMs, attributes, group);
    },
  };
  installQueue(name, noted);
}

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({
      sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS,
      webhookRetryBaseMs: 5,
      webhookBreakerCoolDownMs: COOL_DOWN_MS,
      webhookTimeoutMs: 3_000,
      routeTimeoutMs: 30_000,
    }),
    WebhookReceiver.start(),
  ]);
  for (const name of ['settlement', 'creditDecisions', 'webhookDeliveries'] as const) noting(name);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  [payerA, payerB] = await Promise.all([
    merchantWithKey(api, tokenA, { availableBalance: '100000.00' }),
    merchantWithKey(api, tokenB, { availableBalance: '100000.00' }),
  ]);
});
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

let paths = 0;
async function webhook(token: string, events: string[] = [...WEBHOOK_EVENT_TYPES]): Promise<string> {
  const path = `/fair-${++paths}`;
  const answer = await api.request('POST', '/v1/webhooks', { token, body: { url: `${receiver.url}${path}`, events } });
  expect(answer.status).toBe(200);
  return path;
}

async function pay(token: string, payer: MerchantWithKey): Promise<string> {
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token,
    body: { customer_id: payer.customerId, key: ANA_PHONE },
  });
  expect(resolution.status).toBe(200);
  const answer = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolution.body.id,
      amount: { value: '100.00', currency: 'COP' },
    },
  });
  expect(answer.status).toBe(200);
  return answer.body.id;
}

test("each client's settlement jobs and deliveries go in the client's own message group", async () => {
  const [pathA, pathB] = [await webhook(tokenA, ['payment.settled']), await webhook(tokenB, ['payment.settled'])];
  const [paymentA, paymentB] = await Promise.all([pay(tokenA, payerA), pay(tokenB, payerB)]);
  await receiver.until(() => receiver.at(pathA).length === 1 && receiver.at(pathB).length === 1);
  const groupOf = (queue: QueueName, field: string, id: string) =>
    sent.filter((message) => message.queue === queue && message.body[field] === id).map((message) => message.group);
  expect(groupOf('settlement', 'payment_id', paymentA)).toEqual(['sandbox-client-a']);
  expect(groupOf('settlement', 'payment_id', paymentB)).toEqual(['sandbox-client-b']);
  const deliveryGroups = sent
    .filter((message) => message.queue === 'webhookDeliveries')
    .map((message) => message.group);
  expect(new Set(deliveryGroups)).toEqual(new Set(['sandbox-client-a', 'sandbox-client-b']));
});

test('a slow receiver does not hold back a healthy one of the same batch: both deliveries go out at once', async () => {
  // Three slow receivers made first, the healthy one last: one after the other, it would wait for them.
  const slow = [await webhook(tokenB), await webhook(tokenB), await webhook(tokenB)];
  const healthy = await webhook(tokenB);
  const answeredAt: number[] = [];
  for (const path of slow) {
    receiver.behave(path, () => {
      setTimeout(() => answeredAt.push(Date.now()), SLOW_ANSWER_MS);
      return { status: 200, body: 'ok', afterMs: SLOW_ANSWER_MS };
    });
  }
  await pay(tokenB, payerB);
  await receiver.until(() => [...slow, healthy].every((path) => receiver.at(path).length > 0));
  // The healthy receiver had its delivery before any slow one had answered.
  const healthyAt = receiver.at(healthy)[0]!.at;
  // Polled: the receiver's `until` looks again only when a request arrives, and these are answers.
  for (const deadline = Date.now() + 10_000; answeredAt.length < 3 && Date.now() < deadline;) await sleep(50);
  expect(healthyAt).toBeLessThan(Math.min(...answeredAt));
});

test('an endpoint failing every attempt is held back for its cool-down, then tried again and let through', async () => {
  const failing = await webhook(tokenA, ['payment.settled']);
  let healthy = false;
  receiver.behave(failing, () => (healthy ? { status: 200, body: 'ok' } : { status: 500, body: 'boom' }));
  await pay(tokenA, payerA);
  // Five failures in a row (the retries are milliseconds apart) open the breaker.
  await receiver.until(() => receiver.at(failing).length >= 5);
  const fifthAt = receiver.at(failing)[4]!.at;
  healthy = true;
  // The next attempt waits out the cool-down, and succeeds.
  await receiver.until(
    () => receiver.at(failing).length >= 6,
    COOL_DOWN_MS + 10_000,
    'the attempt after the cool-down',
  );
  expect(receiver.at(failing)[5]!.at - fifthAt).toBeGreaterThanOrEqual(COOL_DOWN_MS - 50);
  // Let through again: another payment's delivery goes at once.
  await pay(tokenA, payerA);
  await receiver.until(() => receiver.at(failing).length >= 7, 5_000, 'the next delivery');
  expect(receiver.at(failing)).toHaveLength(7);
});
