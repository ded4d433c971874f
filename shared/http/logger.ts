/**
 * The structured logger of every function. What is logged is chosen field by field (route, status,
 * client id, error code, timings): bodies, headers and identifiers of people never reach a log line.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from '../config';

export const logger = new Logger({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME });
