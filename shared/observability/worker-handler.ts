/**
 * The Middy chain of the functions that no route calls (the queue and stream consumers): the logger's
 * Lambda context, a trace of each invocation and its metrics, as every route has (shared/http/
 * observability.ts), around a handler of any event. (No ColdStart metric: Lambda's own Init Duration
 * tells a consumer's cold starts.)
 */
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import type { EmfMetrics } from './emf-metrics';
import { injectLambdaContext, type JsonLogger } from './json-logger';
import { metrics, tracer } from './telemetry';

export function workerHandler<Event, Result>(
  logger: JsonLogger,
  handle: (event: Event, context: Context) => Promise<Result>,
) {
  return middy<Event, Result, Error, Context>(handle)
    .use(injectLambdaContext(logger))
    .use(tracer.handlerMiddleware())
    .use(publishAddedMetrics(metrics));
}

/**
 * A worker adds metrics only for some outcomes: unlike a route's chain (logMetrics, which always has
 * its Responses metric), it publishes only when there is something to publish, silently otherwise.
 */
function publishAddedMetrics(metrics: EmfMetrics): middy.MiddlewareObj {
  const publish = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: publish, onError: publish };
}
