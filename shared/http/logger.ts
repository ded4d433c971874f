/**
 * The structured logger of every function: Powertools' Logger. What is logged is chosen field by
 * field (route, status, client id, error code, timings): bodies, headers and identifiers of people
 * never reach a log line. An error anywhere in an entry keeps only its allowed fields
 * (shared/observability/loggable-error.ts): Powertools would write every field of it, an AWS SDK
 * error's item images with them.
 *
 * Its per-invocation state (the Lambda context, the keys) lives in Lambda's InvokeStore where
 * invocations share a process (AWS_LAMBDA_MAX_CONCURRENCY): Lambda Managed Instances, and the local
 * runtime, which runs every invocation so (infra/local/lambda-context.ts).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../runtime/config';
import { loggable } from '../observability/loggable-error';

export const logger = new Logger({
  serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME,
  // Before Powertools' own error formatting, and for errors of another realm too (a Node system error
  // seen from a Jest module is no `instanceof Error` there).
  jsonReplacerFn: (_key, value) => loggable(value),
});
