/**
 * The Middy chain of the functions that no route calls (the queue and stream consumers): the logger's
 * Lambda context, a trace of each invocation and its metrics, as every route has (shared/http/
 * observability.ts), around a handler of any event. (No ColdStart metric: Lambda's own Init Duration
 * tells a consumer's cold starts.) Each message or event of a batch is handled in a span of its own
 * that continues the trace of the request that sent it (processMessage, processEvent).
 */
import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { metrics, tracer } from './telemetry';
import type { TraceCarrier } from './tracer';

export function workerHandler<Event, Result>(
  logger: Logger,
  handle: (event: Event, context: Context) => Promise<Result>,
) {
  const chain = middy<Event, Result, Error, Context>(handle)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(tracer.handlerMiddleware())
    .use(publishAddedMetrics(metrics));
  // Each invocation in a tracing context of its own, as a route's (shared/http/handler.ts): without
  // it the handler middleware has no invocation to record, nor the clients a parent.
  return tracer.traced(chain);
}

/** An SQS message as Lambda hands it: its id and its message attributes (lower-camel, as Lambda names them). */
export interface QueueRecord {
  readonly messageId: string;
  readonly messageAttributes?: Readonly<Record<string, { readonly stringValue?: string | undefined }>>;
}

/**
 * The trace context a message's attributes carry (shared/data/queues.ts), by lower-case name as
 * propagators read HTTP headers.
 */
export function messageTraceContext(record: QueueRecord): TraceCarrier {
  return Object.fromEntries(
    Object.entries(record.messageAttributes ?? {}).flatMap(([name, attribute]) =>
      attribute.stringValue === undefined ? [] : [[name.toLowerCase(), attribute.stringValue]],
    ),
  );
}

/** Runs the work of one message of `queue` in a span continuing the trace of the request that sent it. */
export function processMessage<Result>(queue: string, record: QueueRecord, work: () => Promise<Result>) {
  return tracer.continueTrace(
    messageTraceContext(record),
    `process ${queue}`,
    {
      'messaging.system': 'aws_sqs',
      'messaging.operation.type': 'process',
      'messaging.destination.name': queue,
      'messaging.message.id': record.messageId,
    },
    work,
  );
}

/** Runs the work of one event of the outbox in a span continuing the trace of the request that wrote it. */
export function processEvent<Result>(
  traceContext: TraceCarrier | undefined,
  event: { readonly id: string; readonly type: string },
  work: () => Promise<Result>,
) {
  return tracer.continueTrace(traceContext, 'dispatch event', { 'event.id': event.id, 'event.type': event.type }, work);
}

/**
 * A worker adds metrics only for some outcomes: unlike a route's chain (logMetrics, which always has
 * its Responses metric), it publishes only when there is something to publish, silently otherwise.
 */
function publishAddedMetrics(metrics: Metrics): middy.MiddlewareObj {
  const publish = () => {
    if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
  };
  return { after: publish, onError: publish };
}
