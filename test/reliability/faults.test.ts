/**
 * DynamoDB failing under the server, injected by a proxy between the SDK and DynamoDB Local (real
 * throttling and error bodies, calls that hang, an endpoint that refuses connections): the answer is
 * 503 SERVICE_UNAVAILABLE with Retry-After once the SDK's bounded attempts are spent, nothing is half
 * written, and the same request (with the same Idempotency-Key) succeeds once DynamoDB is back.
 *
 * The sweep fails each DynamoDB call of every write route in turn, so that every step of every write
 * is shown to leave the table as it was or as one whole request leaves it.
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS } from '../../shared/runtime/config';
import { DYNAMODB_MAX_ATTEMPTS } from '../../shared/data/client';
import { DynamoDbFaultProxy, type Attempt, type Fault } from '../support/dynamodb-fault-proxy';
import { startTestApi, testEndpoint, type ApiAnswer, type TestApi } from '../support/local-api';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';
import { expectUnavailable } from '../support/problems';
import { createParty, sampleOf, sendSample, type Party, type SampleRequest } from '../support/route-samples';
import { describeChanges, diffItems, writesOf, type Writes } from '../support/table-diff';
import type { Item } from '../support/dynamo-table';

let proxy: DynamoDbFaultProxy;
let api: TestApi;
let party: Party;
const sweep: { route: string; calls: number }[] = [];

beforeAll(async () => {
  proxy = await DynamoDbFaultProxy.start(testEndpoint());
  api = await startTestApi({
    dynamodbEndpoint: proxy.endpoint,
    scanEndpoint: testEndpoint(),
    // The faults are injected by DynamoDB call: no settlement job may make calls in the background.
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
    // Lambda's own bound, so the timeout test measures what is deployed.
    dynamodbRequestTimeoutMs: DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS,
  });
  party = await partyOf('sandbox-client-a');
});

/**
 * The tests' party, set up through the API under the deployed 1 s bound of a DynamoDB call. A
 * DynamoDB Local just started beside the suite's first files can outlast it (in a clean-clone run,
 * a link's calls did, three times over): a 503 SERVICE_UNAVAILABLE, which a client retries. The
 * setup retries it as a client would; nothing below does.
 */
async function partyOf(clientId: string): Promise<Party> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await createParty(api, clientId);
    } catch (error) {
      if (attempt >= 3 || !/\b503\b.*SERVICE_UNAVAILABLE/.test(String(error))) throw error;
    }
  }
}

afterEach(() => proxy.clear());

afterAll(async () => {
  const invocations = new Set(proxy.attempts.filter((a) => a.fault).map((a) => a.invocation)).size;
  const lines = sweep.map((row) => `  ${row.route}: ${row.calls} DynamoDB calls failed in turn`);
  process.stdout.write(
    `faults: ${proxy.faultsInjected} faulty answers to ${invocations} DynamoDB calls\n${lines.join('\n')}\n`,
  );
  await api.stop();
  await proxy.stop();
});

const LINK = routes.find((route) => route.name === 'linkMerchant')!;
let keys = 0;
const idempotencyKey = (): string => `fault-${process.pid}-${++keys}`;

/** The sample's request, with a fresh Idempotency-Key on POSTs (the retry sends the same one). */
const send = (route: RouteDefinition, request: SampleRequest, key: string): Promise<ApiAnswer> =>
  sendSample(api, route, request, {
    token: party.token,
    ...(route.method === 'POST' ? { headers: { 'idempotency-key': key } } : {}),
  });

const shapeOf = (writes: Writes) => ({
  entities: writes.entities,
  updated: writes.updated,
  counterMoves: Object.values(writes.counters).sort(),
});

const nothingWritten = shapeOf({ entities: {}, updated: {}, counters: {} });

/** The SDK invocations since `from`, each with its attempts. */
function invocationsSince(from: number): Map<string, Attempt[]> {
  const byInvocation = new Map<string, Attempt[]>();
  for (const attempt of proxy.attempts.slice(from)) {
    byInvocation.set(attempt.invocation, [...(byInvocation.get(attempt.invocation) ?? []), attempt]);
  }
  return byInvocation;
}

interface Outage {
  readonly begin: () => Promise<void> | void;
  /** DynamoDB back; by default the proxy stops injecting. */
  readonly end?: () => Promise<void> | void;
}

/** Fails, then retries with the same key once DynamoDB is back; answers both and the writes of each. */
async function failThenRetry(route: RouteDefinition, request: SampleRequest, outage: Outage) {
  // Only the route touches the table (and the proxy) while it is measured: the dispatcher and the
  // queues' functions wait (their turn comes between measurements).
  return api.quietly(() => measureFailThenRetry(route, request, outage));
}

/**
 * The table as the route's work left it. The rate counters are not its work: they count what was
 * asked (a lookup read the directory and spent the lookup budget, docs/keys.md, whatever failed after
 * it, as a refused request spends the tenant's limit), so they are left out.
 */
const scanWork = async (): Promise<Item[]> => (await api.scan()).filter((item) => item['entity'] !== 'RATE_WINDOW');

async function measureFailThenRetry(route: RouteDefinition, request: SampleRequest, outage: Outage) {
  const key = idempotencyKey();
  const before = await scanWork();
  const from = proxy.attempts.length;
  await outage.begin();
  const started = Date.now();
  const failed = await send(route, request, key);
  const elapsedMs = Date.now() - started;
  await (outage.end ?? (() => proxy.clear()))();
  const afterFailure = await scanWork();
  const retried = await send(route, request, key);
  const afterRetry = await scanWork();
  return {
    failed,
    elapsedMs,
    invocations: invocationsSince(from),
    failureChanges: diffItems(before, afterFailure),
    writesOfFailure: shapeOf(writesOf(diffItems(before, afterFailure))),
    retried,
    writesInAll: shapeOf(writesOf(diffItems(before, afterRetry))),
  };
}

async function writesOfCleanRun(
  route: RouteDefinition,
): Promise<{ calls: number; writes: ReturnType<typeof shapeOf> }> {
  const request = await sampleOf(route).valid({ api, party });
  return api.quietly(async () => {
    const before = await scanWork();
    const from = proxy.attempts.length;
    const answer = await send(route, request, idempotencyKey());
    expect(answer.status).toBeLessThan(300);
    return {
      calls: invocationsSince(from).size,
      writes: shapeOf(writesOf(diffItems(before, await scanWork()))),
    };
  });
}

describe('throttling', () => {
  it.each<Fault>(['ProvisionedThroughputExceededException', 'ThrottlingException'])(
    'answers %s with 503 and Retry-After after the bounded attempts, writes nothing, succeeds on retry',
    async (fault) => {
      const clean = await writesOfCleanRun(LINK);
      const run = await failThenRetry(LINK, await sampleOf(LINK).valid({ api, party }), {
        begin: () => proxy.inject({ fault, operations: ['TransactWriteItems'] }),
      });
      expectUnavailable(run.failed);
      const throttled = [...run.invocations.values()].filter((attempts) => attempts.some((a) => a.fault));
      expect(throttled.map((attempts) => attempts.length)).toEqual([DYNAMODB_MAX_ATTEMPTS]);
      // Not even the Idempotency-Key's claim is left behind: the retry runs the request.
      expect(describeChanges(run.failureChanges)).toBe('');
      expect(run.retried.status).toBe(200);
      expect(run.retried.headers.get('idempotent-replayed')).toBeNull();
      expect(run.writesInAll).toEqual(clean.writes);
    },
    20_000,
  );
});

describe('a DynamoDB call that never answers', () => {
  it('becomes a 503 after the bounded attempts, not a hung function', async () => {
    const clean = await writesOfCleanRun(LINK);
    const run = await failThenRetry(LINK, await sampleOf(LINK).valid({ api, party }), {
      begin: () => proxy.inject({ fault: 'hang', operations: ['TransactWriteItems'] }),
    });
    expectUnavailable(run.failed);
    const hung = [...run.invocations.values()].filter((attempts) => attempts.some((a) => a.fault));
    expect(hung.map((attempts) => attempts.length)).toEqual([DYNAMODB_MAX_ATTEMPTS]);
    // Three attempts of one second each and the SDK's backoff, well inside Lambda's 10 s.
    expect(run.elapsedMs).toBeGreaterThanOrEqual(DYNAMODB_MAX_ATTEMPTS * DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS);
    expect(run.elapsedMs).toBeLessThan(8_000);
    expect(describeChanges(run.failureChanges)).toBe('');
    expect(run.retried.status).toBe(200);
    expect(run.writesInAll).toEqual(clean.writes);
  }, 20_000);
});

describe('an unreachable DynamoDB endpoint', () => {
  it('answers 503, writes nothing, and serves the retry once the endpoint is back', async () => {
    const clean = await writesOfCleanRun(LINK);
    const run = await failThenRetry(LINK, await sampleOf(LINK).valid({ api, party }), {
      begin: () => proxy.refuseConnections(),
      end: () => proxy.acceptConnections(),
    });
    expectUnavailable(run.failed);
    expect(describeChanges(run.failureChanges)).toBe('');
    expect(run.retried.status).toBe(200);
    expect(run.writesInAll).toEqual(clean.writes);
  }, 20_000);
});

describe('every DynamoDB call of every write route, failed in turn', () => {
  // Reads fail whole, as the outage tests above and dynamodb-restart.test.ts show.
  const writes = routes.filter((route) => route.method !== 'GET');
  it.each(writes.map((route) => [`${route.method} ${route.paths[0]}`, route] as const))(
    '%s',
    async (_, route) => {
      const sample = sampleOf(route);
      const clean = await writesOfCleanRun(route);
      sweep.push({ route: route.name, calls: clean.calls });
      for (let call = 0; call < clean.calls; call += 1) {
        const request = await sample.valid({ api, party });
        const run = await failThenRetry(route, request, {
          begin: () => proxy.inject({ fault: 'InternalServerError', skip: call, invocations: 1 }),
        });
        const label = `${route.name}, DynamoDB call ${call + 1} of ${clean.calls} failing`;
        if (run.failed.status < 300) {
          // Only recording the answer under the Idempotency-Key failed: the work is whole.
          expect({ label, writes: run.writesOfFailure }).toEqual({ label, writes: clean.writes });
          continue;
        }
        expect({ label, status: run.failed.status }).toEqual({ label, status: 503 });
        expectUnavailable(run.failed);
        if (!sample.convergesOnRetry) {
          expect({ label, writes: run.writesOfFailure }).toEqual({ label, writes: nothingWritten });
        }
        expect({ label, retried: run.retried.status }).toEqual({ label, retried: expect.any(Number) });
        expect({ label, retried: run.retried.status < 300, text: run.retried.text }).toEqual({
          label,
          retried: true,
          text: run.retried.text,
        });
        expect({ label, writes: run.writesInAll }).toEqual({ label, writes: clean.writes });
      }
    },
    60_000,
  );
});
