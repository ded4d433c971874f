/**
 * `npm run bench:latency`: what DynamoDB's round trips cost a request, with DynamoDB's network put
 * back. DynamoDB Local answers on loopback in a fraction of a millisecond, where an in-region call
 * takes a few: here every call is held BENCH_DELAY_MS (4) on its way through a proxy
 * (bench/functions/dynamodb-meter.ts), so a request's latency grows with the calls it makes one
 * after another, as on AWS. The local runtime (infra/local: the functions as `npm start` runs them,
 * with the local stage's per-tenant rate limit) serves each request through the HTTP API with a real
 * token, one at a time; for each route, p50 and p99 without the delay and with it, and the DynamoDB
 * calls one request makes, in one run. Writes docs/benchmarks/latency.json.
 *
 * DynamoDB Local's own time is most of a write's here (tens of milliseconds for a transaction), where
 * DynamoDB answers in a few. So each request's time is also split: its own (no call of its function
 * under way at the proxy) and its round trips (waves of calls one after another, told apart with the
 * delay). Its own time and BENCH_DELAY_MS a round trip is the request where each call costs that.
 *
 * The routes: a payment to a saved recipient with an Idempotency-Key (the longest write path: the
 * key's claim, the reads, the directory, the transaction, the key's answer), a payment of a resolved
 * key, a payment read back, and page 2 of the payments list on page 1's snapshot.
 *
 * Options (environment): BENCH_REQUESTS (60 of each, each way), BENCH_DELAY_MS (4).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
const { startLocalRuntime, IN_MEMORY } = await import('../infra/local/runtime');
const { startDynamoDbLocal } = await import('../infra/local/dynamodb-local');
const { REPO_ROOT } = await import('../infra/paths');
const { DynamoDbMeter } = await import('./functions/dynamodb-meter');
const { makeFixtures } = await import('./functions/samples');
const { percentile, send } = await import('./functions/load');
const { machineLine, median } = await import('./run-facts');

const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 60);
const DELAY_MS = Number(process.env['BENCH_DELAY_MS'] ?? 4);

/**
 * What `spans` (one request's DynamoDB calls, clipped to the request) cover: their milliseconds, and
 * the waves of calls one after another (spans that overlap are one wave: calls made together).
 */
function covered(spans: readonly (readonly [number, number])[]): { ms: number; waves: number } {
  let ms = 0;
  let waves = 0;
  let reached = -Infinity;
  for (const [from, to] of [...spans].sort((x, y) => x[0] - y[0])) {
    if (from > reached) waves += 1;
    if (to <= reached) continue;
    ms += to - Math.max(from, reached);
    reached = to;
  }
  return { ms, waves };
}

const dynamoDbLocal = await startDynamoDbLocal();
// With `detail`, each call is logged with the function that made it: a request's own are counted.
const meter = await DynamoDbMeter.start(dynamoDbLocal.endpoint, { detail: true });
const runtime = await startLocalRuntime({
  port: 0,
  dataDir: IN_MEMORY,
  dynamodbEndpoint: meter.endpoint,
  // The deployed stages count every request against its tenant (a call or two before the work).
  tenantRateLimit: { requestsPerSecond: 10_000, burst: 10_000 },
  // No settlement job runs in the background of the requests measured.
  sandboxSettlementDelayMs: 3_600_000,
});

try {
  const fixtures = await makeFixtures(runtime.url);
  const asClient = { authorization: fixtures.authorization };

  async function ok(method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
    const answer = await send(runtime.url, { method, path: route, headers: { ...asClient, ...headers }, body });
    if (answer.status >= 300) throw new Error(`${method} ${route} answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body) as { id?: string; pagination_info?: { first_request_timestamp: string } };
  }
  const resolution = async () =>
    (
      await ok('POST', '/v1/resolve-key', {
        customer_id: fixtures.customerId,
        key: { key_type: 'PHONE', key_value: '3001234567' },
      })
    ).id!;
  const payment = {
    customer_id: fixtures.customerId,
    account_id: fixtures.accountId,
    amount: { value: '1.00', currency: 'COP' },
  };

  /** A request to measure: what it needs made first (not timed), then the request itself. */
  interface Case {
    readonly name: string;
    /** The function serving it (the route table's name): its DynamoDB calls are the request's. */
    readonly route: string;
    readonly prepare: () => Promise<() => Promise<unknown>>;
  }
  let snapshot = '';
  const cases: Case[] = [
    {
      name: 'createPayment (recipient, Idempotency-Key)',
      route: 'createPayment',
      prepare: async () => () =>
        ok(
          'POST',
          '/v1/payments',
          { ...payment, recipient_id: fixtures.recipientId },
          { 'idempotency-key': randomUUID() },
        ),
    },
    {
      name: 'createPayment (resolution)',
      route: 'createPayment',
      prepare: async () => {
        const resolutionId = await resolution();
        return () => ok('POST', '/v1/payments', { ...payment, resolution_id: resolutionId });
      },
    },
    {
      name: 'getPayment',
      route: 'getPayment',
      prepare: async () => () => ok('GET', `/v1/payments/${fixtures.paymentId}`),
    },
    {
      name: 'listPayments, page 2 of 10',
      route: 'listPayments',
      prepare: async () => {
        if (!snapshot) {
          const first = await ok('GET', '/v1/payments?page_size=10&page_number=1');
          snapshot = first.pagination_info!.first_request_timestamp;
        }
        return () =>
          ok('GET', `/v1/payments?page_size=10&page_number=2&first_request_timestamp=${encodeURIComponent(snapshot)}`);
      },
    },
  ];

  interface Figures {
    readonly p50_ms: number;
    readonly p99_ms: number;
    /** The request's time with no DynamoDB call of its function under way: the API's own (p50). */
    readonly p50_own_ms: number;
    readonly dynamodb_calls: number;
  }
  interface Run {
    readonly ms: number;
    readonly ownMs: number;
    readonly roundTrips: number;
    readonly calls: number;
  }
  /** One request of the case with each call held `delayMs`: its time, its own, and the calls it made. */
  async function once(test: Case, delayMs: number): Promise<Run> {
    const request = await test.prepare();
    meter.delayMs = delayMs;
    meter.log.splice(0);
    const started = performance.now();
    await request();
    const ended = performance.now();
    meter.delayMs = 0;
    // The route's own calls: the local runtime's stream consumers work beside it on earlier requests'
    // events (calls that are theirs); what the function leaves for after its answer is clipped away.
    const own = meter.log.filter((call) => call.function === test.route);
    const waiting = covered(
      own.flatMap(({ span: [from, to] }) =>
        to > started && from < ended ? [[Math.max(from, started), Math.min(to, ended)] as const] : [],
      ),
    );
    return { ms: ended - started, ownMs: ended - started - waiting.ms, roundTrips: waiting.waves, calls: own.length };
  }
  const figures = (runs: readonly Run[]): Figures => {
    const p = (of: (run: Run) => number, rank: number) => Number(percentile(runs.map(of), rank).toFixed(2));
    return {
      p50_ms: p((run) => run.ms, 0.5),
      p99_ms: p((run) => run.ms, 0.99),
      p50_own_ms: p((run) => run.ownMs, 0.5),
      dynamodb_calls: Number((runs.reduce((sum, run) => sum + run.calls, 0) / runs.length).toFixed(2)),
    };
  };

  const results: Record<
    string,
    {
      readonly loopback: Figures;
      readonly delayed: Figures;
      readonly added_ms: number;
      /**
       * Waves of calls one after another, each a round trip (median), told apart in the delayed runs:
       * on loopback a call can answer before the one sent beside it arrives.
       */
      readonly round_trips: number;
      /** The API's own time on loopback and BENCH_DELAY_MS for each round trip: the request where a call costs that. */
      readonly own_and_round_trips_ms: number;
    }
  > = {};
  for (const test of cases) {
    // Warm: the function's first requests load its code and open its connections.
    for (let i = 0; i < 5; i += 1) await once(test, 0);
    // Each way in turn, so that what the machine does meanwhile weighs on both alike.
    const loopback: Run[] = [];
    const delayed: Run[] = [];
    for (let i = 0; i < REQUESTS; i += 1) {
      loopback.push(await once(test, 0));
      delayed.push(await once(test, DELAY_MS));
    }
    const [plain, held] = [figures(loopback), figures(delayed)];
    const roundTrips = median(delayed.map((run) => run.roundTrips));
    const ownAndRoundTrips = Number((plain.p50_own_ms + roundTrips * DELAY_MS).toFixed(2));
    results[test.name] = {
      loopback: plain,
      delayed: held,
      added_ms: Number((held.p50_ms - plain.p50_ms).toFixed(2)),
      round_trips: roundTrips,
      own_and_round_trips_ms: ownAndRoundTrips,
    };
    console.log(
      `${test.name}: p50 ${plain.p50_ms} ms -> ${held.p50_ms} ms with ${DELAY_MS} ms a call ` +
        `(p99 ${plain.p99_ms} -> ${held.p99_ms}); own ${plain.p50_own_ms} ms (${held.p50_own_ms} with the delay), ` +
        `${roundTrips} round trips: ${ownAndRoundTrips} ms at ${DELAY_MS} ms each; ` +
        `${held.dynamodb_calls} DynamoDB calls a request`,
    );
  }
  const report = {
    machine: machineLine(),
    date: new Date().toISOString().slice(0, 10),
    requests: REQUESTS,
    delay_ms: DELAY_MS,
    median_added_ms: Number(median(Object.values(results).map((r) => r.added_ms)).toFixed(2)),
    routes: results,
  };
  const out = path.join(REPO_ROOT, 'docs', 'benchmarks', 'latency.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`Wrote ${path.relative(REPO_ROOT, out)} (${report.machine})`);
} finally {
  await runtime.stop();
  await meter.stop();
  await dynamoDbLocal.stop();
}
