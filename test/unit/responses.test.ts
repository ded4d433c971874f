/** Every failure becomes one problem+json answer with the right status, and nothing leaks. */
import { jest } from '@jest/globals';
import { ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { AppError, invalidField } from '../../shared/domain/errors';
import { logger } from '../../shared/http/logger';
import { PROBLEM_CONTENT_TYPE } from '../../shared/http/problem';
import { errorResponse, jsonResponse, type HttpResponse } from '../../shared/http/responses';

const REQUEST_ID = 'req-123';
const bodyOf = (response: HttpResponse): Record<string, any> => JSON.parse(response.body);

let errorLog: ReturnType<typeof jest.spyOn>;
let warnLog: ReturnType<typeof jest.spyOn>;
beforeEach(() => {
  errorLog = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
  warnLog = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

test('jsonResponse answers JSON with the status', () => {
  expect(jsonResponse(200, { id: 'x' })).toEqual({
    statusCode: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"id":"x"}',
  });
});

describe('AppError', () => {
  test('becomes problem+json with the status of its code', () => {
    const response = errorResponse(
      new AppError('CUSTOMER_ALREADY_LINKED', 'Already linked', { customer_id: 'c-1' }),
      REQUEST_ID,
    );
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toBe(PROBLEM_CONTENT_TYPE);
    expect(bodyOf(response)).toMatchObject({
      status: 409,
      code: 'CUSTOMER_ALREADY_LINKED',
      detail: 'Already linked',
      customer_id: 'c-1',
      request_id: REQUEST_ID,
    });
  });

  test('a validation failure carries its field errors', () => {
    const response = errorResponse(invalidField('email', 'must match format "email"'), REQUEST_ID);
    expect(response.statusCode).toBe(400);
    expect(bodyOf(response).errors).toEqual([{ field: 'email', message: 'must match format "email"' }]);
  });

  test.each([
    ['NOT_FOUND', 404],
    ['FORBIDDEN', 403],
    ['PAYLOAD_TOO_LARGE', 413],
    ['METHOD_NOT_ALLOWED', 405],
  ] as const)('%s answers %d', (code, status) => {
    const response = errorResponse(new AppError(code, 'x'), REQUEST_ID);
    expect(response.statusCode).toBe(status);
    expect(bodyOf(response).code).toBe(code);
  });

  test('401 carries www-authenticate: Bearer, other statuses do not', () => {
    expect(errorResponse(new AppError('UNAUTHORIZED', 'No token'), REQUEST_ID).headers['www-authenticate']).toBe(
      'Bearer',
    );
    expect(errorResponse(new AppError('INSUFFICIENT_SCOPE', 'x'), REQUEST_ID).headers).not.toHaveProperty(
      'www-authenticate',
    );
  });

  test('is an answer, not an incident: nothing is logged', () => {
    errorResponse(new AppError('NOT_FOUND', 'x'), REQUEST_ID);
    expect(errorLog).not.toHaveBeenCalled();
    expect(warnLog).not.toHaveBeenCalled();
  });
});

describe('the data store not answering', () => {
  test.each([
    [
      'an SDK ProvisionedThroughputExceededException',
      new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }),
    ],
    ['an error named ThrottlingException', Object.assign(new Error('throttled'), { name: 'ThrottlingException' })],
    [
      'an error named ProvisionedThroughputExceededException',
      Object.assign(new Error('x'), { name: 'ProvisionedThroughputExceededException' }),
    ],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' })],
    ['ETIMEDOUT', Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })],
    [
      "the SDK's wrapper of a socket error from another realm",
      new Error('AWS SDK error wrapper for Error: connect ECONNREFUSED 127.0.0.1:46841'),
    ],
  ])('%s is 503 with retry-after', (_what, error) => {
    const response = errorResponse(error, REQUEST_ID);
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('1');
    expect(bodyOf(response)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', request_id: REQUEST_ID });
    expect(response.body).not.toContain('127.0.0.1');
    expect(warnLog).toHaveBeenCalledTimes(1);
  });
});

describe('unexpected errors', () => {
  test('any other Error is 500 INTERNAL_ERROR without its message, and is logged', () => {
    const error = new Error('secret: arn:aws:dynamodb:us-east-1:123456789012:table/breb NIT 900123456');
    const response = errorResponse(error, REQUEST_ID);
    expect(response.statusCode).toBe(500);
    expect(response.headers).not.toHaveProperty('retry-after');
    const body = bodyOf(response);
    expect(body).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', request_id: REQUEST_ID });
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('900123456');
    expect(response.body).not.toContain('arn:aws');
    expect(response.body).not.toMatch(/at .*\.ts:\d+/);
    expect(body.detail).toContain(REQUEST_ID);
    expect(errorLog).toHaveBeenCalledWith('unexpected error', error);
  });

  test.each([
    ['a string', 'boom'],
    ['undefined', undefined],
    ['a plain object', { message: 'leak me' }],
  ])('is 500 too when %s is thrown', (_what, thrown) => {
    const response = errorResponse(thrown, REQUEST_ID);
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('leak me');
  });
});

describe("HTTP errors of Middy's other packages", () => {
  // Only @middy/http-json-body-parser's refusals are the client's fault (test/unit/json-body.test.ts).
  test.each([
    ['another package', { package: '@middy/http-content-negotiation' }],
    ['no package', undefined],
  ])('a 415 or 422 from %s is 500 INTERNAL_ERROR', (_what, cause) => {
    for (const statusCode of [415, 422]) {
      const error = Object.assign(new Error('Unsupported Media Type', { cause }), { statusCode, expose: true });
      expect(bodyOf(errorResponse(error, REQUEST_ID))).toMatchObject({ status: 500, code: 'INTERNAL_ERROR' });
    }
  });
});
