/**
 * `npm start` killed (SIGKILL) between a commit and the message that starts the work after it, then
 * started again on the same table: the sweeper's next run restarts that work, once. A payment killed
 * right after it answered PENDING (and, with the sweeper off, what would be lost: it stays PENDING);
 * the crash points of infra/local/faults.ts between a payment's commit and its settlement message, a
 * dispatcher's delivery and its message, a redelivery's reopening and its message. (The approval
 * decision's crash is test/e2e/restart.test.ts's.)
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { FAULTS } from '../../infra/local/faults';
import { availableBalance, walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { sandboxToken, startServerProcess, type ServerProcess } from '../support/npm-start';
import { answeredPayment } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

// One table for the file: the in-process runs read its name once, as a Lambda function reads its
// environment; every run of the file, in this process or in its own, works on it.
const tableName = `test-crash-${randomUUID()}`;
const PHONE = { key_type: 'PHONE', key_value: '3001234567' };
/** The in-process runs that only set up or read: no sweeper of theirs may do the work under test. */
const quiet = { tableName, sweepIntervalMs: 0 };
/** The run that recovers: the sweeper every 300 ms, restarting work a second late. */
const recovering = { tableName, sweepIntervalMs: 300, sweepGraceMs: 1_000, sandboxSettlementDelayMs: 50 };

let receiver: WebhookReceiver;
let api: TestApi | undefined;
let server: ServerProcess | undefined;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterEach(async () => {
  delete process.env[FAULTS.eventStream];
  await api?.stop();
  api = undefined;
  await server?.crash();
  server = undefined;
});
afterAll(() => receiver.stop());

/** A request to the `npm start` at `url`: its status and body, or 'no answer' when the process died. */
async function call(url: string, token: string, method: string, path: string, body?: unknown) {
  return fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  }).then(
    async (answer) => ({ status: answer.status, body: (await answer.json()) as Record<string, any> }),
    () => 'no answer' as const,
  );
}

const paymentBody = (payer: MerchantWithKey, resolutionId: string) => ({
  customer_id: payer.customerId,
  account_id: payer.accountId,
  resolution_id: resolutionId,
  amount: { value: '100.00', currency: 'COP' },
});

/** Each movement of the payment as [kind, cents], and how many payment.settled events it has. */
async function moneyOf(run: TestApi, paymentId: string) {
  const items = await run.scan();
  return {
    movements: items
      .filter((i) => i['entity'] === 'MOVEMENT' && i['payment_id'] === paymentId)
      .map((i) => [i['kind'], i['amount_cents']]),
    settledEvents: items.filter(
      (i) => i['entity'] === 'EVENT' && i['type'] === 'payment.settled' && i['data']?.id === paymentId,
    ).length,
  };
}

/** A merchant of sandbox-client-a with 1000.00, and a resolution of a key at another participant. */
async function payerWithResolution(): Promise<{ payer: MerchantWithKey; resolutionId: string }> {
  api = await startTestApi(quiet);
  const token = await api.token('sandbox-client-a');
  const payer = await merchantWithKey(api, token, { availableBalance: '1000.00' });
  const resolutionId = await resolvedKey(api, token, payer.customerId, PHONE);
  await api.stop();
  api = undefined;
  return { payer, resolutionId };
}

it('a payment whose server is killed right after it answered PENDING: lost without the sweeper, SETTLED once with it', async () => {
  const { payer, resolutionId } = await payerWithResolution();

  // The network answers in 5 s; the server is killed as soon as it answered.
  server = await startServerProcess(tableName, { SANDBOX_SETTLEMENT_DELAY_MS: '5000', SWEEP_INTERVAL_MS: 'off' });
  const paid = await call(
    server.url,
    await sandboxToken(server.url),
    'POST',
    '/v1/payments',
    paymentBody(payer, resolutionId),
  );
  await server.crash();
  if (paid === 'no answer') throw new Error('The payment was not answered');
  expect([paid.status, paid.body.status]).toEqual([200, 'PENDING']);
  const paymentId = String(paid.body.id);

  // Started again without its sweeper: well past the network's 5 s, the payment is still PENDING.
  server = await startServerProcess(tableName, { SWEEP_INTERVAL_MS: 'off' });
  const token = await sandboxToken(server.url);
  await sleep(Math.max(0, Date.parse(paid.body.created_at) + 8_000 - Date.now()));
  const stuck = await call(server.url, token, 'GET', `/v1/payments/${paymentId}`);
  expect(stuck !== 'no answer' && stuck.body.status).toBe('PENDING');
  await server.crash();

  // Started again with its sweeper (every 500 ms, a second's grace): SETTLED.
  server = await startServerProcess(tableName, { SWEEP_INTERVAL_MS: '500', SWEEP_GRACE_MS: '1000' });
  const again = await sandboxToken(server.url);
  const deadline = Date.now() + 30_000;
  let status = 'PENDING';
  while (status === 'PENDING' && Date.now() < deadline) {
    await sleep(200);
    const read = await call(server.url, again, 'GET', `/v1/payments/${paymentId}`);
    if (read !== 'no answer') status = String(read.body.status);
  }
  expect(status).toBe('SETTLED');
  await server.crash();

  // Once: one hold (the debit), no release, one settled event; the balance moved by the amount once.
  api = await startTestApi(quiet);
  expect(await moneyOf(api, paymentId)).toEqual({ movements: [['PAYMENT', -100_00]], settledEvents: 1 });
  const account = await api.request('GET', `/v1/accounts/${payer.accountId}`, {
    token: await api.token('sandbox-client-a'),
  });
  expect(account.body.available_balance.value).toBe('900.00');
}, 240_000);

it('killed between a payment commit and its settlement message: the next run settles it, once', async () => {
  const { payer, resolutionId } = await payerWithResolution();
  server = await startServerProcess(tableName, { [FAULTS.crashAfter]: 'settlement-commit', SWEEP_INTERVAL_MS: 'off' });
  const paid = await call(
    server.url,
    await sandboxToken(server.url),
    'POST',
    '/v1/payments',
    paymentBody(payer, resolutionId),
  );
  await server.exited;
  expect(paid).toBe('no answer');

  api = await startTestApi(recovering);
  const token = await api.token('sandbox-client-a');
  const payment = (await walkAll(api, token, '/v1/payments', 'payments', { customer_id: payer.customerId })).items[0]!;
  const settled = await answeredPayment(api, token, payment.id, { attempts: 300 });
  expect(settled.body.status).toBe('SETTLED');
  expect(await moneyOf(api, payment.id)).toEqual({ movements: [['PAYMENT', -100_00]], settledEvents: 1 });
}, 180_000);

it("killed right after the payee's credit of a payment between our merchants: the payer's settles, though the payee's key was suspended since", async () => {
  api = await startTestApi(quiet);
  const setup = await api.token('sandbox-client-a');
  const payer = await merchantWithKey(api, setup, { availableBalance: '1000.00' });
  const payee = await merchantWithKey(api, setup, { availableBalance: '0.00' });
  const resolutionId = await resolvedKey(api, setup, payer.customerId, payee.key);
  await api.stop();
  api = undefined;

  server = await startServerProcess(tableName, {
    [FAULTS.crashAfter]: 'payee-credit-commit',
    SWEEP_INTERVAL_MS: 'off',
  });
  const paid = await call(
    server.url,
    await sandboxToken(server.url),
    'POST',
    '/v1/payments',
    paymentBody(payer, resolutionId),
  );
  await server.exited;
  expect(paid).toBe('no answer');

  // Between the crash and the retry, the payee's key is suspended: the money is the payee's already.
  api = await startTestApi(quiet);
  const between = await api.token('sandbox-client-a');
  expect((await api.request('PATCH', `/v1/keys/${payee.keyId}/suspend`, { token: between })).status).toBe(200);
  expect(await availableBalance(api, between, payee.accountId)).toBe('100.00');
  await api.stop();
  api = undefined;

  api = await startTestApi(recovering);
  const token = await api.token('sandbox-client-a');
  const payment = (await walkAll(api, token, '/v1/payments', 'payments', { customer_id: payer.customerId })).items[0]!;
  const answered = await answeredPayment(api, token, payment.id, { attempts: 300 });
  expect(answered.body.status).toBe('SETTLED');
  expect(await moneyOf(api, payment.id)).toEqual({ movements: [['PAYMENT', -100_00]], settledEvents: 1 });
  expect(await availableBalance(api, token, payer.accountId)).toBe('900.00');
  expect(await availableBalance(api, token, payee.accountId)).toBe('100.00');
}, 180_000);

it("killed between a dispatcher's delivery and its message: the next run's sweeper dispatches and delivers it", async () => {
  // Another client, whose webhook no event of the earlier tests goes to (the new run's stream
  // reader reads the stream from its start).
  api = await startTestApi(quiet);
  const tokenB = await api.token('sandbox-client-b');
  const payer = await merchantWithKey(api, tokenB, { availableBalance: '1000.00' });
  const resolutionId = await resolvedKey(api, tokenB, payer.customerId, PHONE);
  const hook = await api.request('POST', '/v1/webhooks', {
    token: tokenB,
    body: { url: `${receiver.url}/dispatch`, events: ['payment.outbound.confirmed'] },
  });
  receiver.secrets.set('/dispatch', [hook.body.secret]);
  await api.stop();
  api = undefined;

  server = await startServerProcess(tableName, {
    [FAULTS.crashAfter]: 'delivery-commit',
    SWEEP_INTERVAL_MS: 'off',
    SANDBOX_SETTLEMENT_DELAY_MS: '600000',
  });
  const token = await sandboxToken(server.url, SANDBOX_CLIENTS[1]);
  const paid = await call(server.url, token, 'POST', '/v1/payments', paymentBody(payer, resolutionId));
  if (paid === 'no answer') throw new Error('The payment was not answered');
  // The dispatcher made the delivery, then the process died before its message.
  await server.exited;
  expect(receiver.at('/dispatch')).toEqual([]);

  // No stream in the next run: the event is dispatched by the sweeper alone.
  process.env[FAULTS.eventStream] = 'off';
  api = await startTestApi(recovering);
  await receiver.until(() => receiver.at('/dispatch').length >= 1, 30_000, 'the confirmed event');
  const deadline = Date.now() + 30_000;
  let deliveries: Record<string, any>[] = [];
  while (Date.now() < deadline) {
    deliveries = (
      await walkAll(api, await api.token('sandbox-client-b'), `/v1/webhooks/${hook.body.id}/deliveries`, 'deliveries')
    ).items;
    if (deliveries.every((d) => d.status !== 'PENDING')) break;
    await sleep(200);
  }
  expect(deliveries.map((d) => [d.event_type, d.status, d.attempts.length])).toEqual([
    ['payment.outbound.confirmed', 'SUCCEEDED', 1],
  ]);
  expect(receiver.at('/dispatch').map((r) => r.event.data['id'])).toContain(paid.body.id);
  // The event is dispatched: out of the due work. The sweeper may send the delivery (its own due entry)
  // a sweep or more before it reaches the event's shard (frequent sweeps take the shards in turns:
  // shared/data/due-work.ts), so the event leaves the index within a round, not with the delivery.
  const eventOf = async () =>
    (await api!.scan()).find((i) => i['entity'] === 'EVENT' && i['data']?.id === paid.body.id);
  const dispatchedBy = Date.now() + 30_000;
  while ((await eventOf())?.['duepk'] !== undefined && Date.now() < dispatchedBy) await sleep(200);
  expect(await eventOf()).toBeDefined();
  expect((await eventOf())!['duepk']).toBeUndefined();
}, 180_000);

it('killed between a redelivery and its message: the next run sends it, once', async () => {
  api = await startTestApi(quiet);
  const setupToken = await api.token('sandbox-client-a');
  const hook = await api.request('POST', '/v1/webhooks', {
    token: setupToken,
    body: { url: `${receiver.url}/redeliver`, events: ['webhook.test'], delivery_mode: 'ONCE' },
  });
  receiver.secrets.set('/redeliver', [hook.body.secret]);
  receiver.behave('/redeliver', 'fail');
  const test = await api.request('POST', `/v1/webhooks/${hook.body.id}/test`, { token: setupToken });
  await receiver.until(() => receiver.at('/redeliver').length === 1, 20_000, 'the failing attempt');
  await api.stop();
  api = undefined;

  receiver.behave('/redeliver', 'ok');
  // Nothing else of this run sends a delivery: no stream, no sweeper.
  server = await startServerProcess(tableName, {
    [FAULTS.crashAfter]: 'delivery-commit',
    [FAULTS.eventStream]: 'off',
    SWEEP_INTERVAL_MS: 'off',
  });
  const path = `/v1/webhooks/${hook.body.id}/deliveries/${test.body.id}/redeliver`;
  expect(await call(server.url, await sandboxToken(server.url), 'POST', path)).toBe('no answer');
  await server.exited;

  api = await startTestApi(recovering);
  const token = await api.token('sandbox-client-a');
  await receiver.until(() => receiver.at('/redeliver').length === 2, 30_000, 'the redelivered attempt');
  const deadline = Date.now() + 30_000;
  let delivery: Record<string, any> = {};
  while (Date.now() < deadline) {
    delivery = (await api.request('GET', `/v1/webhooks/${hook.body.id}/deliveries`, { token })).body.deliveries[0];
    if (delivery.status !== 'PENDING') break;
    await sleep(200);
  }
  expect([delivery.status, delivery.attempts.map((a: any) => a.status_code)]).toEqual(['SUCCEEDED', [500, 200]]);
}, 180_000);
