/**
 * The local server's stage throttling, as API Gateway's for an HTTP API stage (infra/stages.ts): one
 * token bucket for every caller of the stage. Past the burst, every client gets 429 RATE_LIMITED with
 * Retry-After, not only the one that spent the tokens, until they refill. Each tenant's own limit is
 * the functions' (tenant-rate-limit.test.ts). This server gets a tiny bucket of its own; the other
 * suites' servers are not throttled.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { StageThrottle } from '../../infra/local/rate-limiter';
import { stages } from '../../infra/stages';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';

// One token a second: the requests of the burst take far less, even on a slow machine.
const THROTTLING = { rateLimit: 1, burstLimit: 2 };
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi({ throttling: THROTTLING });
});
afterAll(() => api.stop());

function expectThrottled(answer: ApiAnswer): void {
  expect({ status: answer.status, code: answer.body?.code }).toEqual({ status: 429, code: 'RATE_LIMITED' });
  expect(answer.headers.get('content-type')).toBe('application/problem+json');
  expect(answer.headers.get('retry-after')).toBe('1');
}

it('answers 429 with Retry-After past the burst to every client alike, until a token refills', async () => {
  const [a, b] = [await api.token('sandbox-client-a'), await api.token('sandbox-client-b')];
  const list = (token?: string) => api.request('GET', '/v1/customers', token ? { token } : {});

  for (let i = 0; i < THROTTLING.burstLimit; i += 1) expect((await list(a)).status).toBe(200);
  expectThrottled(await list(a));
  // b sent nothing yet: the bucket a emptied is b's too, as on the deployed stage.
  expectThrottled(await list(b));
  // A request is throttled before its token is looked at: a flood without tokens spends the bucket too.
  expectThrottled(await list());

  await sleep(1000 / THROTTLING.rateLimit + 50);
  expect((await list(b)).status).toBe(200);
});

it("applies the local stage's API Gateway settings when asked for 'stage': a burst of 100 at once", () => {
  const bucket = new StageThrottle(stages.local.throttling, () => 0);
  const answers = Array.from({ length: stages.local.throttling.burstLimit + 1 }, () => bucket.take().allowed);
  expect(answers.filter(Boolean)).toHaveLength(stages.local.throttling.burstLimit);
  expect(answers.at(-1)).toBe(false);
});
