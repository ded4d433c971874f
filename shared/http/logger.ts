/**
 * The structured logger of every function. What is logged is chosen field by field (route, status,
 * client id, error code, timings): bodies, headers and identifiers of people never reach a log line.
 * An error logged keeps only its allowed fields (shared/observability/loggable-error.ts).
 */
import { SERVICE_NAME } from '../runtime/config';
import { JsonLogger } from '../observability/json-logger';

export const logger = new JsonLogger({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME });
