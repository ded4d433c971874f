/**
 * The per-tenant rate limit's counters in DynamoDB Local (shared/data/rate-limit-store.ts): however
 * many requests take from one window at the same time, exactly the window's limit is counted and the
 * rest refused; tenants and windows count apart; each counter expires through the table's TTL.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { itemKeys, RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import type { RateWindow } from '../../shared/data/rate-limit-store';
import { rateWindowOf, type TenantRateLimitStore } from '../../shared/http/tenant-rate-limit';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let store: TenantRateLimitStore;

beforeAll(async () => {
  table = await createTestTable('rate-limit');
  ({ dynamoTenantRateLimitStore: store } = await import('../../shared/data/rate-limit-store'));
});
afterAll(() => table.drop());

const freshTenant = (): string => `tenant-${randomUUID()}`;
const windowOf = (limit: number, nowMs = Date.now()): RateWindow =>
  rateWindowOf({ requestsPerSecond: limit, burst: limit }, nowMs);

async function counterOf(tenant: string, window: RateWindow): Promise<Record<string, any> | undefined> {
  const { Item } = await table.documents.send(
    new GetCommand({
      TableName: table.tableName,
      Key: itemKeys.rateWindow(tenant, window.index),
      ConsistentRead: true,
    }),
  );
  return Item;
}

const takeAtOnce = (tenant: string, window: RateWindow, takes: number): Promise<boolean[]> =>
  Promise.all(Array.from({ length: takes }, () => store.take(tenant, window)));

test.each([
  [1, 20],
  [10, 60],
  [20, 100],
])('a window of %i: of %i concurrent takes, exactly that many are counted', async (limit, takes) => {
  const tenant = freshTenant();
  const window = windowOf(limit);
  const taken = await takeAtOnce(tenant, window, takes);
  expect(taken.filter(Boolean)).toHaveLength(limit);
  // Refused takes write nothing: the counter holds the admitted requests only.
  expect((await counterOf(tenant, window))?.['requests']).toBe(limit);
  // Full stays full.
  expect(await store.take(tenant, window)).toBe(false);
});

test('tenants count apart, even taking at the same time', async () => {
  const [a, b] = [freshTenant(), freshTenant()];
  const window = windowOf(5);
  const [takenA, takenB] = await Promise.all([takeAtOnce(a, window, 15), takeAtOnce(b, window, 15)]);
  expect([takenA.filter(Boolean).length, takenB.filter(Boolean).length]).toEqual([5, 5]);
});

test('the next window starts empty', async () => {
  const tenant = freshTenant();
  const first = windowOf(3);
  const next = windowOf(3, first.endsAtMs);
  expect(next.index).toBe(first.index + 1);
  expect((await takeAtOnce(tenant, first, 4)).filter(Boolean)).toHaveLength(3);
  expect((await takeAtOnce(tenant, next, 4)).filter(Boolean)).toHaveLength(3);
});

test('a counter is an item of its own under the prefix, with the listed attributes, expiring after its window', async () => {
  const tenant = freshTenant();
  const window = windowOf(2);
  await store.take(tenant, window);
  const counter = await counterOf(tenant, window);
  expect(String(counter?.['pk']).startsWith(RATE_WINDOW_KEY_PREFIX)).toBe(true);
  // The functions' IAM grant allows writing these attributes and no other (infra/constructs/api-function.ts).
  expect(Object.keys(counter ?? {}).sort()).toEqual([...RATE_WINDOW_ATTRIBUTES].sort());
  expect(counter).toMatchObject({ entity: 'RATE_WINDOW', requests: 1 });
  expect(counter?.['expires_at']).toBeGreaterThanOrEqual(Math.ceil(window.endsAtMs / 1000));
});
