/**
 * The authorization matrix, generated from the route table: every route answers each bad token with
 * 401, a token without the route's scope with 403 INSUFFICIENT_SCOPE, and another client's request for
 * the owner's data with 403 FORBIDDEN (or an empty list), never with any of the owner's data.
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { createParty, sampleOf, secretsOf, sendSample, type Party, type SampleRequest } from '../support/route-samples';
import { BAD_TOKENS, badAuthorization, tokenWithoutScopeOf } from '../support/tokens';

let api: TestApi;
let owner: Party;
let other: Party;
/** Every answer the other client received, with what it sent, checked for the owner's data at the end. */
const answersToOther: { route: string; sent: SampleRequest; answer: ApiAnswer }[] = [];
let casesRun = 0;

beforeAll(async () => {
  api = await startTestApi();
  owner = await createParty(api, 'sandbox-client-a');
  other = await createParty(api, 'sandbox-client-b');
});

afterAll(async () => {
  process.stdout.write(`authorization matrix: ${routes.length} routes, ${casesRun} cases\n`);
  await api.stop();
});

/** `text` holds `value` as a whole token, not inside a longer id, alias or number. */
const containsToken = (text: string, value: string): boolean =>
  new RegExp(`(?<![A-Za-z0-9@._-])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_-])`).test(text);

/** Every `count` in an answer, however deep. */
const countsOf = (value: unknown): unknown[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([name, inner]) => (name === 'count' ? [inner] : countsOf(inner)));

async function askAsOther(route: RouteDefinition, sent: SampleRequest): Promise<ApiAnswer> {
  const answer = await sendSample(api, route, sent, { token: other.token });
  answersToOther.push({ route: route.name, sent, answer });
  return answer;
}

async function matrixOf(route: RouteDefinition): Promise<void> {
  const sample = sampleOf(route);
  const request = await sample.valid({ api, party: owner });

  for (const kind of BAD_TOKENS) {
    const authorization = await badAuthorization(api.runtime.issuer, kind, owner.clientId);
    const answer = await sendSample(api, route, request, { headers: authorization ? { authorization } : {} });
    expectProblem(answer, 401, 'UNAUTHORIZED', kind);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer/);
    casesRun += 1;
  }

  const withoutScope = await sendSample(api, route, request, {
    token: await tokenWithoutScopeOf(api.runtime.issuer, route, owner.clientId),
  });
  // No route takes any valid token, the sandbox's operator tools included (docs/security.md).
  expectProblem(withoutScope, 403, 'INSUFFICIENT_SCOPE', 'missing scope');
  casesRun += 1;

  const foreign = sample.foreign;
  if (foreign.kind === 'not-applicable') return;
  const answer = await askAsOther(route, request);
  if (foreign.kind === 'forbidden') expectProblem(answer, 403, 'FORBIDDEN', "other client's entity");
  else if (foreign.kind === 'not-found')
    expectProblem(answer, 404, 'NOT_FOUND', "another client's entity or a part of it");
  else if (foreign.kind === 'nothing-counted') {
    expect(answer.status).toBe(200);
    expect(countsOf(answer.body).length).toBeGreaterThan(0);
    expect(countsOf(answer.body).filter((count) => count !== 0)).toEqual([]);
  } else {
    expect(answer.status).toBe(200);
    expect(answer.body[foreign.collection]).toEqual([]);
  }
  casesRun += 1;
}

describe('every route x every way of being refused', () => {
  it.each(routes.map((route) => [`${route.method} ${route.paths[0]}`, route] as const))('%s', async (_, route) => {
    await matrixOf(route);
  });
});

describe("the other client's view", () => {
  it("lists none of the owner's data, and its own requests answer none of it", async () => {
    for (const route of routes) {
      const sample = sampleOf(route);
      // A list of the caller's own (its path names nothing of the owner's) is asked bare too.
      if (sample.list && !route.paths[0]!.includes('{')) await askAsOther(route, {});
      await askAsOther(route, await sample.valid({ api, party: other }));
    }
    const secrets = secretsOf(owner);
    // An answer may echo what its client sent (a 403 names the id asked for), nothing else of the owner's.
    const leaks = answersToOther.flatMap(({ route, sent, answer }) =>
      secrets
        .filter((secret) => !JSON.stringify(sent).includes(secret) && containsToken(answer.text, secret))
        .map((secret) => `${route}: ${secret}`),
    );
    expect(leaks).toEqual([]);
    expect(answersToOther.length).toBeGreaterThan(routes.length);
  });
});
