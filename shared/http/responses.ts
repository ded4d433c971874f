/** HTTP answers of the Lambda functions (API Gateway HTTP API, payload format 2.0). */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError, RetryLater } from '../domain/errors';
import { logger } from './logger';
import { PROBLEM_CONTENT_TYPE, problemOf } from './problem';
import { invalidFields } from './validation';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

/**
 * On every answer of the API, errors included (httpResponses, and the local server's own): an answer
 * is one client's data, never a page to sniff into HTML nor one for a shared or browser cache to keep.
 */
export const API_ANSWER_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

export const jsonResponse = (statusCode: number, body: unknown): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export { RetryLater };

/** Names of AWS SDK errors that mean "DynamoDB is not answering now", not "the request is wrong". */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * When a socket error comes from another realm than the SDK (a VM context, as under jest), the SDK's
 * retry layer does not see an Error and rethrows `new Error('AWS SDK error wrapper for <error>')`:
 * only the message still names the code.
 */
const WRAPPED_NETWORK_ERROR = new RegExp(`^AWS SDK error wrapper for .*\\b(${[...NETWORK_CODES].join('|')})\\b`);

function isUnavailable(error: unknown): boolean {
  // Shape, not instanceof: errors raised by Node's own sockets may come from another realm.
  const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: unknown };
  return (
    (name !== undefined && UNAVAILABLE.has(name)) ||
    (code !== undefined && NETWORK_CODES.has(code)) ||
    (typeof message === 'string' && WRAPPED_NETWORK_ERROR.test(message))
  );
}

/**
 * The refusals of @middy/http-json-body-parser (shared/http/middlewares.ts, jsonBody), in the API's
 * codes: Middy's HTTP errors name their package in `cause`. A key the parser forbids (`__proto__`, a
 * `constructor` holding a `prototype`) is in no schema of the API, so it is the field that is not
 * allowed, as the validation would have answered; the parser names the key but not its path.
 */
function fromBodyParserError(error: unknown): AppError | undefined {
  const { statusCode, message, cause } = (error ?? {}) as {
    statusCode?: number;
    message?: string;
    cause?: { package?: string; data?: unknown };
  };
  if (cause?.package !== '@middy/http-json-body-parser') return undefined;
  if (statusCode === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  if (message === 'Forbidden key in JSON body') {
    return invalidFields('body', [{ field: String(cause.data), message: 'is not allowed' }]);
  }
  if (cause.data === undefined || cause.data === '') {
    return new AppError('MALFORMED_JSON', 'The request needs a JSON body');
  }
  return new AppError('MALFORMED_JSON', 'The body could not be parsed as JSON');
}

/** Turns any error into a problem+json answer; unexpected ones are logged, never shown. */
export function errorResponse(error: unknown, requestId: string): HttpResponse {
  let known = error instanceof AppError ? error : fromBodyParserError(error);
  const headers: Record<string, string> = { 'content-type': PROBLEM_CONTENT_TYPE };
  if (error instanceof RetryLater) headers['retry-after'] = String(error.retryAfterSeconds);
  if (!known) {
    if (isUnavailable(error)) {
      logger.warn('dependency unavailable', {
        error_name: (error as Error).name,
        error_code: (error as { code?: string }).code,
      });
      known = new AppError('SERVICE_UNAVAILABLE', 'The data store did not answer in time; retry the request');
      headers['retry-after'] = '1';
    } else {
      logger.error('unexpected error', error as Error);
      known = new AppError('INTERNAL_ERROR', `An unexpected error occurred; quote request id ${requestId}`);
    }
  }
  const problem = problemOf(known, requestId);
  if (problem.status === 401) headers['www-authenticate'] = 'Bearer';
  return { statusCode: problem.status, headers, body: JSON.stringify(problem) };
}
