/**
 * `npm start` stopped and started again on the data it kept: the local queues lived in the stopped
 * process, so their messages are gone; the new one's sweeper finds the work the table says is still
 * due and restarts it (functions/sweep-stranded-work.ts), and its stream reader, starting without a
 * position, reads the stream again from its start, finding the deliveries it already made. A payment
 * left PENDING is settled and a delivery left waiting for its retry is made, once each, by the second
 * run. And `npm start` killed (SIGKILL, as a crash) while an inbound payment waits for the client's
 * approval callback: the next run's sweeper decides that payment as its lost decision job would have.
 */
import { randomUUID } from 'node:crypto';
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey } from '../support/merchants';
import { sandboxToken, startServerProcess, type ServerProcess } from '../support/npm-start';
import { answeredPayment } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

// One table for the file: the handlers run in this process read its name once, as a Lambda function
// reads its environment; every run of the file works on it.
const tableName = `test-restart-${randomUUID()}`;
let receiver: WebhookReceiver;
let api: TestApi | undefined;
let serverProcess: ServerProcess | undefined;
/** The sweeper every 300 ms, restarting work a second late. */
const sweeping = { sweepIntervalMs: 300, sweepGraceMs: 1_000 };
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
// Each test's last run stops with it: a run left going would keep its stream reader polling, and its
// queues share the process's registry with the next test's runs.
afterEach(async () => {
  await api?.stop();
  api = undefined;
  await serverProcess?.crash();
  serverProcess = undefined;
});
afterAll(() => receiver.stop());

it('a payment left PENDING and a delivery left waiting for its retry are finished by the next run, once', async () => {
  // The first run: the network would answer in 5 s, a failed delivery is retried after 2 s.
  api = await startTestApi({ tableName, sandboxSettlementDelayMs: 5_000, webhookRetryBaseMs: 2_000 });
  const token = await api.token('sandbox-client-a');
  const payer = await merchantWithKey(api, token, { availableBalance: '1000.00' });
  const hook = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: `${receiver.url}/restart`, events: ['payment.outbound.confirmed', 'payment.settled'] },
  });
  receiver.secrets.set('/restart', [hook.body.secret]);
  receiver.behave('/restart', 'fail');
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token,
    body: { customer_id: payer.customerId, key: { key_type: 'PHONE', key_value: '3001234567' } },
  });
  const payment = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolution.body.id,
      amount: { value: '100.00', currency: 'COP' },
    },
  });
  expect(payment.body.status).toBe('PENDING');
  await receiver.until(() => receiver.at('/restart').length === 1, 20_000, 'the first, failing attempt');
  await api.stop();
  api = undefined;

  // The second run, on the same table: the network answers at once, the receiver is back, and the
  // sweeper restarts work a second late.
  receiver.behave('/restart', 'ok');
  api = await startTestApi({ ...sweeping, tableName, sandboxSettlementDelayMs: 50, webhookRetryBaseMs: 2_000 });
  // A new issuer key each run (in memory): a token of the new run.
  const again = await api.token('sandbox-client-a');
  const settled = await answeredPayment(api, again, payment.body.id, { attempts: 300 });
  expect(settled.body.status).toBe('SETTLED');
  await receiver.until(
    () => receiver.at('/restart').filter((r) => r.event.type === 'payment.settled').length === 1,
    20_000,
    'the settled event',
  );
  await receiver.until(
    () => receiver.at('/restart').filter((r) => r.event.type === 'payment.outbound.confirmed').length === 2,
    20_000,
    'the retried attempt',
  );
  // The sender records an attempt once its receiver has answered: the records may follow a moment later.
  const deadline = Date.now() + 20_000;
  let deliveries: any[];
  do {
    deliveries = (await walkAll(api, again, `/v1/webhooks/${hook.body.id}/deliveries`, 'deliveries')).items;
    if (deliveries.every((d) => d.status !== 'PENDING')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < deadline);
  expect(deliveries.map((d) => [d.event_type, d.status, d.attempts.map((a: any) => a.status_code)]).sort()).toEqual([
    ['payment.outbound.confirmed', 'SUCCEEDED', [500, 200]],
    ['payment.settled', 'SUCCEEDED', [200]],
  ]);
  expect(receiver.at('/restart').every((r) => r.verifiedBy.length === 1)).toBe(true);
});

it('a payment left PROCESSING by a crash during its approval callback is decided by the next run, once', async () => {
  const callback = `/approvals-${randomUUID()}`;
  // The first run sets the client up: a merchant with a key, and approval on, auto-approving on error.
  api = await startTestApi({ tableName });
  const token = await api.token('sandbox-client-a');
  const merchant = await merchantWithKey(api, token, { availableBalance: '1000.00' });
  const settings = await api.request('PUT', '/v1/settings/inbound-approval', {
    token,
    body: { callback_url: `${receiver.url}${callback}`, enabled: true, auto_approve_on_error: true },
  });
  receiver.secrets.set(callback, [settings.body.secret]);
  await api.stop();
  api = undefined;

  // npm start, waiting up to two minutes for a callback that never answers; killed while it waits.
  receiver.behave(callback, 'hang');
  serverProcess = await startServerProcess(tableName, { APPROVAL_TIMEOUT_MS: '120000', THROTTLING: 'off' });
  const server = serverProcess;
  const crashingToken = await sandboxToken(server.url);
  const payment = fetch(`${server.url}/sandbox/payments/inbound`, {
    method: 'POST',
    headers: { authorization: `Bearer ${crashingToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ key: merchant.key, amount: { value: '100.00', currency: 'COP' }, description: 'crash' }),
  }).then(
    async (answer) => `answered ${answer.status}: ${await answer.text()}`,
    () => 'no answer',
  );
  // An answer before the callback is asked is a failure that says what the server answered.
  await Promise.race([
    receiver.until(() => receiver.at(callback).length === 1, 20_000, 'the approval request'),
    payment.then((outcome) => Promise.reject(new Error(`Before the callback was asked: ${outcome}`))),
  ]);
  await server.crash();
  serverProcess = undefined;
  expect(await payment).toBe('no answer');
  const paymentId = receiver.at(callback)[0]!.event.data['id'] as string;

  // The next run's sweeper finds it PROCESSING once its decision job is due (30 s after it was
  // written), and decides as auto_approve_on_error says: approved, credited once.
  api = await startTestApi({ ...sweeping, tableName });
  const again = await api.token('sandbox-client-a');
  const decided = await answeredPayment(api, again, paymentId, { waitingIn: 'PROCESSING', attempts: 600 });
  expect(decided.body).toMatchObject({
    status: 'SETTLED',
    approval: 'AUTO_APPROVED',
    approval_error: 'No decision was recorded: the request that asked the approval callback ended first',
  });
  const account = await api.request('GET', `/v1/accounts/${merchant.accountId}`, { token: again });
  expect(account.body.available_balance.value).toBe('1100.00');
  // The payment was stored by the crashed run and decided by this one: the callback was asked once.
  expect(receiver.at(callback)).toHaveLength(1);
}, 120_000);
