/**
 * The local server enforces the route table's timeout as Lambda does (issue 27, finding 8): a handler
 * that has not answered when its timeout passes is failed, and the request answers 503 through the
 * real server, with a real token, instead of hanging as long as the handler does. A handler within
 * its timeout answers as usual; the deployed timeout is the default.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Server } from 'node:http';
import { routes, ROUTE_TIMEOUT_SECONDS } from '../../functions/routes';
import { LocalIssuer } from '../../infra/local/oauth';
import { createLocalApi, listen, type LambdaHandler } from '../../infra/local/server';
import { invokeWithin, LambdaTimeout } from '../../infra/local/lambda-context';
import { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } from '../../infra/local/dynamodb-local';
import { dynamodbRequestTimeoutOf } from '../../infra/local/runtime';
import { DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS } from '../../shared/runtime/config';
import { claimsOf } from '../support/tokens';

const listWebhooks = routes.find((route) => route.name === 'listWebhooks')!;
const servers: Server[] = [];
afterAll(() =>
  servers.forEach((server) => {
    server.closeAllConnections();
    server.close();
  }),
);

/** The local server with every route's handler answering after `delayMs`, and the route timeout given. */
async function serverWith(delayMs: number, routeTimeoutMs: number) {
  const { server, url, serve } = await listen(0);
  servers.push(server);
  const issuer = await LocalIssuer.create({ issuer: url });
  const slow: LambdaHandler = async () => {
    // Unref'd: a handler left behind by its timeout keeps no test process alive.
    await sleep(delayMs, undefined, { ref: false });
    return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"data":[]}' };
  };
  serve(
    await createLocalApi({
      issuer,
      sandboxEnabled: false,
      routes: [listWebhooks],
      loadHandler: async () => slow,
      routeTimeoutMs,
    }),
  );
  const token = await issuer.sign(claimsOf('sandbox-client-a', listWebhooks.scopes));
  return { url, token };
}

test('a route past its timeout answers 503 when the timeout passes, not when the handler would', async () => {
  // The handler would take 10 s: an answer within 5 s came from the timeout, however loaded the machine
  // (CI's load made a 1.5 s bound on a 2 s handler fail).
  const { url, token } = await serverWith(10_000, 100);
  const started = performance.now();
  const response = await fetch(`${url}/v1/webhooks`, { headers: { authorization: `Bearer ${token}` } });
  const elapsed = performance.now() - started;
  expect(response.status).toBe(503);
  expect(await response.json()).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    detail: 'The function did not answer within its timeout',
  });
  expect(elapsed).toBeGreaterThanOrEqual(95);
  expect(elapsed).toBeLessThan(5_000);
});

test('a route within its timeout answers as its handler does', async () => {
  const { url, token } = await serverWith(10, 1_000);
  const response = await fetch(`${url}/v1/webhooks`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ data: [] });
});

test("a worker's invocation gets a context counting down its timeout, and fails with LambdaTimeout past it", async () => {
  const remaining: number[] = [];
  const answer = invokeWithin(
    async (_event: unknown, context) => {
      remaining.push(context.getRemainingTimeInMillis());
      await sleep(500, undefined, { ref: false });
      return 'late';
    },
    {},
    'worker',
    50,
  );
  await expect(answer).rejects.toBeInstanceOf(LambdaTimeout);
  expect(remaining[0]).toBeLessThanOrEqual(50);
  expect(remaining[0]).toBeGreaterThan(0);
  await expect(invokeWithin(async () => 'on time', {}, 'worker', 50)).resolves.toBe('on time');
  // The deployed route timeout the server uses when none is given (infra/constructs/api-function.ts).
  expect(ROUTE_TIMEOUT_SECONDS).toBe(10);
});

test("the local runtime bounds a function's DynamoDB call as Lambda does, unless told otherwise", () => {
  // `npm start` gives none: a call DynamoDB is slow to answer fails locally as it would deployed.
  expect(dynamodbRequestTimeoutOf({})).toBe(DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS);
  expect(DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS).toBe(1_000);
  // The test suites, which load the machine, give DynamoDB Local more.
  expect(dynamodbRequestTimeoutOf({ dynamodbRequestTimeoutMs: DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS })).toBe(15_000);
});
