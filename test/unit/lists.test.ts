/** The list conventions of docs/pagination.md: parameters, dates, snapshots, pagination_info, routes. */
import { AppError } from '../../shared/domain/errors';
import { firstPageRoute, routeToPage } from '../../shared/data/page-routes';
import { paginationInfo, parsePageRequest, timeSpan, type PageQuery } from '../../shared/domain/lists';
import { queryValidator } from '../../shared/http/validation';
import { accountListQuery } from '../../shared/schemas/generated/accounts';
import { customerListQuery } from '../../shared/schemas/generated/customers';

const NOW = '2025-06-15T12:00:00.000Z';

function fieldsOf(action: () => unknown): string[] {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('VALIDATION_FAILED');
    return ((error as AppError).extensions.errors ?? []).map((e) => e.field);
  }
  throw new Error('expected a validation failure');
}

describe('timeSpan', () => {
  test.each([
    ['2025-01-31', '2025-01-31T00:00:00.000Z', '2025-01-31T23:59:59.999Z'],
    ['2025-01-31T10:20:30Z', '2025-01-31T10:20:30.000Z', '2025-01-31T10:20:30.999Z'],
    ['2025-01-31T10:20:30.123Z', '2025-01-31T10:20:30.123Z', '2025-01-31T10:20:30.123Z'],
    ['2025-01-31T10:20:30.5Z', '2025-01-31T10:20:30.500Z', '2025-01-31T10:20:30.500Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z'],
  ])('%s spans %s to %s', (value, start, end) => {
    expect(timeSpan(value)).toEqual({ start, end });
  });

  test.each([
    '2025-02-30',
    '2023-02-29',
    '2025-13-01',
    '2025-01-31T24:00:00Z',
    '2025-01-31T10:60:00Z',
    '2025-01-31T10:20:30',
    '2025-01-31T10:20:30+05:00',
    '31/01/2025',
    '2025-1-31',
    '',
  ])('%j is not a date', (value) => {
    expect(timeSpan(value)).toBeUndefined();
  });
});

describe('parsePageRequest', () => {
  test('defaults: page 1 of 10, created_at ascending, a new snapshot now, no date bounds', () => {
    expect(parsePageRequest({}, NOW)).toEqual({
      pageSize: 10,
      pageNumber: 1,
      orderKey: 'created_at',
      direction: 'asc',
      snapshot: NOW,
      pinned: false,
      created: {},
      updated: {},
    });
  });

  test.each(['asc', 'ASC', 'Asc', 'desc', 'DESC', 'dEsC'])('order_direction %s in any case', (value) => {
    expect(parsePageRequest({ order_direction: value }, NOW).direction).toBe(value.toLowerCase());
  });

  test('first_request_timestamp pins the walk to that instant', () => {
    expect(parsePageRequest({ first_request_timestamp: '2025-06-15T11:59:00.250Z' }, NOW)).toMatchObject({
      snapshot: '2025-06-15T11:59:00.250Z',
      pinned: true,
    });
    expect(parsePageRequest({ first_request_timestamp: '2025-06-15T11:59:00Z' }, NOW).snapshot).toBe(
      '2025-06-15T11:59:00.000Z',
    );
    // Another host's clock a little ahead of ours is not the future.
    expect(parsePageRequest({ first_request_timestamp: '2025-06-15T12:00:30.000Z' }, NOW).snapshot).toBe(
      '2025-06-15T12:00:30.000Z',
    );
  });

  test('exact dates cover the whole day or second; ranges are inclusive; several bounds intersect', () => {
    const request = parsePageRequest(
      {
        created_at: '2025-01-31',
        updated_from: '2025-02-01T08:00:00Z',
        updated_to: '2025-02-03',
        updated_at: '2025-02-02T09:10:11Z',
      },
      NOW,
    );
    expect(request.created).toEqual({ from: '2025-01-31T00:00:00.000Z', to: '2025-01-31T23:59:59.999Z' });
    expect(request.updated).toEqual({ from: '2025-02-02T09:10:11.000Z', to: '2025-02-02T09:10:11.999Z' });
    expect(parsePageRequest({ created_from: '2025-01-01' }, NOW).created).toEqual({ from: '2025-01-01T00:00:00.000Z' });
    expect(parsePageRequest({ created_to: '2025-01-01T00:00:00.123Z' }, NOW).created).toEqual({
      to: '2025-01-01T00:00:00.123Z',
    });
  });

  test('an exact date outside a range is a valid, empty window', () => {
    expect(parsePageRequest({ created_at: '2025-01-31', created_from: '2025-02-01' }, NOW).created).toEqual({
      from: '2025-02-01T00:00:00.000Z',
      to: '2025-01-31T23:59:59.999Z',
    });
  });

  test.each<[string, PageQuery, string[]]>([
    ['page_size 0', { page_size: 0 }, ['page_size']],
    ['page_size 101', { page_size: 101 }, ['page_size']],
    ['page_size 2.5', { page_size: 2.5 }, ['page_size']],
    ['page_number 0', { page_number: 0 }, ['page_number']],
    ['order_key name', { order_key: 'name' as never }, ['order_key']],
    ['order_direction up', { order_direction: 'up' }, ['order_direction']],
    ['an impossible date', { created_at: '2025-02-30' }, ['created_at']],
    ['a date in another format', { updated_from: '01/02/2025' }, ['updated_from']],
    ['from after to', { created_from: '2025-02-02', created_to: '2025-02-01' }, ['created_from']],
    ['a snapshot in the future', { first_request_timestamp: '2025-06-15T12:05:00.000Z' }, ['first_request_timestamp']],
    ['a snapshot that is a date', { first_request_timestamp: '2025-06-15' }, ['first_request_timestamp']],
    [
      'several at once',
      { page_size: 0, updated_to: 'yesterday', order_direction: 'sideways' },
      ['page_size', 'order_direction', 'updated_to'],
    ],
  ])('rejects %s, naming the parameter', (_, query, fields) => {
    expect(fieldsOf(() => parsePageRequest(query, NOW)).sort()).toEqual([...fields].sort());
  });
});

describe('paginationInfo', () => {
  const request = (pageSize: number, pageNumber: number) =>
    parsePageRequest({ page_size: pageSize, page_number: pageNumber }, NOW);

  test.each([
    [0, 10, 1, 0],
    [1, 10, 1, 1],
    [10, 10, 1, 1],
    [11, 10, 1, 2],
    [1000, 10, 100, 100],
    [1001, 10, 7, 101],
  ])('%d items in pages of %d: page %d of %d', (total, size, page, pages) => {
    expect(paginationInfo(request(size, page), total)).toEqual({
      total_elements: total,
      total_pages: pages,
      current_page: page,
      first_request_timestamp: NOW,
    });
  });
});

describe('routeToPage', () => {
  test('a page past the end, or of an empty list, has no route', () => {
    expect(routeToPage({ page: 11, pageSize: 10, total: 100 })).toBeUndefined();
    expect(routeToPage({ page: 1, pageSize: 10, total: 0 })).toBeUndefined();
  });

  test('page 1 is read from the start', () => {
    expect(routeToPage({ page: 1, pageSize: 10, total: 1000 })).toEqual({
      anchor: { kind: 'start' },
      skip: 0,
      take: 10,
      backward: false,
      firstOffset: 0,
    });
  });

  test('a page comes from the nearer end of the walk', () => {
    expect(routeToPage({ page: 50, pageSize: 10, total: 1000 })).toMatchObject({
      anchor: { kind: 'start' },
      skip: 490,
    });
    expect(routeToPage({ page: 51, pageSize: 10, total: 1000 })).toMatchObject({ anchor: { kind: 'end' }, skip: 490 });
    expect(routeToPage({ page: 100, pageSize: 10, total: 1000 })).toEqual({
      anchor: { kind: 'end' },
      skip: 0,
      take: 10,
      backward: true,
      firstOffset: 999,
    });
  });

  test('the last page may be short', () => {
    expect(routeToPage({ page: 101, pageSize: 10, total: 1003 })).toMatchObject({
      anchor: { kind: 'end' },
      skip: 0,
      take: 3,
    });
    expect(routeToPage({ page: 100, pageSize: 10, total: 1003 })).toMatchObject({ anchor: { kind: 'end' }, skip: 3 });
  });
});

describe('page 1 before its total', () => {
  test.each([1, 3, 10, 11, 1000])(
    'is the route routeToPage takes with a total of %i, but for what is there',
    (total) => {
      const counted = routeToPage({ page: 1, pageSize: 10, total });
      expect(counted).toEqual({ ...firstPageRoute(10), take: Math.min(10, total) });
    },
  );
});

describe('list query schemas', () => {
  const accounts = queryValidator<Record<string, unknown>>(accountListQuery);
  const customers = queryValidator<Record<string, unknown>>(customerListQuery);

  test('numbers are coerced from the query string', () => {
    expect(accounts({ page_size: '25', page_number: '3' })).toEqual({ page_size: 25, page_number: 3 });
  });

  test('every list parameter of the contract is accepted', () => {
    const query = {
      page_size: '10',
      page_number: '1',
      order_key: 'updated_at',
      order_direction: 'DESC',
      created_at: '2025-01-01',
      created_from: '2025-01-01T00:00:00Z',
      created_to: '2025-01-02T00:00:00.000Z',
      updated_at: '2025-01-01',
      updated_from: '2025-01-01',
      updated_to: '2025-01-02',
      customer_id: '3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11',
      customer_status: 'inactive',
      mobile: '+573001234567',
      first_request_timestamp: '2025-01-02T00:00:00.000Z',
    };
    expect(() => accounts({ ...query })).not.toThrow();
    const { customer_id: _id, ...customerQuery } = query;
    expect(() => customers({ ...customerQuery, identification_number: '900123456' })).not.toThrow();
  });

  test.each<[string, Record<string, string>, string]>([
    ['page_size abc', { page_size: 'abc' }, 'page_size'],
    ['page_size 0', { page_size: '0' }, 'page_size'],
    ['page_size 101', { page_size: '101' }, 'page_size'],
    ['page_number -1', { page_number: '-1' }, 'page_number'],
    ['page_number 1.5', { page_number: '1.5' }, 'page_number'],
    ['order_key id', { order_key: 'id' }, 'order_key'],
    ['order_direction random', { order_direction: 'random' }, 'order_direction'],
    ['created_at with a time zone', { created_at: '2025-01-01T10:00:00+05:00' }, 'created_at'],
    ['updated_to as text', { updated_to: 'today' }, 'updated_to'],
    ['customer_id not a UUID', { customer_id: '42' }, 'customer_id'],
    ['customer_status BLOCKED', { customer_status: 'BLOCKED' }, 'customer_status'],
    ['mobile with letters', { mobile: '300-123-4567' }, 'mobile'],
    ['an unknown parameter', { sort: 'created_at' }, 'sort'],
    ['identification_number on accounts', { identification_number: '900123456' }, 'identification_number'],
  ])('accounts: %s is 400 on that parameter', (_, query, field) => {
    expect(fieldsOf(() => accounts(query))).toContain(field);
  });

  test('customers take identification_number (9 digits) but not customer_id', () => {
    expect(fieldsOf(() => customers({ identification_number: '12345' }))).toContain('identification_number');
    expect(fieldsOf(() => customers({ customer_id: '3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11' }))).toContain('customer_id');
  });
});
