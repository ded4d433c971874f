/**
 * Recipients through the real local server with real tokens (docs/payments.md, Recipients): saving
 * the payee of a resolution, reading, listing (customer_id), deleting, other clients' 403.
 */
import { SANDBOX_DIRECTORY_KEYS } from '../../infra/local/sandbox-fixtures';
import { sortedBy, walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem, fieldsOf } from '../support/problems';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';
/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory), and its payee. */
const ANA = SANDBOX_DIRECTORY_KEYS.find((entry) => entry.key.key_type === 'PHONE')!;
const ANA_PHONE = ANA.key;

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
});
afterAll(() => api.stop());

type Key = { readonly key_type?: string; readonly key_value: string };

const resolve = (token: string, customerId: string, key: Key): Promise<string> =>
  resolvedKey(api, token, customerId, key);

const save = (token: string, body: Record<string, unknown>): Promise<ApiAnswer> =>
  api.request('POST', '/v1/recipients', { token, body });

/** A recipient of the payer's customer: the payee of a resolution of `key`. */
async function recipientOf(payer: MerchantWithKey, key: Key, alias = 'Ana arriendo') {
  const resolutionId = await resolve(tokenA, payer.customerId, key);
  const saved = await save(tokenA, { customer_id: payer.customerId, resolution_id: resolutionId, alias });
  expect(saved.status).toBe(200);
  return saved.body;
}

describe('saving, reading, listing and deleting recipients', () => {
  it("answers the payee as the resolution showed it, reads it back, and 404 once it's deleted", async () => {
    const payer = await merchantWithKey(api, tokenA);
    const resolutionId = await resolve(tokenA, payer.customerId, { key_value: '+573001234567' });
    const saved = await save(tokenA, { customer_id: payer.customerId, resolution_id: resolutionId, alias: 'Ana' });
    expect(saved.status).toBe(200);
    const { id, created_at, updated_at, ...rest } = saved.body;
    expect(id).toMatch(UUID);
    expect(created_at).toMatch(TIMESTAMP);
    expect(updated_at).toBe(created_at);
    expect(rest).toEqual({ customer_id: payer.customerId, alias: 'Ana', ...ANA });
    // The same bytes as the resolution's payee, and as every later read.
    const resolution = await api.request('GET', `/v1/resolutions/${resolutionId}`, { token: tokenA });
    const { key, owner, participant, account } = resolution.body;
    expect({ key, owner, participant, account }).toEqual(ANA);
    const read = await api.request('GET', `/v1/recipients/${id}`, { token: tokenA });
    expect([read.status, read.text]).toEqual([200, saved.text]);
    expect((await api.request('GET', `/v1/recipients/${id.toUpperCase()}`, { token: tokenA })).text).toBe(saved.text);

    // Another client: 403 on read and delete, nothing of it shown; unknown ids 404.
    for (const method of ['GET', 'DELETE']) {
      const foreign = await api.request(method, `/v1/recipients/${id}`, { token: tokenB });
      expectProblem(foreign, 403, 'FORBIDDEN');
      expect(foreign.text).not.toContain('Ana');
      expectProblem(await api.request(method, `/v1/recipients/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
    }

    const deleted = await api.request('DELETE', `/v1/recipients/${id}`, { token: tokenA });
    expect([deleted.status, deleted.text]).toEqual([200, saved.text]);
    expectProblem(await api.request('GET', `/v1/recipients/${id}`, { token: tokenA }), 404, 'NOT_FOUND');
    expectProblem(await api.request('DELETE', `/v1/recipients/${id}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  it("lists the client's recipients, customer_id reading one customer's only, with its totals", async () => {
    const first = await merchantWithKey(api, tokenA);
    const second = await merchantWithKey(api, tokenA);
    const mine = [
      await recipientOf(first, ANA_PHONE, 'Uno'),
      await recipientOf(first, second.key, 'Dos'),
      await recipientOf(first, { key_value: 'ana.gomez@example.com' }, 'Tres'),
    ];
    const theirs = await recipientOf(second, first.key, 'Otro');
    const walk = await walkAll(api, tokenA, `/v1/recipients`, 'recipients', {
      customer_id: first.customerId,
      page_size: 2,
    });
    expect(walk.pages[0]!.body.pagination_info).toMatchObject({ total_elements: 3, total_pages: 2 });
    expect(walk.items).toEqual(sortedBy(mine as never[]));

    const all = await walkAll(api, tokenA, '/v1/recipients', 'recipients', { page_size: 100, order_direction: 'desc' });
    expect(all.items.map((r: Record<string, unknown>) => r['id'])).toEqual(
      expect.arrayContaining([...mine, theirs].map((r) => r['id'])),
    );
    // Another client filtering by the customer sees none of them; the read-only client reads lists.
    const foreign = await api.request('GET', `/v1/recipients?customer_id=${first.customerId}`, { token: tokenB });
    expect([foreign.status, foreign.body.recipients]).toEqual([200, []]);
    expect((await api.request('GET', '/v1/recipients', { token: readonly })).status).toBe(200);
    expectProblem(await api.request('GET', '/v1/recipients?customer=x', { token: tokenA }), 400, 'VALIDATION_FAILED');
  });

  it("refuses another client's resolution (403), another customer's (400), an unknown one (404), a bad alias", async () => {
    const payer = await merchantWithKey(api, tokenA);
    const sibling = await merchantWithKey(api, tokenA);
    const other = await merchantWithKey(api, tokenB);
    const ours = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const siblings = await resolve(tokenA, sibling.customerId, ANA_PHONE);
    const theirs = await resolve(tokenB, other.customerId, ANA_PHONE);
    const body = (resolution_id: string, alias = 'Ana') => ({ customer_id: payer.customerId, resolution_id, alias });

    expectProblem(await save(tokenA, body(theirs)), 403, 'FORBIDDEN');
    const another = await save(tokenA, body(siblings));
    expectProblem(another, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(another)).toEqual(['resolution_id']);
    expectProblem(await save(tokenA, body(UNKNOWN)), 404, 'NOT_FOUND');
    for (const alias of ['', '   ', 'x'.repeat(101)]) {
      const refused = await save(tokenA, body(ours, alias));
      expectProblem(refused, 400, 'VALIDATION_FAILED', JSON.stringify(alias));
      // An empty alias breaks two rules (length and a visible character), each named.
      expect([...new Set(fieldsOf(refused))]).toEqual(['alias']);
    }
    expect((await save(tokenA, body(ours, 'x'.repeat(100)))).status).toBe(200);
    // Saving needs the payments' write scope.
    expectProblem(await save(readonly, body(ours)), 403, 'INSUFFICIENT_SCOPE');
  });
});
