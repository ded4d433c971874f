/**
 * The observability layer of every handler, outermost in the Middy chain so that it sees the final
 * answer (problem+json included): the invocation's Lambda context on every log line (Powertools'
 * injectLambdaContext), a trace of every invocation (the process's Tracer,
 * shared/observability/tracer.ts), and one `Responses` metric per request by route and status class,
 * flushed as EMF by Powertools' logMetrics, with a ColdStart metric on an environment's first request.
 */
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { MiddlewareObj } from '@middy/core';
import { metrics, tracer } from '../observability/telemetry';
import { logger } from './logger';
import type { ApiContext, ApiEvent } from './middlewares';
import type { HttpResponse } from './responses';

type ApiMiddleware = MiddlewareObj<ApiEvent, HttpResponse, Error, ApiContext>;

export const RESPONSES_METRIC = 'Responses';

/** '2xx', '4xx', '5xx': a few dimension values, so a handful of custom metrics per route. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** Counts the answer of each request; runs inside logMetrics, which publishes what it adds. */
function responseMetric(routeName: string): ApiMiddleware {
  const record = (response: HttpResponse | null | undefined): void => {
    const status = response?.statusCode ?? 500;
    metrics.addDimensions({ route: routeName, status: statusClass(status) });
    metrics.addMetric(RESPONSES_METRIC, MetricUnit.Count, 1);
  };
  return {
    after: (request) => record(request.response),
    onError: (request) => record(request.response),
  };
}

export function observability(routeName: string): ApiMiddleware[] {
  return [
    // Never logEvent: events carry bodies and headers (personal data, the bearer token).
    // Responses hold customers' data: traces keep timings and errors, never bodies.
    injectLambdaContext(logger, { resetKeys: true }) as ApiMiddleware,
    tracer.handlerMiddleware(),
    logMetrics(metrics, { captureColdStartMetric: true }) as ApiMiddleware,
    responseMetric(routeName),
  ];
}
