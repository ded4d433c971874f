/**
 * `npm start` stopped and started again on the data it kept: the local queues lived in the stopped
 * process, so the new one finds the work left pending in the table and queues it again (infra/local/
 * resume-pending.ts), and its stream reader, starting without a position, reads the stream again
 * from its start, finding the deliveries it already made. A payment left PENDING is settled and a
 * delivery left waiting for its retry is made, once each, by the second run.
 */
import { randomUUID } from 'node:crypto';
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey } from '../support/merchants';
import { answeredPayment } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

let receiver: WebhookReceiver;
let api: TestApi | undefined;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await api?.stop();
  await receiver.stop();
});

it('a payment left PENDING and a delivery left waiting for its retry are finished by the next run, once', async () => {
  const tableName = `test-restart-${randomUUID()}`;
  // The first run: the network would answer in a minute, a failed delivery is retried after 2 s.
  api = await startTestApi({ tableName, sandboxSettlementDelayMs: 60_000, webhookRetryBaseMs: 2_000 });
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

  // The second run, on the same table: the network answers at once, the receiver is back.
  receiver.behave('/restart', 'ok');
  api = await startTestApi({ tableName, sandboxSettlementDelayMs: 50, webhookRetryBaseMs: 2_000 });
  // A new issuer key each run (in memory): a token of the new run.
  const again = await api.token('sandbox-client-a');
  const settled = await answeredPayment(api, again, payment.body.id);
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
  const deliveries = (await walkAll(api, again, `/v1/webhooks/${hook.body.id}/deliveries`, 'deliveries')).items;
  expect(deliveries.map((d) => [d.event_type, d.status, d.attempts.map((a: any) => a.status_code)]).sort()).toEqual([
    ['payment.outbound.confirmed', 'SUCCEEDED', [500, 200]],
    ['payment.settled', 'SUCCEEDED', [200]],
  ]);
  expect(receiver.at('/restart').every((r) => r.verifiedBy.length === 1)).toBe(true);
});
