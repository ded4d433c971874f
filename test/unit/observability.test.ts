/**
 * The Powertools layer of every handler (shared/http/observability.ts): one `Responses` metric per
 * request by route and status class, silent outside Lambda, and DynamoDB traced only when tracing is on.
 */
import { jest } from '@jest/globals';
import { createDynamoDbClient } from '../../shared/data/client';
import { AppError } from '../../shared/domain/errors';
import { httpHandler } from '../../shared/http/handler';
import { logger } from '../../shared/http/logger';
import type { ApiContext, ApiEvent } from '../../shared/http/middlewares';
import { RESPONSES_METRIC, statusClass } from '../../shared/http/observability';
import { metrics, tracer } from '../../shared/observability/telemetry';

const event = (claims: Record<string, string> | undefined): ApiEvent =>
  ({
    version: '2.0',
    routeKey: 'GET /v1/probe',
    rawPath: '/v1/probe',
    headers: {},
    requestContext: {
      requestId: 'req-1',
      http: { method: 'GET' },
      ...(claims ? { authorizer: { jwt: { claims, scopes: [] } } } : {}),
    },
  }) as unknown as ApiEvent;

const context = {
  functionName: 'probe',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:probe',
  memoryLimitInMB: '512',
  awsRequestId: 'aws-1',
  getRemainingTimeInMillis: () => 1000,
} as unknown as ApiContext;

const probe = (handle: () => Promise<unknown>) => httpHandler({ name: 'probe', handle });

afterEach(() => jest.restoreAllMocks());

test('outside Lambda, metrics and tracing are off', () => {
  expect(process.env['AWS_LAMBDA_FUNCTION_NAME']).toBeUndefined();
  expect(process.env['POWERTOOLS_METRICS_DISABLED']).toBe('true');
  expect(tracer.isTracingEnabled()).toBe(false);
});

test.each([
  ['a success', async () => ({ ok: true }), { claims: { client_id: 'tenant-a' } }, 200, '2xx'],
  [
    'a rule violation',
    async () => Promise.reject(new AppError('NOT_FOUND', 'none')),
    { claims: { client_id: 'a' } },
    404,
    '4xx',
  ],
  ['a missing token', async () => ({ ok: true }), { claims: undefined }, 401, '4xx'],
  ['a crash', async () => Promise.reject(new Error('boom')), { claims: { client_id: 'a' } }, 500, '5xx'],
] as const)('%s counts one response of its status class', async (_what, handle, { claims }, status, expected) => {
  const addMetric = jest.spyOn(metrics, 'addMetric');
  const addDimensions = jest.spyOn(metrics, 'addDimensions');
  const publish = jest.spyOn(metrics, 'publishStoredMetrics');
  const stdout = jest.spyOn(process.stdout, 'write');
  // The crash is logged as an unexpected error: expected here, and kept out of the report.
  jest.spyOn(logger, 'error').mockImplementation(() => undefined);

  const response = await probe(handle)(event(claims), context);

  expect(response.statusCode).toBe(status);
  expect(addDimensions).toHaveBeenCalledWith({ route: 'probe', status: expected });
  expect(addMetric).toHaveBeenCalledWith(RESPONSES_METRIC, 'Count', 1);
  expect(publish).toHaveBeenCalled();
  // Disabled metrics print nothing (no EMF line, no "no metrics" warning).
  expect(stdout.mock.calls.filter(([line]) => String(line).includes('_aws'))).toEqual([]);
});

test('status classes', () => {
  expect([200, 204, 400, 409, 500, 503].map(statusClass)).toEqual(['2xx', '2xx', '4xx', '4xx', '5xx', '5xx']);
});

test('the DynamoDB client is traced only when tracing is on', () => {
  const capture = jest.spyOn(tracer, 'captureAWSv3Client');
  createDynamoDbClient('http://127.0.0.1:1').destroy();
  expect(capture).not.toHaveBeenCalled();

  jest.spyOn(tracer, 'isTracingEnabled').mockReturnValue(true);
  capture.mockImplementation((client) => client);
  createDynamoDbClient('http://127.0.0.1:1').destroy();
  expect(capture).toHaveBeenCalledTimes(1);
});

test.each([
  [
    "a person's token: the person and their tenant",
    { sub: 'person-1', tenant: 'tenant-a', client_id: 'dashboard' },
    'person-1',
    'tenant-a',
  ],
  ["a machine's token: the client, both", { sub: 'client-a', client_id: 'client-a' }, 'client-a', 'client-a'],
] as const)('the request line names who asked, %s', async (_what, claims, sub, tenant) => {
  const info = jest.spyOn(logger, 'info').mockImplementation(() => undefined);
  const response = await probe(async () => ({ ok: true }))(event(claims), context);
  expect(response.statusCode).toBe(200);
  expect(response.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  expect(info).toHaveBeenCalledWith('request', expect.objectContaining({ sub, tenant, status: 200 }));
});
