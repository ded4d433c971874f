/**
 * A client's webhooks are at most MAX_WEBHOOKS (docs/webhooks.md, "Limits"): kept exactly by the
 * create's own transaction, however many creates race; a delete frees a place. A table of its own,
 * so that the count starts at none.
 */
import { randomUUID } from 'node:crypto';
import { MAX_WEBHOOKS } from '../../shared/domain/webhooks';
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { SAMPLE_WEBHOOK_URL } from '../support/route-samples';

let api: TestApi;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(() => api.stop());

const create = (token = tokenA) =>
  api.request('POST', '/v1/webhooks', {
    token,
    body: { url: SAMPLE_WEBHOOK_URL, events: ['payment.settled'] },
    headers: { 'Idempotency-Key': randomUUID() },
  });

test(`${MAX_WEBHOOKS} webhooks at most: 5 creates racing for the last 2 places make 2; a delete frees one`, async () => {
  // One after the other up to 2 short of the limit: racing creates of one client meet on its one webhook
  // set (a transaction conflict each, retried), which is the race below, not a load to put on CI.
  const first: Awaited<ReturnType<typeof create>>[] = [];
  for (let i = 0; i < MAX_WEBHOOKS - 2; i += 1) first.push(await create());
  expect(first.every((answer) => answer.status === 200)).toBe(true);
  const racing = await Promise.all(Array.from({ length: 5 }, () => create()));
  const answers = [...first, ...racing];
  const made = answers.filter((answer) => answer.status === 200);
  expect(made).toHaveLength(MAX_WEBHOOKS);
  for (const refused of answers.filter((answer) => answer.status !== 200)) {
    expectProblem(refused, 409, 'WEBHOOK_LIMIT_REACHED');
    expect(refused.body.limit).toBe(MAX_WEBHOOKS);
  }
  const { items } = await walkAll(api, tokenA, '/v1/webhooks', 'webhooks');
  expect(items.map((webhook) => webhook.id).sort()).toEqual(made.map((answer) => answer.body.id).sort());

  // Another client's count is its own.
  expect((await create(tokenB)).status).toBe(200);

  // A place freed by a delete is taken by the next create, and only one.
  expect((await api.request('DELETE', `/v1/webhooks/${made[0]!.body.id}`, { token: tokenA })).status).toBe(200);
  expect((await create()).status).toBe(200);
  expectProblem(await create(), 409, 'WEBHOOK_LIMIT_REACHED');
});
