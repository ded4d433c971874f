/**
 * A big client's lists split in shards (LIST_SHARDS; docs/scale.md), end to end through the real local
 * server: its payments and its webhook's deliveries land in several list partitions of DynamoDB Local,
 * and every list walks them whole, in order, with exact totals, filtered or not, while another client
 * without a layout keeps one partition and sees none of them.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { WEBHOOK_EVENT_TYPES } from '../../shared/schemas/webhooks';
import { sortedBy, walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

const SHARDS = 3;
const PAYMENTS = 14;
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
let payer: MerchantWithKey;
let hook: { id: string; path: string };
type Listed = { id: string; created_at: string; updated_at: string; [field: string]: any };
const paid: Listed[] = [];

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({
      sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS,
      listShards: {
        'sandbox-client-a': [{ from: '2000-01-01T00:00:00.000Z', shards: { PAYMENT: SHARDS, DELIVERY: SHARDS } }],
      },
    }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  payer = await merchantWithKey(api, tokenA, { availableBalance: '100000.00' });
  const created = await api.request('POST', '/v1/webhooks', {
    token: tokenA,
    body: { url: `${receiver.url}/sharded`, events: [...WEBHOOK_EVENT_TYPES] },
  });
  expect(created.status).toBe(200);
  receiver.secrets.set('/sharded', [created.body.secret]);
  hook = { id: created.body.id, path: '/sharded' };
  for (let i = 0; i < PAYMENTS; i++) {
    const resolution = await api.request('POST', '/v1/resolve-key', {
      token: tokenA,
      body: { customer_id: payer.customerId, key: ANA_PHONE },
    });
    // Every third payment is rejected by the sandbox (its .99 rule): a filter has both kinds to tell apart.
    const answer = await api.request('POST', '/v1/payments', {
      token: tokenA,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: resolution.body.id,
        amount: { value: i % 3 === 0 ? '10.99' : '10.00', currency: 'COP' },
      },
    });
    expect(answer.status).toBe(200);
    paid.push(answer.body as Listed);
  }
}, 60_000);
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

test("the client's payments are spread over its shards, each for life", async () => {
  const stored = (await api.scan()).filter(
    (item) => item['entity'] === 'PAYMENT' && item['tenant'] === 'sandbox-client-a',
  );
  const partitions = new Set(stored.map((item) => String(item['gsi1pk'])));
  expect(partitions.size).toBeGreaterThanOrEqual(2);
  for (const item of stored) {
    expect(item['gsi1pk']).toMatch(new RegExp(`^sandbox-client-a#PAYMENT(~[1-${SHARDS - 1}])?$`));
    // Its lists by update and its customer's lists are in the same shard.
    expect(item['gsi2pk']).toBe(item['gsi1pk']);
    expect(String(item['gsi3pk']).endsWith(String(item['gsi1pk']).replace(/^[^~]*/, ''))).toBe(true);
  }
});

test('every page of the payments, in both directions, walks them all once with an exact total', async () => {
  for (const direction of ['asc', 'desc'] as const) {
    const walk = await walkAll<Listed>(api, tokenA, '/v1/payments', 'payments', {
      page_size: 4,
      order_direction: direction,
    });
    expect(ids(walk.items)).toEqual(ids(sortedBy(paid, 'created_at', direction)));
    for (const page of walk.pages) expect(page.body.pagination_info.total_elements).toBe(PAYMENTS);
  }
  // The customer's payments: a scope of the sharded collection, sharded too.
  const scoped = await walkAll<Listed>(api, tokenA, '/v1/payments', 'payments', {
    page_size: 5,
    customer_id: payer.customerId,
  });
  expect(ids(scoped.items)).toEqual(ids(sortedBy(paid)));
  // Another client sees none of them.
  const b = await api.request('GET', '/v1/payments?page_size=100', { token: tokenB });
  expect(b.body.payments).toEqual([]);
});

test('a filtered list reads every shard through its filter', async () => {
  // Settlement is a moment behind: wait until every payment has its answer.
  const deadline = Date.now() + 30_000;
  let settled: Listed[];
  for (;;) {
    settled = (await walkAll<Listed>(api, tokenA, '/v1/payments', 'payments', { page_size: 100 })).items;
    if (settled.every((p) => p.status !== 'PENDING') || Date.now() > deadline) break;
    await sleep(200);
  }
  const rejected = settled.filter((p) => p.status === 'REJECTED');
  expect(rejected).toHaveLength(Math.ceil(PAYMENTS / 3));
  const walk = await walkAll<Listed>(api, tokenA, '/v1/payments', 'payments', { page_size: 2, status: 'REJECTED' });
  expect(ids(walk.items)).toEqual(ids(sortedBy(rejected)));
  expect(walk.pages[0]!.body.pagination_info.total_elements).toBe(rejected.length);
});

test("the webhook's deliveries: every delivery once, in order, totals exact, spread over the shards", async () => {
  const deadline = Date.now() + 30_000;
  let deliveries: Listed[];
  for (;;) {
    deliveries = (
      await walkAll<Listed>(api, tokenA, `/v1/webhooks/${hook.id}/deliveries`, 'deliveries', { page_size: 3 })
    ).items;
    const received = receiver.at(hook.path).length;
    if ((received >= 2 * PAYMENTS && deliveries.length === received) || Date.now() > deadline) break;
    await sleep(200);
  }
  const events = receiver.at(hook.path).map((r) => r.event.id);
  expect(deliveries.map((d) => d.event_id).sort()).toEqual([...events].sort());
  expect(new Set(ids(deliveries)).size).toBe(deliveries.length);
  expect(ids(deliveries)).toEqual(ids(sortedBy(deliveries)));
  const stored = (await api.scan()).filter((item) => item['entity'] === 'DELIVERY');
  expect(new Set(stored.map((item) => item['gsi3pk'])).size).toBeGreaterThanOrEqual(2);
  // Another client is refused the webhook's deliveries, as without shards.
  const foreign = await api.request('GET', `/v1/webhooks/${hook.id}/deliveries`, { token: tokenB });
  expect(foreign.status).toBe(403);
});
