/** HTTP answers of the Lambda functions (API Gateway HTTP API, payload format 2.0). */
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { AppError, type ErrorCode } from '../domain/errors';
import { logger } from './logger';
import { PROBLEM_CONTENT_TYPE, problemOf } from './problem';

export type HttpResponse = APIGatewayProxyStructuredResultV2 & {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
};

export const jsonResponse = (statusCode: number, body: unknown): HttpResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** A refusal the client may send again once `retryAfterSeconds` have passed: answered with Retry-After. */
export class RetryLater extends AppError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, detail);
  }
}

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

/** Turns any error into a problem+json answer; unexpected ones are logged, never shown. */
export function errorResponse(error: unknown, requestId: string): HttpResponse {
  let known = error instanceof AppError ? error : undefined;
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
