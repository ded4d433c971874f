/**
 * Per-client throttling on the local server, as the stage's API Gateway throttling (infra/stages.ts):
 * past the burst, 429 RATE_LIMITED with Retry-After, for that client only, until tokens refill.
 * This server gets a tiny limit of its own; the other suites' servers are not throttled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ClientRateLimiter } from '../../infra/local/rate-limiter';
import { stages } from '../../infra/stages';
import { startTestApi, type TestApi } from '../support/local-api';

// One token a second: the requests of the burst take far less, even on a slow machine.
const THROTTLING = { rateLimit: 1, burstLimit: 2 };
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ throttling: THROTTLING });
});
afterAll(() => api.stop());

it('answers 429 with Retry-After past the burst, to that client only, until a token refills', async () => {
  const [a, b] = [await api.token('sandbox-client-a'), await api.token('sandbox-client-b')];
  const list = (token: string) => api.request('GET', '/v1/customers', { token });

  for (let i = 0; i < THROTTLING.burstLimit; i += 1) expect((await list(a)).status).toBe(200);
  const throttled = await list(a);
  expect({ status: throttled.status, code: throttled.body.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  expect(throttled.headers.get('content-type')).toBe('application/problem+json');
  expect(throttled.headers.get('retry-after')).toBe('1');

  expect((await list(b)).status).toBe(200);
  await sleep(1000 / THROTTLING.rateLimit + 50);
  expect((await list(a)).status).toBe(200);
});

it("applies the local stage's API Gateway settings when asked for 'stage': a burst of 100 at once", () => {
  const limiter = new ClientRateLimiter(stages.local.throttling, () => 0);
  const answers = Array.from({ length: stages.local.throttling.burstLimit + 1 }, () => limiter.take('a').allowed);
  expect(answers.filter(Boolean)).toHaveLength(stages.local.throttling.burstLimit);
  expect(answers.at(-1)).toBe(false);
});
