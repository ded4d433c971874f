/**
 * Our use of Powertools' Logger and Metrics (shared/http/logger.ts, shared/http/observability.ts,
 * infra/local/lambda-context.ts): a route's request writes its line with its Lambda context, and its
 * EMF lines (the ColdStart first, then its Responses by route and status class); an error of another
 * realm keeps only its allowed fields; and invocations running side by side in one process, as the
 * local runtime runs them (Lambda Managed Instances' InvokeStore), each log their own context and
 * publish their own metrics.
 */
import { runInNewContext } from 'node:vm';
import { jest } from '@jest/globals';
import type { Context } from 'aws-lambda';
import type { ApiContext, ApiEvent } from '../../shared/http/middlewares';

// Metrics on and request lines logged, as in Lambda, and this environment started by a request: set
// before the modules read them.
process.env['POWERTOOLS_METRICS_DISABLED'] = 'false';
process.env['POWERTOOLS_LOG_LEVEL'] = 'INFO';
process.env['AWS_LAMBDA_INITIALIZATION_TYPE'] = 'on-demand';
const { httpHandler } = await import('../../shared/http/handler');
const { logger } = await import('../../shared/http/logger');
const { invokeWithin } = await import('../../infra/local/lambda-context');

const event = (path: string): ApiEvent =>
  ({
    version: '2.0',
    routeKey: `GET ${path}`,
    rawPath: path,
    headers: {},
    requestContext: {
      requestId: 'req-1',
      http: { method: 'GET' },
      authorizer: { jwt: { claims: { client_id: 'tenant-a' }, scopes: [] } },
    },
  }) as unknown as ApiEvent;

type Line = Record<string, unknown>;

/** The JSON lines written to stdout and stderr while `act` runs. */
async function linesOf(act: () => Promise<unknown>): Promise<Line[]> {
  const chunks: string[] = [];
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => chunks.push(String(chunk)) > 0),
    jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => chunks.push(String(chunk)) > 0),
  ];
  try {
    await act();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return chunks
    .flatMap((chunk) => chunk.split('\n'))
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Line);
}

const isEmf = (line: Line): boolean => '_aws' in line;
const metricNamesOf = (line: Line): string[] =>
  (line['_aws'] as { CloudWatchMetrics: { Metrics: { Name: string }[] }[] }).CloudWatchMetrics[0]!.Metrics.map(
    (metric) => metric.Name,
  );

/** A route that answers after `waitMs`, so that invocations started together overlap. */
function slowRoute(name: string, waitMs: number) {
  const route = httpHandler({
    name,
    handle: () => new Promise((resolve) => setTimeout(() => resolve({ ok: true }), waitMs)),
  });
  return (request: ApiEvent, context: Context) => route(request, context as ApiContext);
}

test("a route's request: its line with its Lambda context, the ColdStart once, its Responses metric", async () => {
  const route = slowRoute('getProbe', 1);
  const lines = await linesOf(async () => {
    await invokeWithin(route, event('/v1/probe'), 'getProbe', 1_000, 'request-1');
    await invokeWithin(route, event('/v1/probe'), 'getProbe', 1_000, 'request-2');
  });
  const logged = lines.filter((line) => !isEmf(line));
  expect(logged).toEqual([
    expect.objectContaining({
      message: 'request',
      function_name: 'getProbe',
      function_request_id: 'request-1',
      status: 200,
    }),
    expect.objectContaining({ message: 'request', function_request_id: 'request-2', cold_start: false }),
  ]);
  const emf = lines.filter(isEmf);
  expect(emf.map(metricNamesOf)).toEqual([['ColdStart'], ['Responses'], ['Responses']]);
  expect(emf[1]).toMatchObject({ service: expect.any(String), route: 'getProbe', status: '2xx', Responses: 1 });
});

test('invocations side by side each log their own context and publish their own metrics', async () => {
  const fast = slowRoute('fastProbe', 5);
  const slow = slowRoute('slowProbe', 30);
  const lines = await linesOf(() =>
    Promise.all([
      invokeWithin(slow, event('/v1/slow'), 'slowProbe', 1_000, 'slow-request'),
      invokeWithin(fast, event('/v1/fast'), 'fastProbe', 1_000, 'fast-request'),
    ]),
  );
  // Without the invocation's own store, the slow request's line would name the fast one's context.
  expect(lines.filter((line) => line['message'] === 'request')).toEqual([
    expect.objectContaining({
      function_name: 'fastProbe',
      function_request_id: 'fast-request',
      route: expect.anything(),
    }),
    expect.objectContaining({ function_name: 'slowProbe', function_request_id: 'slow-request' }),
  ]);
  // Each published its own Responses, once, under its own route.
  expect(
    lines
      .filter((line) => isEmf(line) && metricNamesOf(line).includes('Responses'))
      .map((line) => [line['route'], line['Responses']]),
  ).toEqual([
    ['fastProbe', 1],
    ['slowProbe', 1],
  ]);
});

test('an error of another realm keeps only its allowed fields', async () => {
  const foreign = runInNewContext(
    "Object.assign(new Error('condition failed'), { name: 'ConditionalCheckFailedException', Item: { name: 'Ana María' }, $metadata: { requestId: 'R1' } })",
  ) as Error;
  expect(foreign instanceof Error).toBe(false);
  const [line] = await linesOf(async () => logger.error('unexpected error', { error: foreign }));
  expect(line).toMatchObject({
    message: 'unexpected error',
    error: { name: 'ConditionalCheckFailedException', message: 'condition failed', request_id: 'R1' },
  });
  expect(JSON.stringify(line)).not.toContain('Ana María');
});
