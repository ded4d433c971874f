/**
 * Webhook endpoints through the real local server with real tokens (docs/webhooks.md): the secret
 * answered by create and rotate only, lists a page at a time, changes, deletion, another client's and
 * the read-only client's refusals, and the URL rules as the local stage applies them. What the API
 * accepts is sent through the client typed by the OpenAPI document (support/api-client.ts), so a
 * change of the webhooks' contract breaks this file's type check; what it must refuse (fields of no
 * schema, bad values) is sent untyped.
 */
import { walkAll } from '../support/accounts';
import { typedClient, type ApiClient, type Schema } from '../support/api-client';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { SSRF_FORMS } from '../support/ssrf-forms';
import { expectProblem, fieldsOf } from '../support/problems';
import { SAMPLE_WEBHOOK_URL } from '../support/route-samples';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;
/** Client A's, typed by the document. */
let client: ApiClient;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
  client = typedClient(api, tokenA);
});
afterAll(() => api.stop());

type Webhook = Schema<'Webhook'>;
type WebhookWithSecret = Schema<'WebhookWithSecret'>;
type NewWebhook = Schema<'CreateWebhookRequest'>;

/** Sent untyped: for what the API must refuse, or a client without the scope. */
const create = (body: Record<string, unknown>, token = tokenA, headers: Record<string, string> = {}) =>
  api.request('POST', '/v1/webhooks', { token, body, headers });

/** The typed answer of a call the API must accept (200), with its headers. */
async function accepted<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<{
  data: T;
  response: Response;
}> {
  const { data, error, response } = await call;
  expect({ status: response.status, error }).toEqual({ status: 200, error: undefined });
  return { data: data!, response };
}

async function created(body: Partial<NewWebhook> = {}, as = client): Promise<WebhookWithSecret> {
  const webhook = { url: SAMPLE_WEBHOOK_URL, events: ['payment.settled'], ...body } satisfies NewWebhook;
  return (await accepted(as.POST('/v1/webhooks', { body: webhook }))).data;
}

const read = async (id: string): Promise<Webhook> =>
  (await accepted(client.GET('/v1/webhooks/{id}', { params: { path: { id } } }))).data;

/** Nothing of any webhook answer but create's and rotate's holds a secret. */
const expectNoSecret = (answer: ApiAnswer | object) => {
  const text = 'text' in answer && typeof answer.text === 'string' ? answer.text : JSON.stringify(answer);
  expect(text).not.toContain('whsec_');
  expect(text).not.toContain('secret');
};

test('create answers the webhook with its secret, once; GET never shows it', async () => {
  const body: NewWebhook = {
    url: 'http://localhost:8080/breb',
    events: ['payment.settled', 'payment.rejected', 'webhook.test'],
    description: 'Conciliación',
  };
  const params = { header: { 'Idempotency-Key': 'webhook-create-1' } };
  const { data: webhook } = await accepted(client.POST('/v1/webhooks', { body, params }));
  expect(webhook).toEqual({
    id: expect.stringMatching(UUID),
    url: 'http://localhost:8080/breb',
    events: ['payment.settled', 'payment.rejected', 'webhook.test'],
    delivery_mode: 'RETRY',
    enabled: true,
    description: 'Conciliación',
    secret: expect.stringMatching(SECRET),
    created_at: expect.stringMatching(TIMESTAMP),
    updated_at: webhook.created_at,
  });
  const { secret, ...rest } = webhook;

  const readBack = await read(webhook.id);
  expect(readBack).toEqual(rest);
  expectNoSecret(readBack);

  // The same request under the same Idempotency-Key is the same webhook, and no second one; the
  // secret was shown once and is not kept with the answer: the replay goes without it, and says so.
  const replay = await accepted(client.POST('/v1/webhooks', { body, params }));
  expect(replay.data).toEqual(rest);
  expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.response.headers.get('idempotent-replay-withheld')).toBe('secret');
  expect(secret).toMatch(SECRET);
  expect((await client.GET('/v1/webhooks')).data!.webhooks.filter((w) => w.id === webhook.id)).toHaveLength(1);
});

test('delivery_mode and enabled take what the client sends', async () => {
  const webhook = await created({ delivery_mode: 'ONCE', enabled: false });
  expect(webhook).toMatchObject({ delivery_mode: 'ONCE', enabled: false });
  expect(webhook).not.toHaveProperty('description');
});

test('the list pages through the client’s webhooks, without secrets or another client’s', async () => {
  const own = [await created(), await created(), await created()];
  const foreign = await created({}, typedClient(api, tokenB));
  const walk = await walkAll(api, tokenA, '/v1/webhooks', 'webhooks', { page_size: 2 });
  expect(walk.pages.length).toBeGreaterThanOrEqual(2);
  const ids = walk.items.map((w: Record<string, any>) => w.id);
  for (const webhook of own) expect(ids).toContain(webhook.id);
  expect(ids).not.toContain(foreign.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const page of walk.pages) expectNoSecret(page);
  expect(walk.pages[0]!.body.pagination_info).toMatchObject({ total_elements: ids.length, current_page: 1 });
});

test('PATCH changes any of the fields and moves updated_at; the URL is checked again', async () => {
  const webhook = await created({ description: 'antes' });
  const { data: patched } = await accepted(
    client.PATCH('/v1/webhooks/{id}', {
      params: { path: { id: webhook.id } },
      body: {
        url: 'http://127.0.0.1:9999/nuevo',
        events: ['qr_code.paid'],
        delivery_mode: 'ONCE',
        enabled: false,
        description: 'después',
      },
    }),
  );
  expect(patched).toEqual({
    id: webhook.id,
    url: 'http://127.0.0.1:9999/nuevo',
    events: ['qr_code.paid'],
    delivery_mode: 'ONCE',
    enabled: false,
    description: 'después',
    created_at: webhook.created_at,
    updated_at: expect.stringMatching(TIMESTAMP),
  });
  expect(patched.updated_at >= webhook.updated_at).toBe(true);
  expectNoSecret(patched);
  expect(await read(webhook.id)).toEqual(patched);

  const refused = await api.request('PATCH', `/v1/webhooks/${webhook.id}`, {
    token: tokenA,
    body: { url: 'https://169.254.169.254/latest/meta-data/' },
  });
  expectProblem(refused, 400, 'VALIDATION_FAILED');
  expect(fieldsOf(refused)).toEqual(['url']);
  const empty = await api.request('PATCH', `/v1/webhooks/${webhook.id}`, { token: tokenA, body: {} });
  expectProblem(empty, 400, 'VALIDATION_FAILED');
});

test('DELETE answers the webhook once; then it is 404 everywhere', async () => {
  const webhook = await created();
  const { data: deleted } = await accepted(
    client.DELETE('/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }),
  );
  const { secret: _secret, ...withoutSecret } = webhook;
  expect(deleted).toEqual(withoutSecret);
  expectNoSecret(deleted);
  for (const [method, path] of [
    ['GET', `/v1/webhooks/${webhook.id}`],
    ['DELETE', `/v1/webhooks/${webhook.id}`],
    ['POST', `/v1/webhooks/${webhook.id}/rotate-secret`],
  ] as const) {
    expectProblem(await api.request(method, path, { token: tokenA }), 404, 'NOT_FOUND', `${method} ${path}`);
  }
  expectProblem(
    await api.request('PATCH', `/v1/webhooks/${webhook.id}`, { token: tokenA, body: { enabled: true } }),
    404,
    'NOT_FOUND',
  );
  const ids = (await walkAll(api, tokenA, '/v1/webhooks', 'webhooks')).items.map((w: Record<string, any>) => w.id);
  expect(ids).not.toContain(webhook.id);
});

test('rotate-secret answers a new secret once; GET still shows none', async () => {
  const webhook = await created();
  const rotate = () =>
    accepted(client.POST('/v1/webhooks/{id}/rotate-secret', { params: { path: { id: webhook.id } } }));
  const { data: rotated } = await rotate();
  expect(rotated.secret).toMatch(SECRET);
  expect(rotated.secret).not.toBe(webhook.secret);
  const { secret: _fresh, ...rest } = rotated;
  const { secret: _first, updated_at: _updated, ...before } = webhook;
  expect(rest).toEqual({ ...before, updated_at: expect.stringMatching(TIMESTAMP) });
  expectNoSecret(await read(webhook.id));
  const { data: again } = await rotate();
  expect(again.secret).not.toBe(rotated.secret);

  // Under an Idempotency-Key: the first answer shows the new secret, a replay does not (nor rotates again).
  const keyed = { params: { path: { id: webhook.id }, header: { 'Idempotency-Key': `rotate-${webhook.id}` } } };
  const { data: first } = await accepted(client.POST('/v1/webhooks/{id}/rotate-secret', keyed));
  expect(first.secret).toMatch(SECRET);
  const replay = await accepted(client.POST('/v1/webhooks/{id}/rotate-secret', keyed));
  const { secret: _shown, ...firstWithout } = first;
  expect(replay.data).toEqual(firstWithout);
  expect(replay.response.headers.get('idempotent-replay-withheld')).toBe('secret');
});

test("another client's webhook is 403 on every route, and nothing of it is shown", async () => {
  const webhook = await created();
  const path = `/v1/webhooks/${webhook.id}`;
  for (const answer of [
    await api.request('GET', path, { token: tokenB }),
    await api.request('PATCH', path, { token: tokenB, body: { enabled: false } }),
    await api.request('DELETE', path, { token: tokenB }),
    await api.request('POST', `${path}/rotate-secret`, { token: tokenB }),
  ]) {
    expectProblem(answer, 403, 'FORBIDDEN');
    expect(answer.text).not.toContain(webhook.url);
  }
  expect((await api.request('GET', path, { token: tokenA })).body).toMatchObject({ enabled: true });
  expectProblem(await api.request('GET', `/v1/webhooks/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
});

test('the read-only client reads webhooks and may change none', async () => {
  const webhook = await created();
  expect((await api.request('GET', '/v1/webhooks', { token: readonly })).status).toBe(200);
  for (const answer of [
    await create({ url: SAMPLE_WEBHOOK_URL, events: ['payment.settled'] }, readonly),
    await api.request('PATCH', `/v1/webhooks/${webhook.id}`, { token: readonly, body: { enabled: false } }),
    await api.request('DELETE', `/v1/webhooks/${webhook.id}`, { token: readonly }),
    await api.request('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { token: readonly }),
  ]) {
    expectProblem(answer, 403, 'INSUFFICIENT_SCOPE');
    expect(answer.body.detail).toContain('breb/webhooks.write');
  }
});

describe('400: what create refuses', () => {
  test.each([
    ['no events', { url: SAMPLE_WEBHOOK_URL, events: [] }, ['events']],
    ['an unknown event', { url: SAMPLE_WEBHOOK_URL, events: ['payment.created'] }, ['events.0']],
    ['an event twice', { url: SAMPLE_WEBHOOK_URL, events: ['qr_code.paid', 'qr_code.paid'] }, ['events']],
    [
      'an unknown delivery mode',
      { url: SAMPLE_WEBHOOK_URL, events: ['qr_code.paid'], delivery_mode: 'TWICE' },
      ['delivery_mode'],
    ],
    ['no url', { events: ['qr_code.paid'] }, ['url']],
    ['a secret of its own', { url: SAMPLE_WEBHOOK_URL, events: ['qr_code.paid'], secret: 'whsec_mine' }, ['secret']],
  ])('%s', async (_, body, fields) => {
    const answer = await create(body);
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(fields);
  });

  test.each([
    ['http to another host than this machine', 'http://hooks.example.com/breb', 'must be an https URL'],
    ['the metadata service', 'https://169.254.169.254/latest/meta-data/', 'a non-public address'],
    ['a private address', 'https://10.0.0.1/hooks', 'a non-public address'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hooks', 'a non-public address'],
    ...SSRF_FORMS.map(([what, url]) => [what, url, 'a non-public address'] as [string, string, string]),
    ['the IPv6 loopback (not one of the local exceptions)', 'http://[::1]:8080/hooks', 'must be an https URL'],
    ['credentials', 'http://user:secret@127.0.0.1:8080/hooks', 'must not carry credentials'],
    ['not a URL', 'hooks.example.com/breb', 'must be an absolute URL'],
  ])('the URL: %s', async (_, url, message) => {
    const answer = await create({ url, events: ['payment.settled'] });
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(answer.body.errors).toEqual([{ field: 'url', message: expect.stringContaining(message) }]);
    // Never the address: a refused host's answer names no IPv4 or IPv6 address of what it is.
    if (message === 'a non-public address')
      expect(answer.body.errors[0].message).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]+:[0-9a-f:]*:/i);
  });
});
