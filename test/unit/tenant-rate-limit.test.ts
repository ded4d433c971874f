/**
 * The windows of the per-tenant rate limit (shared/http/tenant-rate-limit.ts), numbered alike by every
 * instance, and the key prefix that sets its counters apart from every other item.
 */
import { itemKeys, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { rateWindowOf } from '../../shared/http/tenant-rate-limit';

test('a window lasts burst / requestsPerSecond seconds and admits burst requests', () => {
  const settings = { requestsPerSecond: 10, burst: 20 };
  expect(rateWindowOf(settings, 0)).toEqual({ index: 0, limit: 20, endsAtMs: 2000 });
  expect(rateWindowOf(settings, 1999)).toEqual({ index: 0, limit: 20, endsAtMs: 2000 });
  expect(rateWindowOf(settings, 2000)).toEqual({ index: 1, limit: 20, endsAtMs: 4000 });
  const now = Date.UTC(2026, 10, 22, 12, 0, 0, 500);
  expect(rateWindowOf(settings, now)).toEqual({ index: Math.floor(now / 2000), limit: 20, endsAtMs: now + 1500 });
});

test('a burst equal to the rate is a window of one second', () => {
  expect(rateWindowOf({ requestsPerSecond: 50, burst: 50 }, 12_345)).toEqual({
    index: 12,
    limit: 50,
    endsAtMs: 13_000,
  });
});

test("no other item's partition key has the counters' prefix: the functions' grant on it reaches the counters alone", () => {
  const checked: string[] = [];
  for (const [name, key] of Object.entries(itemKeys)) {
    if (typeof key !== 'function') continue;
    const made: unknown = (key as (...args: string[]) => unknown)('tenant', 'value', 'more');
    // An item key, or the partition-key value a helper answers (counterPartition).
    const pk = typeof made === 'string' ? made : (made as { pk?: unknown } | undefined)?.pk;
    if (typeof pk !== 'string') continue;
    checked.push(name);
    expect({ name, counter: pk.startsWith(RATE_WINDOW_KEY_PREFIX) }).toEqual({ name, counter: name === 'rateWindow' });
  }
  expect(checked).toEqual(expect.arrayContaining(['rateWindow', 'idempotency', 'customer', 'counterPartition']));
});
