/**
 * GET /v1/customers and PATCH /v1/customers/{id} through the real local server: the list
 * conventions on customers, and status changes that the status filters and updated_at order follow.
 */
import { linkedCustomer, queryString, setStatus, sortedBy, walkAll, type LinkedCustomer } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';

interface Customer {
  id: string;
  status: string;
  mobile_phone_number: string;
  identification_number: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

let api: TestApi;
let tokenA: string;
let tokenB: string;
let linked: LinkedCustomer[];
/** Client A's customers as GET /v1/customers/{id} answers them now. */
let current: () => Promise<Customer[]>;

const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id);

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  linked = [];
  for (const mobile of ['3004444401', '3004444402', '+14155552671', '3004444401', '3004444405']) {
    linked.push(await linkedCustomer(api, tokenA, { mobile }));
  }
  current = async () =>
    Promise.all(
      linked.map(async (c) => (await api.request('GET', `/v1/customers/${c.id}`, { token: tokenA })).body as Customer),
    );
}, 30_000);
afterAll(() => api.stop());

const list = (query: Record<string, string | number | undefined> = {}, token = tokenA) =>
  api.request('GET', `/v1/customers${queryString(query)}`, { token });

describe('GET /v1/customers', () => {
  it('lists the client’s customers under customers, as GET /v1/customers/{id} answers them', async () => {
    const answer = await list({ page_size: 2 });
    expect(answer.status).toBe(200);
    expect(answer.body.customers).toEqual(sortedBy(await current()).slice(0, 2));
    expect(answer.body.pagination_info).toMatchObject({ total_elements: 5, total_pages: 3, current_page: 1 });
    const walk = await walkAll<Customer>(api, tokenA, '/v1/customers', 'customers', { page_size: 2 });
    expect(walk.pages.map((p) => p.body.customers.length)).toEqual([2, 2, 1]);
    expect(idsOf(walk.items)).toEqual(idsOf(sortedBy(await current())));
    const past = await list({ page_size: 2, page_number: 4 });
    expect([past.status, past.body.customers, past.body.pagination_info.total_elements]).toEqual([200, [], 5]);
  });

  it('shows another client nothing of them', async () => {
    const answer = await list({}, tokenB);
    expect(answer.body).toEqual({
      customers: [],
      pagination_info: {
        total_elements: 0,
        total_pages: 0,
        current_page: 1,
        first_request_timestamp: expect.any(String),
      },
    });
  });

  it.each<[string, (c: Customer[]) => Record<string, string>, (c: Customer[]) => Customer[]]>([
    ['identification_number', (c) => ({ identification_number: c[2]!.identification_number }), (c) => [c[2]!]],
    ['an identification_number nobody has', () => ({ identification_number: '811111111' }), () => []],
    ['mobile (two customers share it)', () => ({ mobile: '3004444401' }), (c) => [c[0]!, c[3]!]],
    ['mobile, E.164 of another country', () => ({ mobile: '+14155552671' }), (c) => [c[2]!]],
    ['created_from', (c) => ({ created_from: sortedBy(c)[3]!.created_at }), (c) => sortedBy(c).slice(3)],
    [
      'created_at (that UTC day)',
      (c) => ({ created_at: c[0]!.created_at.slice(0, 10) }),
      (c) => c.filter((x) => x.created_at.startsWith(c[0]!.created_at.slice(0, 10))),
    ],
    [
      'identification_number and mobile',
      (c) => ({ identification_number: c[0]!.identification_number, mobile: '3004444401' }),
      (c) => [c[0]!],
    ],
  ])('filters by %s', async (_, query, expected) => {
    const customers = await current();
    const walk = await walkAll<Customer>(api, tokenA, '/v1/customers', 'customers', {
      ...query(customers),
      page_size: 1,
    });
    const wanted = sortedBy(expected(customers));
    expect(idsOf(walk.items)).toEqual(idsOf(wanted));
    expect(walk.pages[0]!.body.pagination_info.total_elements).toBe(wanted.length);
  });

  it.each([
    ['identification_number=12345', 'identification_number'],
    ['customer_id=3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11', 'customer_id'],
    ['customer_status=closed', 'customer_status'],
    ['page_size=500', 'page_size'],
    ['order_direction=up', 'order_direction'],
    ['updated_from=2025-02-29', 'updated_from'],
    ['email=pagos@esperanza.co', 'email'],
  ])('rejects %s (400 on that parameter)', async (query, field) => {
    const answer = await api.request('GET', `/v1/customers?${query}`, { token: tokenA });
    expect([answer.status, answer.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('says in words what a refused parameter must be, not the pattern it fails', async () => {
    const answer = await api.request('GET', '/v1/customers?order_direction=up&created_from=yesterday', {
      token: tokenA,
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toHaveLength(2);
    expect(answer.body.errors).toContainEqual({
      field: 'order_direction',
      message: 'must be asc or desc, in any letter case',
    });
    expect(answer.body.errors).toContainEqual({
      field: 'created_from',
      message: 'must be a date, YYYY-MM-DD, or a UTC timestamp, YYYY-MM-DDTHH:MM:SSZ',
    });
  });
});

describe('PATCH /v1/customers/{id}', () => {
  it('deactivates: status and updated_at change, GET and the lists follow, updated_at order moves it last', async () => {
    const target = linked[0]!;
    const before = (await current()).find((c) => c.id === target.id)!;
    const answer = await setStatus(api, tokenA, target.id, 'INACTIVE');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ...before, status: 'INACTIVE', updated_at: expect.any(String) });
    expect(answer.body.updated_at > before.updated_at).toBe(true);
    const read = await api.request('GET', `/v1/customers/${target.id}`, { token: tokenA });
    expect(read.body).toEqual(answer.body);

    const customers = await current();
    const inactive = await list({ customer_status: 'inactive' });
    expect(idsOf(inactive.body.customers)).toEqual([target.id]);
    expect((await list({ customer_status: 'ACTIVE' })).body.pagination_info.total_elements).toBe(4);
    const byUpdate = await walkAll<Customer>(api, tokenA, '/v1/customers', 'customers', {
      order_key: 'updated_at',
      page_size: 2,
    });
    expect(idsOf(byUpdate.items)).toEqual(idsOf(sortedBy(customers, 'updated_at')));
    expect(byUpdate.items.at(-1)!.id).toBe(target.id);
    const newest = await list({ order_key: 'updated_at', order_direction: 'desc', page_size: 1 });
    expect(idsOf(newest.body.customers)).toEqual([target.id]);
    // Creation order does not move.
    expect(idsOf((await list()).body.customers)).toEqual(idsOf(sortedBy(customers)));
    const updatedSince = await list({ updated_from: answer.body.updated_at });
    expect(idsOf(updatedSince.body.customers)).toEqual([target.id]);

    const reactivated = await setStatus(api, tokenA, target.id, 'ACTIVE');
    expect([reactivated.status, reactivated.body.status]).toEqual([200, 'ACTIVE']);
    expect((await list({ customer_status: 'inactive' })).body.pagination_info.total_elements).toBe(0);
  });

  it('setting the status the customer already has changes nothing', async () => {
    const target = linked[1]!;
    const before = (await api.request('GET', `/v1/customers/${target.id}`, { token: tokenA })).body;
    const answer = await setStatus(api, tokenA, target.id, 'ACTIVE');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(before);
  });

  it.each<[string, unknown, string]>([
    ['an unknown status', { status: 'BLOCKED' }, 'status'],
    ['a lower-case status', { status: 'inactive' }, 'status'],
    ['no status', {}, 'status'],
    ['another field', { status: 'ACTIVE', email: 'x@y.co' }, 'email'],
  ])('rejects %s (400)', async (_, body, field) => {
    const answer = await api.request('PATCH', `/v1/customers/${linked[2]!.id}`, { token: tokenA, body });
    expect([answer.status, answer.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('answers 404 for an unknown customer, 403 for another client’s, 403 without the write scope', async () => {
    const unknown = await setStatus(api, tokenA, '7d7c5a1e-0000-4000-8000-000000000000', 'INACTIVE');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const other = await setStatus(api, tokenB, linked[2]!.id, 'INACTIVE');
    expect([other.status, other.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(other.text).not.toContain(linked[2]!.nit);
    const readonly = await setStatus(api, await api.token('sandbox-client-readonly'), linked[2]!.id, 'INACTIVE');
    expect([readonly.status, readonly.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect((await api.request('GET', `/v1/customers/${linked[2]!.id}`, { token: tokenA })).body.status).toBe('ACTIVE');
  });

  it('rejects a body that is not JSON', async () => {
    const answer = await api.request('PATCH', `/v1/customers/${linked[2]!.id}`, {
      token: tokenA,
      rawBody: 'status=INACTIVE',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([answer.status, answer.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('ends with one status when changes of one customer race', async () => {
    const target = linked[4]!;
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => setStatus(api, tokenA, target.id, i % 2 ? 'ACTIVE' : 'INACTIVE')),
    );
    // Each change applies, or (having lost the race three times in a row) asks for a retry.
    for (const answer of answers) {
      expect([200, 409]).toContain(answer.status);
      if (answer.status === 409) expect(answer.body.code).toBe('CONCURRENT_UPDATE');
    }
    const final = (await api.request('GET', `/v1/customers/${target.id}`, { token: tokenA })).body.status;
    const listed = await list({ customer_status: final, identification_number: target.nit });
    expect(idsOf(listed.body.customers)).toEqual([target.id]);
  });
});
