/**
 * Each tenant's own limit, enforced by the functions in the shared Middy chain and counted in
 * DynamoDB (shared/http/tenant-rate-limit.ts), through the real local server with real tokens and
 * what `npm start` runs: the local stage's throttling (one bucket for every caller) and its
 * per-tenant limit. One tenant flooding past its limit gets 429s; another tenant's requests in the
 * same moments are all served; a person flooding past their share of the tenant's limit is refused
 * while the tenant's machine is served. A counter that cannot be written lets the request through.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { DYNAMODB_MAX_ATTEMPTS } from '../../shared/data/client';
import { RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { logger } from '../../shared/http/logger';
import { personRateLimit, RATE_LIMIT_UNAVAILABLE_METRIC } from '../../shared/http/tenant-rate-limit';
import { metrics } from '../../shared/observability/telemetry';
import { stages } from '../../infra/stages';
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { startTestApi, testEndpoint, type ApiAnswer, type TestApi } from '../support/local-api';
import { personToken } from '../support/people';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';

const LIMIT = stages.local.tenantRateLimit;
const WINDOW_SECONDS = LIMIT.burst / LIMIT.requestsPerSecond;
/**
 * Rounds of the flood until the noisy tenant is refused. Each round is one more than a window holds,
 * so only a round split by a window boundary can pass whole; and the rounds of both tenants together
 * stay under the stage's burst, so that the stage's bucket (shared by both) never refuses anyone here.
 */
const MAX_ROUNDS = 4;

let proxy: DynamoDbFaultProxy;
let api: TestApi;

beforeAll(async () => {
  expect(MAX_ROUNDS * (LIMIT.burst + 2)).toBeLessThanOrEqual(stages.local.throttling.burstLimit);
  proxy = await DynamoDbFaultProxy.start(testEndpoint());
  api = await startTestApi({
    dynamodbEndpoint: proxy.endpoint,
    scanEndpoint: testEndpoint(),
    // DynamoDB calls and the table's changes are counted: no settlement job may run in the background.
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
    throttling: 'stage',
    tenantRateLimit: 'stage',
  });
});

afterEach(() => {
  proxy.clear();
  jest.restoreAllMocks();
});

afterAll(async () => {
  await api.stop();
  await proxy.stop();
});

const list = (token: string): Promise<ApiAnswer> => api.request('GET', '/v1/customers', { token });

it('refuses a tenant flooding past its limit with 429 and Retry-After, while another is served', async () => {
  const [noisy, quiet] = [await api.token('sandbox-client-a'), await api.token('sandbox-client-b')];
  const noisyAnswers: ApiAnswer[] = [];
  const quietAnswers: ApiAnswer[] = [];
  for (let round = 0; round < MAX_ROUNDS && !noisyAnswers.some((a) => a.status === 429); round += 1) {
    // The quiet tenant's request goes out in the middle of the noisy tenant's burst.
    const flood = Array.from({ length: LIMIT.burst + 1 }, () => list(noisy));
    const [quietAnswer, ...floodAnswers] = await Promise.all([list(quiet), ...flood]);
    quietAnswers.push(quietAnswer!);
    noisyAnswers.push(...floodAnswers);
  }

  const refused = noisyAnswers.filter((answer) => answer.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  expect(noisyAnswers.filter((answer) => ![200, 429].includes(answer.status))).toEqual([]);
  for (const answer of refused) {
    expect(answer.body.code).toBe('RATE_LIMITED');
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    // The seconds until the tenant's window ends.
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(WINDOW_SECONDS));
  }
  expect(quietAnswers.map((answer) => answer.status)).toEqual(quietAnswers.map(() => 200));

  // The counters are in the table, one per tenant and window, none past the window's limit.
  const windows = await api.scan();
  const counters = windows.filter((item) => item['entity'] === 'RATE_WINDOW');
  for (const counter of counters) {
    expect(String(counter['pk']).startsWith(RATE_WINDOW_KEY_PREFIX)).toBe(true);
    expect(Object.keys(counter).sort()).toEqual([...RATE_WINDOW_ATTRIBUTES].sort());
    expect(counter['requests']).toBeLessThanOrEqual(LIMIT.burst);
  }
  const counted = (tenant: string) =>
    counters
      .filter((counter) => String(counter['pk']).startsWith(`${RATE_WINDOW_KEY_PREFIX}${tenant}#`))
      .reduce((sum, counter) => sum + Number(counter['requests']), 0);
  // Every request the functions served was counted; the refused ones were not.
  expect(counted('sandbox-client-a')).toBe(noisyAnswers.length - refused.length);
  expect(counted('sandbox-client-b')).toBe(quietAnswers.length);
});

it("refuses a person flooding past their share of the tenant's limit, while the tenant's machine is served", async () => {
  const person = personRateLimit(LIMIT);
  const [viewer, machine] = [await personToken(api.url, 'viewer-a'), await api.token('sandbox-client-a')];
  // The test above spent the tenant's window: start in a window of its own.
  await sleep(WINDOW_SECONDS * 1000);
  const viewerAnswers: ApiAnswer[] = [];
  const machineAnswers: ApiAnswer[] = [];
  for (let round = 0; round < MAX_ROUNDS && !viewerAnswers.some((a) => a.status === 429); round += 1) {
    const flood = Array.from({ length: person.burst + 1 }, () => list(viewer));
    const [machineAnswer, ...floodAnswers] = await Promise.all([list(machine), ...flood]);
    machineAnswers.push(machineAnswer!);
    viewerAnswers.push(...floodAnswers);
  }
  const refused = viewerAnswers.filter((answer) => answer.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  for (const answer of refused) {
    expect(answer.body.code).toBe('RATE_LIMITED');
    expect(answer.body.detail).toMatch(/^This person may send/);
  }
  expect(machineAnswers.map((answer) => answer.status)).toEqual(machineAnswers.map(() => 200));
  // The person's bucket is half the tenant's: the other half stays the machines'.
  expect(person.burst).toBeLessThanOrEqual(LIMIT.burst / 2);
});

it('lets the request through when its counter cannot be written: logged, and counted in a metric', async () => {
  const token = await api.token('sandbox-client-readonly');
  const warn = jest.spyOn(logger, 'warn');
  const addMetric = jest.spyOn(metrics, 'addMetric');
  const from = proxy.attempts.length;
  // A GET of a list writes nothing but its counter: the only UpdateItem is the rate limit's.
  proxy.inject({ fault: 'InternalServerError', operations: ['UpdateItem'] });

  const answer = await list(token);

  expect(answer.status).toBe(200);
  const failed = proxy.attempts.slice(from).filter((attempt) => attempt.fault);
  expect(failed.map((attempt) => attempt.operation)).toEqual(Array(DYNAMODB_MAX_ATTEMPTS).fill('UpdateItem'));
  expect(warn).toHaveBeenCalledWith(
    'tenant rate limit unavailable; request let through',
    expect.objectContaining({ tenant: 'sandbox-client-readonly', error_name: 'InternalServerError' }),
  );
  expect(addMetric).toHaveBeenCalledWith(RATE_LIMIT_UNAVAILABLE_METRIC, 'Count', 1);
});
