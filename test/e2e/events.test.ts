/**
 * GET /v1/events and GET /v1/events/{id} through the real local server with real tokens
 * (docs/webhooks.md, "Events"): a client's events, newest first, each as its webhooks received it;
 * paged over a snapshot while new events arrive, with totals from the counters by day; the `type`
 * and date filters; the 30-day window (events written straight to the table on its edges) and the
 * TTL attributes; another client's event 404 and none of its events listed; the read scope.
 */
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { routes } from '../../functions/routes';
import { createDynamoDbClient } from '../../shared/data/client';
import { eventsPut } from '../../shared/data/events';
import type { DomainEvent } from '../../shared/domain/events';
import { typedClient } from '../support/api-client';
import { startTestApi, testEndpoint, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { SAMPLE_WEBHOOK_URL } from '../support/route-samples';
import { tokenWithoutScopeOf } from '../support/tokens';
import { WebhookReceiver } from '../support/webhook-receiver';

const DAY_MS = 24 * 60 * 60 * 1000;

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  [api, receiver] = await Promise.all([startTestApi({ webhookTimeoutMs: 400 }), WebhookReceiver.start()]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

type Listed = { id: string; type: string; created_at: string; data: Record<string, unknown> };

const listEvents = (token: string, query: Record<string, string | number> = {}) =>
  api.request(
    'GET',
    `/v1/events?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`,
    {
      token,
    },
  );

/** A webhook of client A's that only test events reach (nothing listens at the sample URL). */
async function quietWebhook(): Promise<string> {
  const created = await api.request('POST', '/v1/webhooks', {
    token: tokenA,
    body: { url: SAMPLE_WEBHOOK_URL, events: ['webhook.test'], delivery_mode: 'ONCE' },
  });
  expect(created.status).toBe(200);
  return created.body.id;
}

/** `count` webhook.test events to `webhookId`, one after the other; their ids, oldest first. */
async function testEvents(webhookId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const sent = await api.request('POST', `/v1/webhooks/${webhookId}/test`, { token: tokenA });
    expect(sent.status).toBe(200);
    ids.push(sent.body.event_id);
  }
  return ids;
}

test('newest first, each as its webhook received it; GET of one answers the same', async () => {
  const from = new Date().toISOString();
  const created = await api.request('POST', '/v1/webhooks', {
    token: tokenA,
    body: { url: `${receiver.url}/catch-up`, events: ['webhook.test'] },
  });
  receiver.secrets.set('/catch-up', [created.body.secret]);
  const ids = await testEvents(created.body.id, 3);
  await receiver.until(() => receiver.at('/catch-up').length >= 3);

  const listed = await listEvents(tokenA, { created_from: from });
  expect(listed.status).toBe(200);
  expect(listed.body.events.map((event: Listed) => event.id)).toEqual([...ids].reverse());
  expect(listed.body.pagination_info).toMatchObject({ total_elements: 3, total_pages: 1, current_page: 1 });
  // The very body each delivery carried (signed, so the receiver verified it), field for field.
  for (const event of listed.body.events as Listed[]) {
    const received = receiver.at('/catch-up').find((r) => r.event.id === event.id);
    expect(JSON.parse(received!.body)).toEqual(event);
    expect(received!.verifiedBy).toHaveLength(1);
  }
  // Oldest first when asked; and through the typed client (the document's paths and types).
  const ascending = await listEvents(tokenA, { created_from: from, order_direction: 'asc' });
  expect(ascending.body.events.map((event: Listed) => event.id)).toEqual(ids);
  const one = await typedClient(api, tokenA).GET('/v1/events/{id}', { params: { path: { id: ids[1]! } } });
  expect(one.data).toEqual(listed.body.events[1]);
  expect(one.data).toEqual({
    id: ids[1],
    type: 'webhook.test',
    created_at: expect.any(String),
    data: { webhook_id: created.body.id },
  });
});

test('pages walk one snapshot while new events arrive; a new walk counts them', async () => {
  const webhookId = await quietWebhook();
  // Without filters the total is the window's counters by day: what was there before, and ours.
  const before = (await listEvents(tokenA, { page_size: 1 })).body.pagination_info.total_elements as number;
  const ours = await testEvents(webhookId, 7);
  const newestFirst = [...ours].reverse();

  const first = await listEvents(tokenA, { page_size: 3 });
  expect(first.body.pagination_info).toMatchObject({ total_elements: before + 7, current_page: 1 });
  const snapshot = first.body.pagination_info.first_request_timestamp as string;
  const arrived = await testEvents(webhookId, 3);

  const pinned = (page: number) =>
    listEvents(tokenA, { page_size: 3, page_number: page, first_request_timestamp: snapshot });
  const [second, third] = await Promise.all([pinned(2), pinned(3)]);
  for (const page of [second, third]) {
    expect(page.status).toBe(200);
    // Counted at the snapshot: the counters less the events after it.
    expect(page.body.pagination_info).toMatchObject({ total_elements: before + 7, first_request_timestamp: snapshot });
  }
  const walked = [first, second, third].flatMap((page) => page.body.events.map((event: Listed) => event.id));
  expect(walked.slice(0, 7)).toEqual(newestFirst);
  expect(walked.filter((id) => arrived.includes(id))).toEqual([]);

  const fresh = await listEvents(tokenA, { page_size: 3 });
  expect(fresh.body.pagination_info.total_elements).toBe(before + 10);
  expect(fresh.body.events.map((event: Listed) => event.id)).toEqual([...arrived].reverse());
});

test('the type filter and the date filters; the updated ones bound creation (an event never changes)', async () => {
  const from = new Date().toISOString();
  const webhookId = await quietWebhook();
  const [firstTest] = await testEvents(webhookId, 2);

  const tests = await listEvents(tokenA, { type: 'webhook.test', created_from: from });
  expect(tests.body.events).toHaveLength(2);
  expect(tests.body.pagination_info.total_elements).toBe(2);
  const none = await listEvents(tokenA, { type: 'payment.settled', created_from: from });
  expect([none.body.events, none.body.pagination_info.total_elements]).toEqual([[], 0]);

  const firstAt = (await api.request('GET', `/v1/events/${firstTest}`, { token: tokenA })).body.created_at as string;
  const exactly = await listEvents(tokenA, { created_at: firstAt });
  expect(exactly.body.events.map((event: Listed) => event.id)).toContain(firstTest);
  const updated = await listEvents(tokenA, { updated_from: from, type: 'webhook.test', order_key: 'updated_at' });
  expect(updated.body.events.map((event: Listed) => event.id)).toEqual(
    tests.body.events.map((event: Listed) => event.id),
  );
  const unknownType = await listEvents(tokenA, { type: 'payment.created' });
  expectProblem(unknownType, 400, 'VALIDATION_FAILED');
});

test("another client's event is 404 and none of its events is listed; the read scope is needed", async () => {
  const [id] = await testEvents(await quietWebhook(), 1);
  const asB = await api.request('GET', `/v1/events/${id}`, { token: tokenB });
  expectProblem(asB, 404, 'NOT_FOUND');
  expect(asB.text).not.toContain('webhook_id');
  expectProblem(await api.request('GET', `/v1/events/${randomUUID()}`, { token: tokenA }), 404, 'NOT_FOUND');
  const listedForB = await listEvents(tokenB, { page_size: 100 });
  expect(listedForB.text).not.toContain(id);

  for (const name of ['listEvents', 'getEvent']) {
    const route = routes.find((r) => r.name === name)!;
    const token = await tokenWithoutScopeOf(api.runtime.issuer, route, 'sandbox-client-a');
    const answer = await api.request('GET', name === 'getEvent' ? `/v1/events/${id}` : '/v1/events', { token });
    expectProblem(answer, 403, 'INSUFFICIENT_SCOPE');
  }
  // The read-only client (breb/webhooks.read) reads its own.
  const readOnly = await api.token('sandbox-client-readonly');
  expect((await listEvents(readOnly)).status).toBe(200);
});

test('30 whole days back and today: an older event is neither listed, counted nor read; the TTL outlives the window', async () => {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00.000Z`);
  const event = (createdAt: number): DomainEvent => ({
    id: randomUUID(),
    tenant: 'sandbox-client-b',
    type: 'report.ready',
    created_at: new Date(createdAt).toISOString(),
    data: { id: randomUUID() },
  });
  // The window's first instant, and the last one before it.
  const edge = event(today - 30 * DAY_MS);
  const older = event(today - 30 * DAY_MS - 1);
  const documents = DynamoDBDocumentClient.from(createDynamoDbClient(testEndpoint()));
  for (const written of [edge, older]) {
    const items = eventsPut([written]).map((item) => ({
      ...item,
      ...(item.Put ? { Put: { ...item.Put, TableName: api.runtime.tableName } } : {}),
      ...(item.Update ? { Update: { ...item.Update, TableName: api.runtime.tableName } } : {}),
    }));
    await documents.send(new TransactWriteCommand({ TransactItems: items }));
  }

  const listed = await listEvents(tokenB, { page_size: 100 });
  expect(listed.body.events.map((e: Listed) => e.id)).toEqual([edge.id]);
  // The counters of the window's days: the older day's is not summed.
  expect(listed.body.pagination_info.total_elements).toBe(1);
  const typed = await listEvents(tokenB, { type: 'report.ready' });
  expect([typed.body.pagination_info.total_elements, typed.body.events.length]).toEqual([1, 1]);
  expect((await api.request('GET', `/v1/events/${edge.id}`, { token: tokenB })).status).toBe(200);
  expectProblem(await api.request('GET', `/v1/events/${older.id}`, { token: tokenB }), 404, 'NOT_FOUND');

  // Each event expires at the end of its window: 31 days after the start of its day; its day's
  // counters a day later. The edge event is still in the window now: its TTL is in the future.
  const items = await api.scan();
  const stored = (id: string) => items.find((item) => item['pk'] === `EVENT#${id}`)!;
  expect(stored(edge.id)['expires_at']).toBe((today + DAY_MS) / 1000);
  expect(stored(older.id)['expires_at']).toBe(today / 1000);
  expect(stored(edge.id)['expires_at'] * 1000).toBeGreaterThan(Date.now());
  const counters = items.filter((item) => item['entity'] === 'DAY_COUNTER' && item['pk'].includes('sandbox-client-b'));
  expect(counters.length).toBeGreaterThanOrEqual(2);
  for (const counter of counters) {
    const day = Date.parse(`${String(counter['sk']).slice(0, 10)}T00:00:00.000Z`);
    expect(counter['expires_at']).toBe((day + 32 * DAY_MS) / 1000);
  }
  // An event written by a request (client A's) carries its TTL too.
  const live = items.find((item) => item['entity'] === 'EVENT' && item['tenant'] === 'sandbox-client-a')!;
  const liveDay = Date.parse(`${String(live['created_at']).slice(0, 10)}T00:00:00.000Z`);
  expect(live['expires_at']).toBe((liveDay + 31 * DAY_MS) / 1000);
});
