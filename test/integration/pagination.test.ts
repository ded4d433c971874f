/**
 * The shared pagination module against DynamoDB Local, on a collection of test items with chosen
 * timestamps: totals, walks in both directions and both orders, jumps, filters, snapshots and the
 * cost of each page (from DynamoDB's ConsumedCapacity). No page writes anything: ListCost has no
 * write to count.
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../../shared/domain/lists';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { ids, ordered, pageRequest } from '../support/page-requests';
import { insertWidgets, type Widget } from '../support/widgets';

let table: TestTable;
let pagination: typeof import('../../shared/data/pagination');

beforeAll(async () => {
  table = await createTestTable('pagination');
  pagination = await import('../../shared/data/pagination');
});
afterAll(() => table.drop());

const COLLECTION = 'WIDGET';
const BASE = Date.parse('2025-03-01T00:00:00.000Z');
const at = (second: number): string => new Date(BASE + second * 1000).toISOString();

/** Inserts widgets the way repositories insert entities: the item and its counters in one transaction. */
const insert = (tenant: string, widgets: readonly Widget[]): Promise<void> =>
  insertWidgets(table.tableName, tenant, COLLECTION, widgets);

/** `count` widgets created one second apart from `fromSecond`, colored red, green, blue in turn. */
function widgets(count: number, fromSecond = 0, extra: Partial<Widget> = {}): Widget[] {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    created_at: at(fromSecond + i),
    updated_at: at(fromSecond + i),
    color: ['red', 'green', 'blue'][i % 3]!,
    ...extra,
  }));
}

async function touch(tenant: string, widget: Widget, updatedAt: string): Promise<void> {
  await table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: { pk: `WIDGET#${widget.id}`, sk: 'WIDGET' },
      UpdateExpression: 'SET updated_at = :u, gsi2sk = :s',
      ExpressionAttributeValues: { ':u': updatedAt, ':s': `${updatedAt}#${widget.id}` },
    }),
  );
}

const request = (overrides: Partial<PageRequest> = {}): PageRequest => pageRequest(overrides);

type Source = import('../../shared/data/pagination').ListSource;
type Filter = import('../../shared/data/pagination').FilterClause;

/** Every page of a walk, pages in the order given; answers the pages and what each cost. */
async function walk(source: Source, base: PageRequest, pages: readonly number[], filters: readonly Filter[] = []) {
  const answers = [];
  for (const [i, pageNumber] of pages.entries()) {
    answers.push(
      await pagination.listPage({ source, filters, request: { ...base, pageNumber, pinned: base.pinned || i > 0 } }),
    );
  }
  return answers;
}

/** Every page of a walk read in order (walkPage), each from where the last ended. */
async function readInOrder(input: import('../../shared/data/pagination').ListPageInput) {
  const pages = [];
  let after: Record<string, unknown> | undefined;
  do {
    const page = await pagination.walkPage(input, after);
    pages.push(page);
    after = page.next;
  } while (after);
  return pages;
}

const range = (from: number, to: number): number[] =>
  from <= to ? Array.from({ length: to - from + 1 }, (_, i) => from + i) : range(to, from).reverse();

describe('totals', () => {
  test('of page 1 of a new walk are the counter as it is: the counter and the page, two calls', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(25);
    await insert(tenant, all);
    const page = await pagination.listPage({
      source: { tenant, collection: COLLECTION },
      filters: [],
      request: request(),
    });
    expect([page.total, page.totalFrom, page.cost.readCalls, page.cost.rounds]).toEqual([25, 'counter', 2, 1]);
    expect(ids(page.items)).toEqual(ordered(all.slice(0, 10)));
  });

  test('of a walk pinned to a snapshot come from the counters, less the items created after it', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(25);
    await insert(tenant, all);
    const page = await pagination.listPage({
      source: { tenant, collection: COLLECTION },
      filters: [],
      request: request({ snapshot: all[9]!.created_at, pinned: true }),
    });
    expect([page.total, page.totalFrom]).toEqual([10, 'counter-at-snapshot']);
    expect(ids(page.items)).toEqual(ordered(all.slice(0, 10)));
    // Counter shards, the items after the snapshot, the page: read at once.
    expect([page.cost.readCalls, page.cost.rounds]).toEqual([3, 1]);
  });

  test('of a scope come from its own counter', async () => {
    const tenant = `t-${randomUUID()}`;
    await insert(tenant, [...widgets(7, 0, { scope: 'OWNER#a' }), ...widgets(5, 100, { scope: 'OWNER#b' })]);
    const page = await pagination.listPage({
      source: { tenant, collection: COLLECTION, scope: 'OWNER#b' },
      filters: [],
      request: request(),
    });
    expect([page.total, page.totalFrom, page.items.length]).toEqual([5, 'counter', 5]);
  });

  test('of a date range on the order key are a keys-only count', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(30);
    await insert(tenant, all);
    const page = await pagination.listPage({
      source: { tenant, collection: COLLECTION },
      filters: [],
      request: request({ created: { from: at(5), to: at(16) } }),
    });
    expect([page.total, page.totalFrom]).toEqual([12, 'keys-count']);
    expect(ids(page.items)).toEqual(ordered(all.slice(5, 15)));
  });

  test('with a filter are a filtered count, on every page of the walk', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(30);
    await insert(tenant, all);
    const filters: Filter[] = [{ kind: 'equals', attribute: 'color', value: 'green' }];
    const [first, second] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 4 }), [1, 2], filters);
    expect([first!.total, first!.totalFrom]).toEqual([10, 'filtered-count']);
    expect([second!.total, second!.totalFrom]).toEqual([10, 'filtered-count']);
    // A later page keeps its items from the count's read of the walk: no read, no round, of its own.
    expect([second!.cost.readCalls, second!.cost.rounds]).toEqual([1, 1]);
    const greens = all.filter((w) => w.color === 'green');
    expect(ids([...first!.items, ...second!.items])).toEqual(ordered(greens.slice(0, 8)));
  });

  test('an empty date range (from after to) reads nothing', async () => {
    const page = await pagination.listPage({
      source: { tenant: `t-${randomUUID()}`, collection: COLLECTION },
      filters: [],
      request: request({ created: { from: at(10), to: at(5) } }),
    });
    expect(page).toMatchObject({ items: [], total: 0, totalFrom: 'empty-range' });
    expect(page.cost.readCalls).toBe(0);
  });
});

describe('walks', () => {
  let tenant: string;
  let all: Widget[];
  beforeAll(async () => {
    tenant = `t-${randomUUID()}`;
    // 53 widgets: the last page of 10 holds 3. Updated in another order than created.
    all = widgets(53).map((w, i) => ({ ...w, updated_at: at(1000 + ((i * 17) % 53)) }));
    await insert(tenant, all);
  });

  test.each([
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['updated_at', 'asc'],
    ['updated_at', 'desc'],
  ] as const)(
    'ordered by %s %s, pages 1 to 6 hold every item once, each from the nearer end of the walk',
    async (orderKey, direction) => {
      const answers = await walk({ tenant, collection: COLLECTION }, request({ orderKey, direction }), range(1, 6));
      expect(answers.map((a) => a.items.length)).toEqual([10, 10, 10, 10, 10, 3]);
      expect(answers.flatMap((a) => ids(a.items))).toEqual(ordered(all, orderKey, direction === 'desc'));
      expect(answers.map((a) => [a.route?.anchor.kind, a.route?.skip])).toEqual([
        ['start', 0],
        ['start', 10],
        ['start', 20],
        ['end', 13],
        ['end', 3],
        ['end', 0],
      ]);
      for (const answer of answers.slice(1)) {
        // The counter and the items after the snapshot at once, the keys stepped over (if any), the page.
        expect(answer.cost.readCalls).toBe(answer.route!.skip > 0 ? 4 : 3);
        expect(answer.cost.rounds).toBe(answer.route!.skip > 0 ? 3 : 2);
        expect(answer.totalFrom).toBe('counter-at-snapshot');
      }
    },
  );

  test('walked backwards from the last page, pages hold every item once, each from the page after it', async () => {
    const answers = await walk({ tenant, collection: COLLECTION }, request({ direction: 'desc' }), range(6, 1));
    expect(answers[0]!.route).toMatchObject({ anchor: { kind: 'end' }, skip: 0, take: 3 });
    expect(answers.at(-1)!.route).toMatchObject({ anchor: { kind: 'start' }, skip: 0 });
    expect(answers.reverse().flatMap((a) => ids(a.items))).toEqual(ordered(all, 'created_at', true));
  });

  test('page 1 of a list of one page: counter and page; asked again in its walk, counted at its snapshot', async () => {
    const few = `t-${randomUUID()}`;
    await insert(few, widgets(4));
    const [first, again] = await walk({ tenant: few, collection: COLLECTION }, request(), [1, 1]);
    expect([first!.total, first!.items.length, first!.cost.readCalls]).toEqual([4, 4, 2]);
    // The same snapshot: the same total and items.
    expect([again!.total, again!.totalFrom, again!.cost.readCalls, again!.cost.rounds]).toEqual([
      4,
      'counter-at-snapshot',
      3,
      1,
    ]);
    expect(ids(again!.items)).toEqual(ids(first!.items));
  });

  test('page 1 of an empty list reads its counter and its empty page', async () => {
    const [empty] = await walk({ tenant: `t-${randomUUID()}`, collection: COLLECTION }, request(), [1]);
    expect([empty!.items, empty!.total, empty!.cost.readCalls]).toEqual([[], 0, 2]);
  });

  test.each([
    ['no filter', request(), []],
    ['no filter, newest first by update', request({ orderKey: 'updated_at', direction: 'desc' }), []],
    ['a date range on the order key', request({ created: { from: at(5) } }), []],
    ['a date range on the other timestamp', request({ updated: { from: at(1005) } }), []],
    ['a filter', request({ pageSize: 3 }), [{ kind: 'equals', attribute: 'color', value: 'red' }]],
  ] as const)(
    'with %s, page 1 takes at most 2 rounds and every later page at most 3, joined or not',
    async (_, base, filters) => {
      const join = { sk: 'EXTRA', merge: (item: Record<string, unknown>) => item };
      for (const joined of [undefined, join]) {
        const [first] = await walk({ tenant, collection: COLLECTION }, base, [1], filters);
        const pages = Math.ceil(first!.total / base.pageSize);
        for (const pageNumber of range(1, pages)) {
          const page = await pagination.listPage({
            source: { tenant, collection: COLLECTION },
            filters,
            request: { ...base, pageNumber, pinned: pageNumber > 1 },
            ...(joined ? { join: joined } : {}),
          });
          expect(page.items.length).toBeGreaterThan(0);
          expect(page.cost.rounds).toBeLessThanOrEqual(pageNumber === 1 ? 2 : 3);
        }
      }
    },
  );

  test('a page asked again holds the same items', async () => {
    const [, second, again] = await walk({ tenant, collection: COLLECTION }, request(), [1, 2, 2]);
    expect(ids(again!.items)).toEqual(ids(second!.items));
  });

  test('a page past the end is empty with the true total, counted again on every page', async () => {
    const [past, again] = await walk({ tenant, collection: COLLECTION }, request(), [9, 12]);
    expect([past!.items, past!.total, past!.route]).toEqual([[], 53, undefined]);
    expect([again!.total, again!.totalFrom]).toEqual([53, 'counter-at-snapshot']);
  });

  test.each([
    ['created_at', 'asc'],
    ['created_at', 'desc'],
    ['updated_at', 'asc'],
    ['updated_at', 'desc'],
  ] as const)(
    'read in order by %s %s, each page from where the last ended: every item once, one call a page, none stepped over',
    async (orderKey, direction) => {
      const pages = await readInOrder({
        source: { tenant, collection: COLLECTION },
        filters: [],
        request: request({ orderKey, direction }),
      });
      // Five full pages and the last of 3; a full page says where the walk goes on, the last does not.
      expect(pages.map((page) => [page.items.length, page.next !== undefined])).toEqual([
        ...Array.from({ length: 5 }, () => [10, true]),
        [3, false],
      ]);
      expect(pages.flatMap((page) => ids(page.items))).toEqual(ordered(all, orderKey, direction === 'desc'));
      expect(pages.map((page) => page.cost.readCalls)).toEqual([1, 1, 1, 1, 1, 1]);
    },
  );

  test('read in order with a filter, pages hold the matching items once; what came after the snapshot is out', async () => {
    const own = `t-${randomUUID()}`;
    const before = widgets(30);
    await insert(own, [...before, ...widgets(5, 5000).map((w) => ({ ...w, color: 'red' }))]);
    const snapshot = at(4000);
    const pages = await readInOrder({
      source: { tenant: own, collection: COLLECTION },
      filters: [{ kind: 'equals', attribute: 'color', value: 'red' }],
      request: request({ pageSize: 4, snapshot }),
    });
    expect(pages.flatMap((page) => ids(page.items))).toEqual(ordered(before.filter((w) => w.color === 'red')));
  });

  test('page sizes of 1 and 100 walk the same items', async () => {
    const ones = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 1 }), range(1, 53));
    expect(ones.flatMap((a) => ids(a.items))).toEqual(ordered(all));
    const [hundred] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 100 }), [1]);
    expect(ids(hundred!.items)).toEqual(ordered(all));
  });
});

describe('jumps', () => {
  let tenant: string;
  let all: Widget[];
  beforeAll(async () => {
    tenant = `t-${randomUUID()}`;
    all = widgets(300);
    await insert(tenant, all);
  });

  test('a cold jump steps over the pages before it on the keys-only index, from the nearer end', async () => {
    const base = request({ pageSize: 5 });
    const [middle] = await walk({ tenant, collection: COLLECTION }, base, [27]);
    expect(middle!.route).toMatchObject({ anchor: { kind: 'start' }, skip: 130, take: 5 });
    expect(ids(middle!.items)).toEqual(ordered(all).slice(130, 135));

    const [nearEnd] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 5 }), [55]);
    expect(nearEnd!.route).toMatchObject({ anchor: { kind: 'end' }, skip: 25, backward: true });
    expect(ids(nearEnd!.items)).toEqual(ordered(all).slice(270, 275));
  });

  test('a cold jump costs a fraction of reading the items it steps over', async () => {
    const [jump] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 10 }), [15]);
    const [first] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 10 }), [1]);
    // 140 items stepped over: reading them whole would cost 14 pages.
    expect(jump!.cost.readCapacity).toBeLessThan(first!.cost.readCapacity * 7);
  });

  test('a jump farther than the step limit from both ends is refused; a date range narrowing the list gets there', async () => {
    const source = { tenant, collection: COLLECTION };
    const base = request({ pageSize: 5 });
    await expect(
      pagination.listPage({ source, filters: [], request: { ...base, pageNumber: 20 }, maxStep: 50 }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      extensions: { errors: [expect.objectContaining({ field: 'page_number' })] },
    });
    // From the 51st widget on, the same widgets are page 10: 45 items from the start.
    const there = await pagination.listPage({
      source,
      filters: [],
      request: { ...base, pageNumber: 10, created: { from: at(50) } },
      maxStep: 50,
    });
    expect(there.route).toMatchObject({ anchor: { kind: 'start' }, skip: 45 });
    // The date range counted on the keys, the keys stepped over, the page.
    expect(there.cost.rounds).toBe(3);
    expect(ids(there.items)).toEqual(ordered(all).slice(95, 100));
  });
});

describe('lists under a parent record', () => {
  let tenant: string;
  let parentKey: { pk: string; sk: string };
  let all: Widget[];
  const scope = 'BOX#1';
  beforeAll(async () => {
    tenant = `t-${randomUUID()}`;
    parentKey = { pk: `BOX#${randomUUID()}`, sk: 'BOX' };
    await table.documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: parentKey,
        UpdateExpression: 'SET tenant = :t, entity = :e',
        ExpressionAttributeValues: { ':t': tenant, ':e': 'BOX' },
      }),
    );
    all = widgets(30, 0, { scope });
    await insert(tenant, all);
  });
  const source = () => ({ tenant, collection: COLLECTION, scope });

  test("page 1 reads the parent in the counter's call: two calls in all, the parent answered", async () => {
    const page = await pagination.listPage({
      source: source(),
      filters: [],
      request: request({ pageSize: 5 }),
      parent: { key: parentKey, tenant },
    });
    expect(page.cost.readCalls).toBe(2);
    expect(page.parent).toMatchObject({ ...parentKey, tenant });
    expect(page.total).toBe(30);
    expect(ids(page.items)).toEqual(ordered(all).slice(0, 5));
  });

  test('a later page and a filtered page read the parent too', async () => {
    const later = await pagination.listPage({
      source: source(),
      filters: [],
      request: request({ pageSize: 5, pageNumber: 3, pinned: true }),
      parent: { key: parentKey, tenant },
    });
    expect(later.parent).toMatchObject({ tenant });
    expect(ids(later.items)).toEqual(ordered(all).slice(10, 15));
    // The parent with the counter's shards, beside the items after the snapshot; the keys; the page.
    expect(later.cost.rounds).toBe(3);
    const filtered = await pagination.listPage({
      source: source(),
      filters: [{ kind: 'equals', attribute: 'color', value: 'red' }],
      request: request({ pageSize: 5 }),
      parent: { key: parentKey, tenant },
    });
    expect(filtered.parent).toMatchObject({ tenant });
    expect(filtered.total).toBe(10);
    expect(filtered.cost.rounds).toBe(1);
  });

  test("another tenant's parent, or none, gives an empty page, even past the step limit (nothing told of the list)", async () => {
    for (const parent of [
      { key: parentKey, tenant: `t-${randomUUID()}` },
      { key: { pk: `BOX#${randomUUID()}`, sk: 'BOX' }, tenant },
    ]) {
      const page = await pagination.listPage({
        source: source(),
        filters: [],
        request: request({ pageSize: 1, pageNumber: 15, pinned: true }),
        parent,
        maxStep: 5,
      });
      expect(page).toMatchObject({ items: [], total: 0 });
    }
    // The same page asked with the parent the tenant owns is refused: the step limit.
    await expect(
      pagination.listPage({
        source: source(),
        filters: [],
        request: request({ pageSize: 1, pageNumber: 15, pinned: true }),
        parent: { key: parentKey, tenant },
        maxStep: 5,
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('lists joined to another item of each listed item', () => {
  let tenant: string;
  let all: Widget[];
  const join = {
    sk: 'EXTRA',
    merge: (item: Record<string, unknown>, extra: Record<string, unknown> | undefined) =>
      extra ? { ...item, extra: extra['extra'] } : item,
  };
  beforeAll(async () => {
    tenant = `t-${randomUUID()}`;
    all = widgets(40);
    await insert(tenant, all);
    // Every widget but the first has its extra item; the first reads as it is.
    for (const w of all.slice(1)) {
      await table.documents.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: { pk: `WIDGET#${w.id}`, sk: 'EXTRA' },
          UpdateExpression: 'SET extra = :e',
          ExpressionAttributeValues: { ':e': `x-${w.id}` },
        }),
      );
    }
  });
  const source = () => ({ tenant, collection: COLLECTION });
  const extras = (items: readonly Record<string, unknown>[]) => items.map((item) => item['extra']);

  test("page 1 of a new walk: the page, then the counter's shards and the joined items in one call", async () => {
    const page = await pagination.listPage({ source: source(), filters: [], request: request({ pageSize: 5 }), join });
    expect([page.cost.readCalls, page.cost.rounds]).toEqual([2, 2]);
    expect(page.total).toBe(40);
    expect(ids(page.items)).toEqual(ordered(all).slice(0, 5));
    expect(extras(page.items)).toEqual([undefined, ...all.slice(1, 5).map((w) => `x-${w.id}`)]);
  });

  test('a later page steps over the keys and reads its items with their joined ones by key, in order both ways', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const base = request({ pageSize: 5, direction });
      const [, middle] = await walk(source(), base, [1, 3]);
      const expected = ordered(all, 'created_at', direction === 'desc').slice(10, 15);
      const page = await pagination.listPage({
        source: source(),
        filters: [],
        request: { ...base, pageNumber: 3, pinned: true },
        join,
      });
      expect(ids(page.items)).toEqual(expected);
      expect(ids(middle!.items)).toEqual(expected);
      expect(extras(page.items)).toEqual(expected.map((id) => (id === all[0]!.id ? undefined : `x-${id}`)));
      expect(page.cost.readCalls).toBeLessThanOrEqual(4);
      expect(page.cost.rounds).toBeLessThanOrEqual(3);
    }
  });

  test('a later page reads its items and joined items eventually consistent, again strongly those it needs and missed', async () => {
    const base = request({ pageSize: 5 });
    const third = { ...base, pageNumber: 3, pinned: true };
    const expected = ordered(all).slice(10, 15);
    const read = await pagination.listPage({ source: source(), filters: [], request: third, join });
    // Counter and items after the snapshot at once, the keys, then one batch of 10 items charged half a
    // unit each: 3 rounds.
    expect([read.cost.readCalls, read.cost.rounds]).toEqual([4, 3]);
    expect(read.cost.readCapacity).toBeLessThan(10);
    // A joined item that is not there but that one listed item needs: read again, strongly consistent.
    const needy = {
      sk: 'NOT_WRITTEN',
      merge: join.merge,
      needs: (item: Record<string, unknown>) => item['id'] === expected[2],
    };
    const again = await pagination.listPage({ source: source(), filters: [], request: third, join: needy });
    expect(ids(again.items)).toEqual(expected);
    expect(extras(again.items)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    // The one case of a fourth round: the eventually consistent batch missed what a listed item needs.
    expect([again.cost.readCalls, again.cost.rounds]).toEqual([5, 4]);
  });

  test('a filtered page 1 is counted as it is read: one read and the join', async () => {
    const page = await pagination.listPage({
      source: source(),
      filters: [{ kind: 'equals', attribute: 'color', value: 'green' }],
      request: request({ pageSize: 3 }),
      join,
    });
    const green = all.filter((w) => w.color === 'green');
    expect(page.total).toBe(green.length);
    expect(ids(page.items)).toEqual(ordered(green).slice(0, 3));
    expect(extras(page.items)).toEqual(
      ordered(green)
        .slice(0, 3)
        .map((id) => `x-${id}`),
    );
    expect(page.cost.readCalls).toBe(2);
  });
});

describe('snapshots', () => {
  test('items created during a walk are not in it and do not move its pages', async () => {
    const tenant = `t-${randomUUID()}`;
    const before = widgets(24);
    await insert(tenant, before);
    const snapshot = at(100);
    const base = request({ pageSize: 5, snapshot, pinned: true });
    const seen: string[] = [];
    for (const pageNumber of range(1, 5)) {
      // Created after the snapshot, but sorting anywhere: with the snapshot's time and later.
      await insert(tenant, widgets(2, 100 + pageNumber * 10));
      const page = await pagination.listPage({
        source: { tenant, collection: COLLECTION },
        filters: [],
        request: { ...base, pageNumber },
      });
      expect(page.total).toBe(24);
      seen.push(...ids(page.items));
    }
    expect(seen).toEqual(ordered(before));
    // A new walk sees them.
    const fresh = await pagination.listPage({
      source: { tenant, collection: COLLECTION },
      filters: [],
      request: request(),
    });
    expect(fresh.total).toBe(34);
  });

  test('in updated_at order, an item updated after the snapshot leaves the walk; nothing is repeated', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(20);
    await insert(tenant, all);
    const base = request({ orderKey: 'updated_at', pageSize: 5, snapshot: at(50), pinned: true });
    const [first, second] = await walk({ tenant, collection: COLLECTION }, base, [1, 2]);
    // The first item of page 1 and one item of page 4 change after the snapshot.
    await touch(tenant, all[0]!, at(60));
    await touch(tenant, all[17]!, at(61));
    const rest = await walk({ tenant, collection: COLLECTION }, base, [3, 4]);
    expect(rest.map((a) => a.total)).toEqual([18, 18]);
    const seen = [first!, second!, ...rest].flatMap((a) => ids(a.items));
    expect(new Set(seen).size).toBe(seen.length);
    // Pages are positions in the walk as it is when they are asked: the item that left page 1 moved
    // the first of page 3 (all[10]) up onto page 2, served already (docs/pagination.md).
    expect(seen).toEqual(ordered(all).filter((id) => id !== all[17]!.id && id !== all[10]!.id));
  });
});

describe('filters', () => {
  test('pages stay full when most items do not match: the read goes on until enough match', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(40).map((w, i) => ({ ...w, color: i % 10 === 3 ? 'gold' : 'grey' }));
    await insert(tenant, all);
    const filters: Filter[] = [{ kind: 'equals', attribute: 'color', value: 'gold' }];
    const answers = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 3 }), [1, 2], filters);
    expect(answers.map((a) => a.items.length)).toEqual([3, 1]);
    expect(answers.flatMap((a) => ids(a.items))).toEqual(ordered(all.filter((w) => w.color === 'gold')));
  });

  test('a date range on the other timestamp is a filter; combined with others it narrows further', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(30).map((w, i) => ({ ...w, updated_at: at(500 + i) }));
    await insert(tenant, all);
    const filters: Filter[] = [{ kind: 'equals', attribute: 'color', value: 'red' }];
    const answers = await walk(
      { tenant, collection: COLLECTION },
      request({ updated: { from: at(506), to: at(520) }, created: { to: at(17) } }),
      [1, 2],
      filters,
    );
    const expected = all.filter(
      (w) => w.color === 'red' && w.updated_at >= at(506) && w.updated_at <= at(520) && w.created_at <= at(17),
    );
    expect(answers[0]!.total).toBe(expected.length);
    expect(answers.flatMap((a) => ids(a.items))).toEqual(ordered(expected));
  });

  test('a cold jump with a filter keeps its page from the one read that counts the walk', async () => {
    const tenant = `t-${randomUUID()}`;
    const all = widgets(60);
    await insert(tenant, all);
    const filters: Filter[] = [{ kind: 'equals', attribute: 'color', value: 'blue' }];
    const [page3] = await walk({ tenant, collection: COLLECTION }, request({ pageSize: 4 }), [3], filters);
    const blues = ordered(all.filter((w) => w.color === 'blue'));
    expect(page3!.total).toBe(20);
    expect(ids(page3!.items)).toEqual(blues.slice(8, 12));
    expect([page3!.cost.readCalls, page3!.cost.rounds]).toEqual([1, 1]);
  });

  test('tenants never see each other’s items', async () => {
    const [a, b] = [`t-${randomUUID()}`, `t-${randomUUID()}`];
    await insert(a, widgets(3));
    await insert(b, widgets(4));
    const page = await pagination.listPage({
      source: { tenant: b, collection: COLLECTION },
      filters: [],
      request: request(),
    });
    expect([page.total, page.items.length]).toEqual([4, 4]);
  });
});
