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

test(`${MAX_WEBHOOKS + 5} racing creates make ${MAX_WEBHOOKS} webhooks; the rest are 409, and a delete frees a place`, async () => {
  const answers = await Promise.all(Array.from({ length: MAX_WEBHOOKS + 5 }, () => create()));
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
