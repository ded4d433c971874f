/**
 * The observability layer of every handler, outermost in the Middy chain so that it sees the final
 * answer (problem+json included): a trace of every invocation (the process's Tracer, shared/observability/tracer.ts), and one `Responses` metric
 * per request by route and status class, flushed as EMF (shared/observability/emf-metrics.ts), with a ColdStart
 * metric on an environment's first request. The logger's Lambda context is set around the whole chain
 * (shared/http/handler.ts), scoped to each call.
 */
import type { MiddlewareObj } from '@middy/core';
import { logMetrics, MetricUnit } from '../observability/emf-metrics';
import { metrics, tracer } from '../observability/telemetry';
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
    tracer.handlerMiddleware(),
    logMetrics(metrics),
    responseMetric(routeName),
  ];
}
