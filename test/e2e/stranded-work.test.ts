/**
 * Work a commit owes, left undone by a failed SendMessage after it: answered as committed (never an
 * error that would invite a second payment: functions/after-commit.ts) and finished by the sweeper,
 * through the real local server (infra/local/faults.ts: FAULT_QUEUE_SEND=fail makes every send fail,
 * as an SQS outage does). The server reads no stream here (FAULT_EVENT_STREAM=off, a dispatcher whose stream
 * mapping is stuck): every event reaches its webhooks through the sweeper alone. The sweeper runs
 * every 300 ms and restarts work one second late.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { FAULTS } from '../../infra/local/faults';
import { availableBalance, walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { finishedReport } from '../support/reports';
import { answeredPayment, answeredRefund, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

let api: TestApi;
let receiver: WebhookReceiver;
let token: string;
let payer: MerchantWithKey;

beforeAll(async () => {
  process.env[FAULTS.eventStream] = 'off';
  [api, receiver] = await Promise.all([
    startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS, sweepIntervalMs: 300, sweepGraceMs: 1_000 }),
    WebhookReceiver.start(),
  ]);
  token = await api.token('sandbox-client-a');
  payer = await merchantWithKey(api, token, { availableBalance: '1000.00' });
});
afterEach(() => {
  delete process.env[FAULTS.queueSend];
});
afterAll(async () => {
  delete process.env[FAULTS.eventStream];
  await api?.stop();
  await receiver?.stop();
});

let paths = 0;
async function webhook(body: Record<string, unknown>): Promise<{ id: string; path: string }> {
  const path = `/stranded-${++paths}`;
  const answer = await api.request('POST', '/v1/webhooks', { token, body: { url: `${receiver.url}${path}`, ...body } });
  expect(answer.status).toBe(200);
  receiver.secrets.set(path, [answer.body.secret]);
  return { id: answer.body.id, path };
}

const deliveriesOf = async (webhookId: string): Promise<Record<string, any>[]> =>
  (await walkAll(api, token, `/v1/webhooks/${webhookId}/deliveries`, 'deliveries', { page_size: 100 })).items;

/** Waits until every delivery of the webhook is done, and `count` of them exist. */
async function finishedDeliveries(webhookId: string, count: number): Promise<Record<string, any>[]> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const deliveries = await deliveriesOf(webhookId);
    if (deliveries.length === count && deliveries.every((d) => d.status !== 'PENDING')) return deliveries;
    if (Date.now() > deadline) throw new Error(`Deliveries not done: ${JSON.stringify(deliveries)}`);
    await sleep(100);
  }
}

/** The movements of a payment, read from the table. */
const movementsOf = async (paymentId: string) =>
  (await api.scan())
    .filter((item) => item['entity'] === 'MOVEMENT' && item['payment_id'] === paymentId)
    .map((item) => [item['kind'], item['amount_cents']]);

it('SendMessage failing after the commit of a payment and of its events: the sweeper settles and delivers it, once', async () => {
  const hook = await webhook({ events: ['payment.outbound.confirmed', 'payment.settled'] });
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token,
    body: { customer_id: payer.customerId, key: { key_type: 'PHONE', key_value: '3001234567' } },
  });

  process.env[FAULTS.queueSend] = 'fail';
  const failed = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolution.body.id,
      amount: { value: '100.00', currency: 'COP' },
    },
  });
  // The payment is committed, PENDING, its amount held; its settlement message was never sent. The
  // answer is that committed payment: a client told of an error could start over and pay twice.
  expect([failed.status, failed.body.status, failed.body.amount]).toEqual([
    200,
    'PENDING',
    { value: '100.00', currency: 'COP' },
  ]);
  const payment = (
    await walkAll(api, token, '/v1/payments', 'payments', { customer_id: payer.customerId, page_size: 100 })
  ).items[0]!;
  expect(payment).toMatchObject({ id: failed.body.id, status: 'PENDING', amount: { value: '100.00' } });
  // A few sweeps while SQS is still down: they fail too, and the work stays due.
  await sleep(1_500);
  expect((await api.request('GET', `/v1/payments/${payment.id}`, { token })).body.status).toBe('PENDING');
  expect(receiver.at(hook.path)).toEqual([]);

  delete process.env[FAULTS.queueSend];
  const settled = await answeredPayment(api, token, payment.id, { attempts: 300 });
  expect(settled.body.status).toBe('SETTLED');
  // One hold, no release: the money moved once.
  expect(await movementsOf(payment.id)).toEqual([['PAYMENT', -100_00]]);
  const account = await api.request('GET', `/v1/accounts/${payer.accountId}`, { token });
  expect(account.body.available_balance.value).toBe('900.00');

  // Both events reached the webhook through the sweeper (no stream here), each delivery attempted once.
  const deliveries = await finishedDeliveries(hook.id, 2);
  expect(deliveries.map((d) => [d.event_type, d.status, d.attempts.length]).sort()).toEqual([
    ['payment.outbound.confirmed', 'SUCCEEDED', 1],
    ['payment.settled', 'SUCCEEDED', 1],
  ]);
  expect(new Set(receiver.at(hook.path).map((r) => r.event.type))).toEqual(
    new Set(['payment.outbound.confirmed', 'payment.settled']),
  );
}, 90_000);

it('SendMessage failing after the commit of a report: answered PENDING all the same, and the sweeper runs it', async () => {
  const today = new Date().toISOString().slice(0, 10);
  process.env[FAULTS.queueSend] = 'fail';
  const asked = await api.request('POST', '/v1/reports', {
    token,
    body: { type: 'movements', account_id: payer.accountId, created_from: today, created_to: today },
  });
  // Committed and due: the failed send is the sweeper's to make up, not the client's to retry.
  expect([asked.status, asked.body.status]).toEqual([200, 'PENDING']);
  await sleep(1_500);
  expect((await api.request('GET', `/v1/reports/${asked.body.id}`, { token })).body.status).toBe('PENDING');

  delete process.env[FAULTS.queueSend];
  const report = await finishedReport(api, token, asked.body.id);
  expect(report.body).toMatchObject({ status: 'SUCCEEDED', row_count: expect.any(Number) });
  expect((await fetch(report.body.download_url)).status).toBe(200);
}, 60_000);

it('SendMessage failing after the commit of a refund: answered PENDING, and the sweeper settles it', async () => {
  const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token,
    body: { key: payee.key, amount: { value: '30.00', currency: 'COP' } },
  });
  expect([received.status, received.body.status]).toEqual([200, 'SETTLED']);

  process.env[FAULTS.queueSend] = 'fail';
  const asked = await api.request('POST', `/v1/payments/${received.body.id}/refunds`, {
    token,
    headers: { 'Idempotency-Key': `stranded-refund-${received.body.id}` },
    body: { amount: { value: '12.00', currency: 'COP' } },
  });
  // Committed, its amount held: the answer is that refund, not an error inviting a second one.
  expect([asked.status, asked.body.status, asked.body.amount.value]).toEqual([200, 'PENDING', '12.00']);
  const account = async () =>
    (await api.request('GET', `/v1/accounts/${payee.accountId}`, { token })).body.available_balance.value;
  expect(await account()).toBe('18.00');
  await sleep(1_500);
  expect((await api.request('GET', `/v1/refunds/${asked.body.id}`, { token })).body.status).toBe('PENDING');

  delete process.env[FAULTS.queueSend];
  const settled = await answeredRefund(api, token, asked.body.id, { attempts: 300 });
  expect(settled.body.status).toBe('SETTLED');
  expect(await account()).toBe('18.00');
}, 60_000);

it("SendMessage failing after a payment to one of our merchants commits: answered with the payee's decision", async () => {
  // The payee's client asks its approval callback: its payment's decision job is sent, and fails, too.
  const tokenB = await api.token('sandbox-client-b');
  const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
  const approvalPath = `/stranded-approval-${++paths}`;
  const settings = await api.request('PUT', '/v1/settings/inbound-approval', {
    token: tokenB,
    body: { callback_url: `${receiver.url}${approvalPath}`, enabled: true, auto_approve_on_error: false },
  });
  expect(settings.status).toBe(200);
  receiver.behave(approvalPath, () => ({ status: 200, body: JSON.stringify({ accept: true }) }));
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token,
    body: { customer_id: payer.customerId, key: payee.key },
  });

  process.env[FAULTS.queueSend] = 'fail';
  const paid = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolution.body.id,
      amount: { value: '7.00', currency: 'COP' },
    },
  });
  expect([paid.status, paid.body.status]).toEqual([200, 'SETTLED']);
  delete process.env[FAULTS.queueSend];
  expect(await availableBalance(api, tokenB, payee.accountId)).toBe('7.00');
}, 60_000);

it('SendMessage failing after the commit of a redelivery: answered PENDING, a retry soon after is 409, and the sweeper sends it', async () => {
  const hook = await webhook({ events: ['webhook.test'], delivery_mode: 'ONCE' });
  receiver.behave(hook.path, 'fail');
  const test = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token });
  const [failed] = await finishedDeliveries(hook.id, 1);
  expect(failed).toMatchObject({ id: test.body.id, status: 'FAILED' });

  receiver.behave(hook.path, 'ok');
  process.env[FAULTS.queueSend] = 'fail';
  const redeliver = () => api.request('POST', `/v1/webhooks/${hook.id}/deliveries/${failed!.id}/redeliver`, { token });
  // Reopened by the commit, and answered so: the failed send is the sweeper's to make up.
  const reopened = await redeliver();
  expect([reopened.status, reopened.body.id, reopened.body.status]).toEqual([200, failed!.id, 'PENDING']);
  delete process.env[FAULTS.queueSend];
  // Reopened by the commit: PENDING, so a retry at once is refused as in progress...
  const retried = await redeliver();
  expect([retried.status, retried.body.code]).toEqual([409, 'DELIVERY_IN_PROGRESS']);
  // ...and the sweeper, finding it due, sends it: delivered, once.
  const [delivered] = await finishedDeliveries(hook.id, 1);
  expect(delivered!.status).toBe('SUCCEEDED');
  expect(delivered!.attempts.map((a: any) => a.status_code)).toEqual([500, 200]);
}, 60_000);

it('a test event to a webhook disabled before its dispatch ends FAILED, never PENDING for ever', async () => {
  const hook = await webhook({ events: ['payment.settled'] });
  const test = await api.quietly(async () => {
    const sent = await api.request('POST', `/v1/webhooks/${hook.id}/test`, { token });
    expect(sent.body.status).toBe('PENDING');
    await api.request('PATCH', `/v1/webhooks/${hook.id}`, { token, body: { enabled: false } });
    return sent;
  });
  const [delivery] = await finishedDeliveries(hook.id, 1);
  expect(delivery).toMatchObject({
    id: test.body.id,
    status: 'FAILED',
    attempts: [expect.objectContaining({ error: 'Not sent: the webhook is disabled' })],
  });
  expect(receiver.at(hook.path)).toEqual([]);
}, 60_000);
