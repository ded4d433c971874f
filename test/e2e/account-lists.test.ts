/**
 * GET /v1/accounts and GET /accounts through the real local server: totals, last page, past the
 * end, both directions, both order keys, every filter alone and combined, bad values, unknown
 * parameters, and walks of every page while other accounts are being created.
 */
import { stages } from '../../infra/stages';
import {
  accountNumbers,
  linkAccount,
  linkedCustomer,
  queryString,
  setStatus,
  sortedBy,
  walkAll,
  type LinkedCustomer,
} from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';

interface ListItem {
  id: string;
  customer_id: string;
  account_number: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

let api: TestApi;
let tokenA: string;
let tokenB: string;

/** Client A's accounts: 12 of C1, 7 of C2 (inactive), 4 of C3, created in turn. */
let c1: LinkedCustomer;
let c2: LinkedCustomer;
let c3: LinkedCustomer;
let all: ListItem[];

const ofCustomer = (customer: LinkedCustomer) => all.filter((a) => a.customer_id === customer.id);
const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id);

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  c1 = await linkedCustomer(api, tokenA, {
    numbers: accountNumbers(12),
    mobile: '3001111111',
    businessName: 'Uno SAS',
  });
  c2 = await linkedCustomer(api, tokenA, { numbers: accountNumbers(7), mobile: '3002222222', businessName: 'Dos SAS' });
  c3 = await linkedCustomer(api, tokenA, {
    numbers: accountNumbers(4),
    mobile: '3003333333',
    businessName: 'Tres SAS',
  });
  all = [];
  const queues = [c1, c2, c3].map((customer) => customer.numbers.map((number) => ({ customer, number })));
  while (queues.some((queue) => queue.length > 0)) {
    for (const queue of queues) {
      const next = queue.shift();
      if (!next) continue;
      const answer = await linkAccount(api, tokenA, next.customer.id, next.number);
      expect(answer.status).toBe(200);
      all.push({
        id: answer.body.id,
        customer_id: next.customer.id,
        account_number: next.number,
        account_name: next.customer.body.business_name,
        bank_name: stages.local.participant.name,
        account_status: 'ACTIVE',
        account_type: 'ORDINARY',
        available_balance: { currency: 'COP', value: '1000000.00' },
        pending_balance: { currency: 'COP', value: '0.00' },
        created_at: answer.body.created_at,
        updated_at: answer.body.updated_at,
      });
    }
  }
  expect((await setStatus(api, tokenA, c2.id, 'INACTIVE')).status).toBe(200);
}, 60_000);
afterAll(() => api.stop());

const list = (query: Record<string, string | number | undefined> = {}, path = '/v1/accounts', token = tokenA) =>
  api.request('GET', `${path}${queryString(query)}`, { token });

describe('a page', () => {
  it("holds the contract's list items under accounts, with pagination_info", async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.body.accounts).toEqual(sortedBy(all).slice(0, 10));
    expect(answer.body.pagination_info).toEqual({
      total_elements: 23,
      total_pages: 3,
      current_page: 1,
      first_request_timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('is the same on GET /accounts and GET /v1/accounts', async () => {
    const v1 = await list({ page_size: 5, page_number: 2 });
    const bare = await list(
      { page_size: 5, page_number: 2, first_request_timestamp: v1.body.pagination_info.first_request_timestamp },
      '/accounts',
    );
    expect(bare.status).toBe(200);
    expect(bare.body).toEqual(v1.body);
  });

  it('ends with a short last page; past the end is 200 with no items and the true totals', async () => {
    const walk = await walkAll<ListItem>(api, tokenA, '/v1/accounts', 'accounts');
    expect(walk.pages.map((p) => p.body.accounts.length)).toEqual([10, 10, 3]);
    expect(walk.pages.map((p) => p.body.pagination_info.current_page)).toEqual([1, 2, 3]);
    expect(idsOf(walk.items)).toEqual(idsOf(sortedBy(all)));
    for (const page of [4, 100]) {
      const past = await list({ page_number: page });
      expect(past.status).toBe(200);
      expect(past.body).toEqual({
        accounts: [],
        pagination_info: {
          total_elements: 23,
          total_pages: 3,
          current_page: page,
          first_request_timestamp: expect.any(String),
        },
      });
    }
  });

  it('honours page_size from 1 to 100', async () => {
    const ones = await walkAll<ListItem>(api, tokenA, '/v1/accounts', 'accounts', { page_size: 1 });
    expect(ones.pages).toHaveLength(23);
    expect(idsOf(ones.items)).toEqual(idsOf(sortedBy(all)));
    const hundred = await list({ page_size: 100 });
    expect(hundred.body.pagination_info).toMatchObject({ total_elements: 23, total_pages: 1 });
    expect(hundred.body.accounts).toHaveLength(23);
  });
});

describe('order', () => {
  it.each([
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['updated_at', 'asc'],
    ['updated_at', 'DESC'],
    [undefined, 'Desc'],
  ] as const)('order_key %s, order_direction %s: every page, every item once', async (orderKey, direction) => {
    const walk = await walkAll<ListItem>(api, tokenA, '/v1/accounts', 'accounts', {
      order_key: orderKey,
      order_direction: direction,
      page_size: 4,
    });
    const expected = sortedBy(all, orderKey ?? 'created_at', direction.toLowerCase() as 'asc' | 'desc');
    expect(idsOf(walk.items)).toEqual(idsOf(expected));
    expect(walk.pages.every((p) => p.body.pagination_info.total_elements === 23)).toBe(true);
  });

  it('walks backwards from the last page to the first', async () => {
    const first = await list({ page_size: 5, order_direction: 'desc' });
    const snapshot = first.body.pagination_info.first_request_timestamp;
    const pages = [];
    for (let page = 5; page >= 1; page -= 1) {
      const answer = await list({
        page_size: 5,
        page_number: page,
        order_direction: 'desc',
        first_request_timestamp: snapshot,
      });
      pages.unshift(...answer.body.accounts);
    }
    expect(idsOf(pages)).toEqual(idsOf(sortedBy(all, 'created_at', 'desc')));
  });
});

describe('filters', () => {
  const createdAt = (i: number) => sortedBy(all)[i]!.created_at;
  const between = (from: string, to: string) => all.filter((a) => a.created_at >= from && a.created_at <= to);

  it.each<[string, () => Record<string, string>, () => ListItem[]]>([
    ['customer_id', () => ({ customer_id: c1.id }), () => ofCustomer(c1)],
    ['customer_id of another customer', () => ({ customer_id: c3.id }), () => ofCustomer(c3)],
    ['customer_id in upper case', () => ({ customer_id: c3.id.toUpperCase() }), () => ofCustomer(c3)],
    ['customer_status=inactive', () => ({ customer_status: 'inactive' }), () => ofCustomer(c2)],
    ['customer_status=ACTIVE', () => ({ customer_status: 'ACTIVE' }), () => [...ofCustomer(c1), ...ofCustomer(c3)]],
    ['mobile, national', () => ({ mobile: '3003333333' }), () => ofCustomer(c3)],
    ['mobile, +57', () => ({ mobile: '+573001111111' }), () => ofCustomer(c1)],
    ['mobile, 57 without +', () => ({ mobile: '573002222222' }), () => ofCustomer(c2)],
    ['mobile of nobody', () => ({ mobile: '3009999999' }), () => []],
    [
      'created_at (that UTC day)',
      () => ({ created_at: createdAt(0).slice(0, 10) }),
      () => all.filter((a) => a.created_at.startsWith(createdAt(0).slice(0, 10))),
    ],
    ['created_at (a day without accounts)', () => ({ created_at: '2001-01-01' }), () => []],
    [
      'created_from (inclusive, ms)',
      () => ({ created_from: createdAt(5) }),
      () => all.filter((a) => a.created_at >= createdAt(5)),
    ],
    [
      'created_to (inclusive, ms)',
      () => ({ created_to: createdAt(5) }),
      () => all.filter((a) => a.created_at <= createdAt(5)),
    ],
    [
      'created_to to the second (the whole second)',
      () => ({ created_to: `${createdAt(5).slice(0, 19)}Z` }),
      () => all.filter((a) => a.created_at <= `${createdAt(5).slice(0, 19)}.999Z`),
    ],
    [
      'created_from and created_to',
      () => ({ created_from: createdAt(3), created_to: createdAt(9) }),
      () => between(createdAt(3), createdAt(9)),
    ],
    ['updated_from', () => ({ updated_from: createdAt(20) }), () => all.filter((a) => a.updated_at >= createdAt(20))],
    ['updated_to', () => ({ updated_to: createdAt(2) }), () => all.filter((a) => a.updated_at <= createdAt(2))],
    [
      'updated_at (that UTC day)',
      () => ({ updated_at: createdAt(22).slice(0, 10) }),
      () => all.filter((a) => a.updated_at.startsWith(createdAt(22).slice(0, 10))),
    ],
    [
      'customer_id and customer_status',
      () => ({ customer_id: c1.id, customer_status: 'active' }),
      () => ofCustomer(c1),
    ],
    ['customer_id and a status it does not have', () => ({ customer_id: c2.id, customer_status: 'active' }), () => []],
    ['customer_status and mobile', () => ({ customer_status: 'active', mobile: '3003333333' }), () => ofCustomer(c3)],
    [
      'customer_status, created range and updated_from',
      () => ({
        customer_status: 'active',
        created_from: createdAt(4),
        created_to: createdAt(18),
        updated_from: createdAt(6),
      }),
      () => between(createdAt(6), createdAt(18)).filter((a) => a.customer_id !== c2.id),
    ],
    [
      'customer_id, mobile and created_to',
      () => ({ customer_id: c1.id, mobile: '+573001111111', created_to: createdAt(12) }),
      () => ofCustomer(c1).filter((a) => a.created_at <= createdAt(12)),
    ],
  ])('%s', async (_, query, expected) => {
    for (const [orderKey, direction] of [
      ['created_at', 'asc'],
      ['updated_at', 'desc'],
    ] as const) {
      const walk = await walkAll<ListItem>(api, tokenA, '/v1/accounts', 'accounts', {
        ...query(),
        order_key: orderKey,
        order_direction: direction,
        page_size: 3,
      });
      const wanted = sortedBy(expected(), orderKey, direction);
      expect(idsOf(walk.items)).toEqual(idsOf(wanted));
      const info = walk.pages[0]!.body.pagination_info;
      expect(info.total_elements).toBe(wanted.length);
      expect(info.total_pages).toBe(Math.ceil(wanted.length / 3));
    }
  });

  it('follows status changes of the customer', async () => {
    expect((await setStatus(api, tokenA, c2.id, 'ACTIVE')).status).toBe(200);
    expect((await list({ customer_status: 'inactive' })).body.pagination_info.total_elements).toBe(0);
    expect((await list({ customer_status: 'active' })).body.pagination_info.total_elements).toBe(23);
    expect((await setStatus(api, tokenA, c1.id, 'INACTIVE')).status).toBe(200);
    const inactive = await walkAll<ListItem>(api, tokenA, '/v1/accounts', 'accounts', { customer_status: 'INACTIVE' });
    expect(idsOf(inactive.items)).toEqual(idsOf(sortedBy(ofCustomer(c1))));
    // Back to the dataset's state: C2 inactive, the others active.
    await setStatus(api, tokenA, c1.id, 'ACTIVE');
    await setStatus(api, tokenA, c2.id, 'INACTIVE');
    expect((await list({ customer_status: 'inactive' })).body.pagination_info.total_elements).toBe(7);
  });

  it("shows a client only its own accounts: another client's customer_id filters to nothing", async () => {
    const b = await list({ customer_id: c1.id }, '/v1/accounts', tokenB);
    expect(b.status).toBe(200);
    expect(b.body.accounts).toEqual([]);
    expect(b.body.pagination_info.total_elements).toBe(0);
    expect((await list({}, '/v1/accounts', await api.token('sandbox-client-readonly'))).body.accounts).toEqual([]);
  });
});

describe('bad values (400) and unknown parameters', () => {
  it.each<[string, string]>([
    ['page_size=0', 'page_size'],
    ['page_size=101', 'page_size'],
    ['page_size=ten', 'page_size'],
    ['page_size=', 'page_size'],
    ['page_number=0', 'page_number'],
    ['page_number=-2', 'page_number'],
    ['page_number=1.5', 'page_number'],
    ['page_number=2&page_number=3', 'page_number'],
    ['order_key=number', 'order_key'],
    ['order_key=CREATED_AT', 'order_key'],
    ['order_direction=ascending', 'order_direction'],
    ['created_at=2025-02-30', 'created_at'],
    ['created_at=30-01-2025', 'created_at'],
    ['created_from=2025-01-01T10:00:00', 'created_from'],
    ['created_to=2025-01-01T10:00:00%2B05:00', 'created_to'],
    ['updated_at=today', 'updated_at'],
    ['updated_from=2025-13-01', 'updated_from'],
    ['updated_to=2025-01-01T25:00:00Z', 'updated_to'],
    ['created_from=2025-02-01&created_to=2025-01-01', 'created_from'],
    ['first_request_timestamp=2999-01-01T00:00:00.000Z', 'first_request_timestamp'],
    ['first_request_timestamp=2025-01-01', 'first_request_timestamp'],
    ['first_request_timestamp=now', 'first_request_timestamp'],
    ['customer_id=42', 'customer_id'],
    ['customer_status=suspended', 'customer_status'],
    ['mobile=300-111-1111', 'mobile'],
    ['mobile=%2B5730011111', 'mobile'],
    ['limit=10', 'limit'],
    ['offset=10', 'offset'],
    ['identification_number=900123456', 'identification_number'],
  ])('%s', async (query, field) => {
    const answer = await api.request('GET', `/v1/accounts?${query}`, { token: tokenA });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field }));
  });
});

describe('walks while accounts are being created', () => {
  it('skip and repeat nothing, in both directions and both order keys, forwards and backwards', async () => {
    const numbers = accountNumbers(80);
    const customer = await linkedCustomer(api, tokenB, { numbers });
    const initial: ListItem[] = [];
    for (const number of numbers.slice(0, 30)) {
      const answer = await linkAccount(api, tokenB, customer.id, number);
      initial.push({ ...answer.body, account_number: number } as ListItem);
    }

    const combos = [
      { order_key: 'created_at', order_direction: 'asc' },
      { order_key: 'created_at', order_direction: 'desc' },
      { order_key: 'updated_at', order_direction: 'asc' },
      { order_key: 'updated_at', order_direction: 'desc' },
    ] as const;
    const pageSize = 4;
    const pages = Math.ceil(initial.length / pageSize);
    // Page 1 of every walk pins its snapshot before any new account exists.
    const walks = [];
    for (const combo of combos) {
      const first = await list({ ...combo, page_size: pageSize }, '/v1/accounts', tokenB);
      walks.push({ combo, snapshot: first.body.pagination_info.first_request_timestamp as string, pages: [first] });
    }
    const backwardFirst = await list({ page_size: pageSize }, '/accounts', tokenB);
    const backward = {
      snapshot: backwardFirst.body.pagination_info.first_request_timestamp as string,
      pages: [backwardFirst],
    };

    // Meanwhile, more accounts of the same customer keep arriving.
    let creating = true;
    let created = 0;
    const creator = (async () => {
      for (const number of numbers.slice(30)) {
        if (!creating) break;
        const answer = await linkAccount(api, tokenB, customer.id, number);
        expect(answer.status).toBe(200);
        created += 1;
      }
    })();

    for (let page = 2; page <= pages; page += 1) {
      for (const walk of walks) {
        walk.pages.push(
          await list(
            { ...walk.combo, page_size: pageSize, page_number: page, first_request_timestamp: walk.snapshot },
            '/v1/accounts',
            tokenB,
          ),
        );
      }
      backward.pages.push(
        await list(
          { page_size: pageSize, page_number: pages + 2 - page, first_request_timestamp: backward.snapshot },
          '/accounts',
          tokenB,
        ),
      );
    }
    creating = false;
    await creator;
    expect(created).toBeGreaterThan(0);

    for (const walk of walks) {
      expect(walk.pages[0]!.body.pagination_info).toMatchObject({ total_elements: 30, total_pages: pages });
      for (const answer of walk.pages) {
        expect(answer.status).toBe(200);
        // Counted at the snapshot on every page: the counter and the accounts created since are read
        // at once, and the one account being created may commit between the two reads
        // (docs/pagination.md). The pages' items never depend on it.
        expect(Math.abs(answer.body.pagination_info.total_elements - 30)).toBeLessThanOrEqual(1);
        expect(answer.body.pagination_info.first_request_timestamp).toBe(walk.snapshot);
      }
      const seen = walk.pages.flatMap((answer) => idsOf(answer.body.accounts));
      expect(seen).toEqual(idsOf(sortedBy(initial, walk.combo.order_key, walk.combo.order_direction)));
    }
    // Backwards: page 1, then pages 8, 7, ..., 2.
    const [firstPage, ...fromTheEnd] = backward.pages;
    const backwardSeen = [
      ...idsOf(firstPage!.body.accounts),
      ...fromTheEnd.reverse().flatMap((a) => idsOf(a.body.accounts)),
    ];
    expect(backwardSeen).toEqual(idsOf(sortedBy(initial)));

    // A new walk sees everything.
    const fresh = await list({ page_size: 100 }, '/v1/accounts', tokenB);
    const ofCustomerB = fresh.body.accounts.filter((a: ListItem) => a.customer_id === customer.id);
    expect(ofCustomerB).toHaveLength(30 + created);
  }, 60_000);
});
