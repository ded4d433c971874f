/**
 * A big client's lists split in shards (shared/data/list-shards.ts), against DynamoDB Local: items
 * placed by the layout of their creation, and every page, total, snapshot, filter and join of a
 * sharded list exactly what the same list unsharded answers, in both orders and both directions.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../../shared/domain/lists';
import { ENV } from '../../shared/runtime/config';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { ids, ordered, pageRequest } from '../support/page-requests';
import { insertWidgets, type Widget } from '../support/widgets';

let table: TestTable;
let pagination: typeof import('../../shared/data/pagination');
let keys: typeof import('../../shared/data/item-keys');
let inserts: typeof import('../../shared/data/inserts');
let shards: typeof import('../../shared/data/list-shards');

// A collection a layout may shard; the items are test items, not payments.
const COLLECTION = 'PAYMENT';
const BASE = Date.parse('2025-03-01T00:00:00.000Z');
const at = (second: number): string => new Date(BASE + second * 1000).toISOString();
const SHARDS = 4;
/** The layout starts at second 30: the items before it stay in shard 0, as on a stage that adds it. */
const FROM = 30;
const tenant = `t-${randomUUID()}`;

beforeAll(async () => {
  table = await createTestTable('sharded-lists');
  process.env[ENV.listShards] = JSON.stringify({ [tenant]: [{ from: at(FROM), shards: { [COLLECTION]: SHARDS } }] });
  pagination = await import('../../shared/data/pagination');
  keys = await import('../../shared/data/item-keys');
  inserts = await import('../../shared/data/inserts');
  shards = await import('../../shared/data/list-shards');
});
afterAll(async () => {
  delete process.env[ENV.listShards];
  await table.drop();
});

/** Inserted as repositories insert: the item in its shard and its lists' counters, in one transaction. */
const insert = (widgets: readonly Widget[]): Promise<void> =>
  insertWidgets(table.tableName, tenant, COLLECTION, widgets);

function widgets(count: number, fromSecond: number, scope?: string): Widget[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    created_at: at(fromSecond + i),
    updated_at: at(fromSecond + i),
    color: ['red', 'green', 'blue'][i % 3]!,
    ...(scope ? { scope } : {}),
  }));
}

const request = (overrides: Partial<PageRequest> = {}): PageRequest => pageRequest({ pageSize: 7, ...overrides });

const source = (scope?: string) => ({ tenant, collection: COLLECTION, ...(scope ? { scope } : {}) });

let all: Widget[];
let scoped: Widget[];
/** The collection's items: the scope's are in it too. */
const members = (): Widget[] => [...all, ...scoped];

beforeAll(async () => {
  all = widgets(60, 0);
  scoped = widgets(20, 20, 'CUSTOMER#c1');
  await insert([...all, ...scoped]);
  // Every fifth item updated later: the lists by update order them apart from their creation.
  for (const [i, widget] of [...all, ...scoped].entries()) {
    if (i % 5 !== 0) continue;
    widget.updated_at = at(200 + ((i * 7) % 40));
    await table.documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { pk: `WIDGET#${widget.id}`, sk: 'WIDGET' },
        UpdateExpression: 'SET updated_at = :u, gsi2sk = :s, gsi4sk = :s',
        ExpressionAttributeValues: { ':u': widget.updated_at, ':s': `${widget.updated_at}#${widget.id}` },
      }),
    );
  }
});

test('items keep the shard of their creation: before the layout, the bare partition; after it, spread by id', async () => {
  const stored = await table.scan((item) => item['entity'] === 'WIDGET' && item['scope'] === undefined);
  const partitionOf = new Map(stored.map((item) => [String(item['id']), String(item['gsi1pk'])]));
  const bare = keys.collectionPartition(tenant, COLLECTION);
  expect(all.slice(0, FROM).every((w) => partitionOf.get(w.id) === bare)).toBe(true);
  const later = new Set(all.slice(FROM).map((w) => partitionOf.get(w.id)));
  expect(later.size).toBeGreaterThanOrEqual(3);
  for (const partition of later) expect(partition).toMatch(new RegExp(`^${bare}(~[1-${SHARDS - 1}])?$`));
  // An update or a delete finds the same partitions again: the id and creation decide them.
  for (const w of all) {
    expect(inserts.listPartitions({ tenant, ...w }, { collection: COLLECTION, scope: undefined })).toEqual([
      partitionOf.get(w.id),
    ]);
  }
});

test('every page of every walk, in both orders and both directions, is the unsharded walk', async () => {
  for (const orderKey of ['created_at', 'updated_at'] as const) {
    for (const direction of ['asc', 'desc'] as const) {
      const expected = ordered(members(), orderKey, direction === 'desc');
      const base = request({ orderKey, direction });
      const pages = Math.ceil(expected.length / 7);
      // Page 1 of a new walk, then the others in a jumbled order: some are nearer the end.
      const first = await pagination.listPage({ source: source(), filters: [], request: base });
      expect(first.total).toBe(80);
      expect(ids(first.items)).toEqual(expected.slice(0, 7));
      // A query a shard (shard 0 again where it holds the items from before the layout) and one
      // BatchGetItem of every shard's counter, at once.
      expect(first.cost.readCalls).toBeLessThanOrEqual(SHARDS + 2);
      expect(first.cost.rounds).toBeLessThanOrEqual(2);
      for (const pageNumber of [pages, 5, 2, pages - 1, 4, 3, 6, 8]) {
        const page = await pagination.listPage({
          source: source(),
          filters: [],
          request: { ...base, pageNumber, pinned: true },
        });
        expect([page.total, ids(page.items)]).toEqual([80, expected.slice((pageNumber - 1) * 7, pageNumber * 7)]);
      }
    }
  }
});

test("a sharded scope's pages and total are its own", async () => {
  const expected = ordered(scoped, 'created_at', true);
  const [first, second] = [1, 2].map((pageNumber) =>
    pagination.listPage({
      source: source('CUSTOMER#c1'),
      filters: [],
      request: request({ direction: 'desc', pageNumber, pinned: pageNumber > 1, snapshot: at(1000) }),
    }),
  );
  expect([(await first)!.total, ids((await first)!.items)]).toEqual([20, expected.slice(0, 7)]);
  expect(ids((await second)!.items)).toEqual(expected.slice(7, 14));
});

test('a walk pinned to its snapshot keeps its total and pages while items are added to every shard', async () => {
  const base = request({ snapshot: at(500), pinned: true, direction: 'desc' });
  const before = await pagination.listPage({ source: source(), filters: [], request: { ...base, pageNumber: 3 } });
  const added = widgets(12, 1000);
  await insert(added);
  try {
    const after = await pagination.listPage({ source: source(), filters: [], request: { ...base, pageNumber: 3 } });
    expect([after.total, after.totalFrom]).toEqual([80, 'counter-at-snapshot']);
    expect(ids(after.items)).toEqual(ids(before.items));
    expect(ids(after.items)).toEqual(ordered(members(), 'created_at', true).slice(14, 21));
    const fresh = await pagination.listPage({ source: source(), filters: [], request: request() });
    expect(fresh.total).toBe(92);
  } finally {
    all.push(...added);
  }
});

test('filters and date ranges count and read across the shards', async () => {
  const green = members().filter((w) => w.color === 'green');
  const filters = [{ kind: 'equals' as const, attribute: 'color', value: 'green' }];
  for (const pageNumber of [1, 2, 3]) {
    const page = await pagination.listPage({
      source: source(),
      filters,
      request: request({ pageNumber, pinned: pageNumber > 1, pageSize: 5 }),
    });
    expect([page.total, page.totalFrom]).toEqual([green.length, 'filtered-count']);
    expect(ids(page.items)).toEqual(ordered(green, 'created_at', false).slice((pageNumber - 1) * 5, pageNumber * 5));
  }
  const ranged = await pagination.listPage({
    source: source(),
    filters: [],
    request: request({ created: { from: at(25), to: at(44) }, pageNumber: 2, pinned: true }),
  });
  const inRange = members().filter((w) => w.created_at >= at(25) && w.created_at <= at(44));
  expect([ranged.total, ranged.totalFrom]).toEqual([inRange.length, 'keys-count']);
  expect(ids(ranged.items)).toEqual(ordered(inRange, 'created_at', false).slice(7, 14));
});

test("a joined list reads every shard's page, then its counters and joined items in one batch", async () => {
  for (const w of members()) {
    await table.documents.send(
      new PutCommand({ TableName: table.tableName, Item: { pk: `WIDGET#${w.id}`, sk: 'EXTRA', extra: `x-${w.id}` } }),
    );
  }
  const join = {
    sk: 'EXTRA',
    merge: (item: Record<string, unknown>, extra: Record<string, unknown> | undefined) => ({
      ...item,
      extra: extra?.['extra'],
    }),
  };
  const expected = ordered(members(), 'created_at', true);
  const first = await pagination.listPage({
    source: source(),
    filters: [],
    request: request({ direction: 'desc' }),
    join,
  });
  expect([first.total, ids(first.items)]).toEqual([members().length, expected.slice(0, 7)]);
  expect(first.cost.readCalls).toBeLessThanOrEqual(SHARDS + 2);
  expect(first.items.map((item) => item['extra'])).toEqual(expected.slice(0, 7).map((id) => `x-${id}`));
  const third = await pagination.listPage({
    source: source(),
    filters: [],
    request: request({ direction: 'desc', pageNumber: 3, pinned: true }),
    join,
  });
  expect(ids(third.items)).toEqual(expected.slice(14, 21));
  expect(third.items.map((item) => item['extra'])).toEqual(expected.slice(14, 21).map((id) => `x-${id}`));
});

test('a walk read in order (the report worker’s) reads every item once, in order', async () => {
  const read: string[] = [];
  let after: Record<string, unknown> | undefined;
  do {
    const page = await pagination.walkPage({ source: source(), filters: [], request: request({ pageSize: 9 }) }, after);
    read.push(...ids(page.items));
    after = page.next;
  } while (after);
  expect(read).toEqual(ordered(members(), 'created_at', false));
});

test('a client without a layout reads one partition: page 1 is two calls', async () => {
  const other = `t-${randomUUID()}`;
  const page = await pagination.listPage({
    source: { tenant: other, collection: COLLECTION },
    filters: [],
    request: request(),
  });
  expect([page.total, page.cost.readCalls]).toEqual([0, 2]);
  expect(shards.shardsRead(other, COLLECTION)).toBe(1);
});

test('settings that would misplace items are refused', () => {
  const bad = [
    '[]',
    '{"c":{}}',
    '{"c":[{"shards":{"PAYMENT":4}}]}',
    '{"c":[{"from":"2026-12-01","shards":{"PAYMENT":4}}]}',
    '{"c":[{"from":"2026-12-01T00:00:00Z","shards":{"PAYMENT":4}}]}',
    '{"c":[{"from":"2026-12-01T00:00:00.000Z"}]}',
    '{"c":[{"from":"2026-12-01T00:00:00.000Z","shards":{"CUSTOMER":4}}]}',
    '{"c":[{"from":"2026-12-01T00:00:00.000Z","shards":{"PAYMENT":0}}]}',
    `{"c":[{"from":"2026-12-01T00:00:00.000Z","shards":{"PAYMENT":${shards.MAX_LIST_SHARDS + 1}}}]}`,
    '{"c":[{"from":"2026-12-01T00:00:00.000Z","shards":{"PAYMENT":4}},{"from":"2026-11-01T00:00:00.000Z","shards":{"PAYMENT":8}}]}',
  ];
  for (const text of bad) expect(() => shards.parseListShards(text)).toThrow(/LIST_SHARDS/);
  expect(shards.parseListShards(undefined)).toEqual({});
  const good = { c: [{ from: '2026-12-01T00:00:00.000Z', shards: { PAYMENT: 4 } }] };
  expect(shards.parseListShards(JSON.stringify(good))).toEqual(good);
});
