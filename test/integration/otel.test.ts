/**
 * OpenTelemetry tracing (shared/observability/otel.ts), read from an in-memory exporter: the spans a
 * traced handler records for calls to DynamoDB Local (what xray.test.ts checks of X-Ray's documents),
 * then the trace carried from one function to the next: by an SQS message's attributes through the
 * local queue and a worker's chain, and by an event's item through the dispatcher.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import middy from '@middy/core';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { TestTable } from '../support/dynamo-table';
import { OtelTracer } from '../../shared/observability/otel';

const LAMBDA_ENV = { AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand', _HANDLER: 'index.handler' };

const exporter = new InMemorySpanExporter();
const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
const saved = { ...process.env };
let table: TestTable;

const register = () => trace.setGlobalTracerProvider(provider);

beforeAll(async () => {
  // The process's tracer (shared/observability/telemetry.ts) is OpenTelemetry's for the modules
  // imported below, as on a stage with the ADOT layer, which registers all three before the handler loads.
  process.env['TRACING'] = 'otel';
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  register();
  const { createTestTable } = await import('../support/dynamo-table');
  table = await createTestTable('otel');
});
afterAll(async () => {
  await table.drop();
  trace.disable();
  context.disable();
  propagation.disable();
  process.env = saved;
});
beforeEach(() => {
  exporter.reset();
  Object.assign(process.env, LAMBDA_ENV);
});

/** Waits for `count` spans: a worker's run after the queue hands its message. */
async function spans(count: number, patienceMs = 5000): Promise<ReadableSpan[]> {
  for (let waited = 0; exporter.getFinishedSpans().length < count && waited < patienceMs; waited += 10) await sleep(10);
  return exporter.getFinishedSpans();
}

const named = (all: ReadableSpan[], name: string): ReadableSpan[] => all.filter((span) => span.name === name);
/** The one span of each name, in the order of the names. */
const byName = (all: ReadableSpan[], ...names: string[]): ReadableSpan[] =>
  names.map((name) => {
    const [span, ...more] = named(all, name);
    if (!span || more.length > 0) throw new Error(`Not one span named ${name}: ${all.map((s) => s.name).join(', ')}`);
    return span;
  });
const parentOf = (span: ReadableSpan | undefined): string | undefined => span?.parentSpanContext?.spanId;

/** The trace headers of the requests sent, as signed and sent (after the tracing middleware). */
const sentTraceHeaders: (string | undefined)[] = [];

function tracedFunction(
  tracer: OtelTracer,
  work: (client: DynamoDBClient, event: { calls?: number; status?: number }) => Promise<unknown>,
) {
  const client = tracer.captureAWSv3Client(new DynamoDBClient({ endpoint: table.endpoint, region: 'us-east-1' }));
  client.middlewareStack.add(
    (next) => async (args) => {
      sentTraceHeaders.push((args.request as { headers: Record<string, string> }).headers['traceparent']);
      return next(args);
    },
    { step: 'finalizeRequest' },
  );
  return tracer.traced(
    middy(async (event: { calls?: number; status?: number }) => {
      await work(client, event);
      return { statusCode: 200 };
    })
      .use(tracer.handlerMiddleware())
      // As shared/http's error handling: an error becomes an answer, whose status the tracer reads.
      .use({
        onError: (request) => {
          const status = (request.event as { status?: number }).status;
          if (status) request.response = { statusCode: status };
        },
      }),
  );
}

const getItem = (client: DynamoDBClient, TableName = table.tableName) =>
  client.send(new GetItemCommand({ TableName, Key: { pk: { S: 'none' }, sk: { S: 'none' } } }));

test('each invocation is a SERVER span and each DynamoDB call a CLIENT span under it, its context on the wire', async () => {
  sentTraceHeaders.length = 0;
  const tracer = new OtelTracer({ serviceName: 'breb-test' });
  expect(tracer.isTracingEnabled()).toBe(true);
  const handler = tracedFunction(tracer, (client) => getItem(client));

  await handler({}, {} as never);
  const [call, invocation] = byName(await spans(2), 'DynamoDB.GetItem', '## index.handler');

  expect(invocation).toMatchObject({
    name: '## index.handler',
    kind: SpanKind.SERVER,
    attributes: { 'faas.coldstart': true, 'service.name': 'breb-test', 'http.response.status_code': 200 },
    status: { code: SpanStatusCode.UNSET },
  });
  expect(call).toMatchObject({
    name: 'DynamoDB.GetItem',
    kind: SpanKind.CLIENT,
    attributes: {
      'rpc.system': 'aws-api',
      'rpc.service': 'DynamoDB',
      'rpc.method': 'GetItem',
      'aws.dynamodb.table_names': [table.tableName],
      'cloud.region': 'us-east-1',
      'http.response.status_code': 200,
      'aws.request_id': expect.any(String),
    },
  });
  expect(call!.spanContext().traceId).toBe(invocation!.spanContext().traceId);
  expect(parentOf(call)).toBe(invocation!.spanContext().spanId);
  // DynamoDB receives the call's place in the trace, as the registered propagator writes it.
  expect(sentTraceHeaders).toEqual([`00-${call!.spanContext().traceId}-${call!.spanContext().spanId}-01`]);

  // Later invocations of the same environment are warm, and each is a trace of its own.
  exporter.reset();
  await handler({}, {} as never);
  const [warm] = byName(await spans(2), '## index.handler');
  expect(warm!.attributes['faas.coldstart']).toBe(false);
  expect(warm!.spanContext().traceId).not.toBe(invocation!.spanContext().traceId);
});

test("a failed call is an error; an invocation's error is recorded, an error status only when it became a 5xx", async () => {
  const tracer = new OtelTracer({ serviceName: 'breb-test' });
  const handler = tracedFunction(tracer, (client) => getItem(client, 'no-such-table'));

  await expect(handler({}, {} as never)).rejects.toThrow();
  const [call, failed] = byName(await spans(2), 'DynamoDB.GetItem', '## index.handler');
  expect(call).toMatchObject({
    status: { code: SpanStatusCode.ERROR },
    attributes: { 'http.response.status_code': 400, 'error.type': 'ResourceNotFoundException' },
  });
  expect(call!.events.map((event) => event.attributes?.['exception.type'])).toEqual(['ResourceNotFoundException']);
  // No answer: the function failed.
  expect(failed).toMatchObject({ status: { code: SpanStatusCode.ERROR } });
  expect(failed!.events[0]!.attributes).toMatchObject({
    'exception.type': 'ResourceNotFoundException',
    'exception.stacktrace': expect.stringContaining('ResourceNotFoundException'),
  });

  exporter.reset();
  await handler({ status: 404 }, {} as never);
  const [answered404] = byName(await spans(2), '## index.handler');
  expect(answered404).toMatchObject({
    status: { code: SpanStatusCode.UNSET },
    attributes: { 'http.response.status_code': 404, 'error.type': 'ResourceNotFoundException' },
  });

  exporter.reset();
  await handler({ status: 503 }, {} as never);
  const [answered503] = byName(await spans(2), '## index.handler');
  expect(answered503).toMatchObject({
    status: { code: SpanStatusCode.ERROR },
    attributes: { 'http.response.status_code': 503 },
  });
});

test('invocations running at once in one process each keep their own calls', async () => {
  const tracer = new OtelTracer({ serviceName: 'breb-test' });
  const handler = tracedFunction(tracer, async (client, { calls = 0 }) => {
    for (let call = 0; call < calls; call += 1) {
      await sleep(5);
      await getItem(client);
    }
  });
  await Promise.all([handler({ calls: 1 }, {} as never), handler({ calls: 2 }, {} as never)]);
  const all = await spans(5);
  const invocations = named(all, '## index.handler');
  const calls = named(all, 'DynamoDB.GetItem');
  expect(invocations).toHaveLength(2);
  expect(calls).toHaveLength(3);
  const callsOf = invocations.map(
    (invocation) =>
      calls.filter(
        (call) =>
          parentOf(call) === invocation.spanContext().spanId &&
          call.spanContext().traceId === invocation.spanContext().traceId,
      ).length,
  );
  expect(callsOf.sort()).toEqual([1, 2]);
});

test('nothing is recorded nor sent without a provider', async () => {
  sentTraceHeaders.length = 0;
  trace.disable();
  try {
    const tracer = new OtelTracer({ serviceName: 'breb-test' });
    expect(tracer.isTracingEnabled()).toBe(false);
    await tracedFunction(tracer, (client) => getItem(client))({}, {} as never);
    expect(tracer.traceCarrier()).toEqual({});
  } finally {
    register();
  }
  expect(sentTraceHeaders).toEqual([undefined]);
  expect(exporter.getFinishedSpans()).toEqual([]);
});

test("a queue message carries its sender's trace, which the worker's span for it continues", async () => {
  const { installQueue, settlementQueue } = await import('../../shared/data/queues');
  const { dynamo, tableName } = await import('../../shared/data/client');
  const { GetCommand } = await import('@aws-sdk/lib-dynamodb');
  const { processMessage, workerHandler } = await import('../../shared/observability/worker-handler');
  const { tracer } = await import('../../shared/observability/telemetry');
  const { logger } = await import('../../shared/http/logger');
  const { LocalQueue } = await import('../../infra/local/local-queue');
  expect(tracer).toBeInstanceOf(OtelTracer);

  // A worker as functions/settle-payment.ts is one: its chain, each message's work in processMessage.
  const worker = workerHandler(logger, async (event: { Records: { messageId: string; body: string }[] }) => {
    for (const record of event.Records) {
      await processMessage('settlement', record, () =>
        dynamo().send(new GetCommand({ TableName: tableName(), Key: { pk: 'none', sk: 'none' } })),
      );
    }
  });
  const queue = new LocalQueue('settlement', worker);
  installQueue('settlement', queue);
  try {
    const sender = tracer.traced(
      middy(async () => {
        await settlementQueue().schedule('payment-1', 0);
        return { statusCode: 200 };
      }).use(tracer.handlerMiddleware()),
    );
    await sender({}, {} as never);
    const all = await spans(4);

    // The sender's invocation ends before the queue hands its message to the worker.
    const [sent, received] = named(all, '## index.handler');
    const [processed, call] = byName(all, 'process settlement', 'DynamoDB.GetItem');
    // The message's work joins the sender's trace; the worker's invocation, which may hold messages of
    // other traces, is linked to it.
    expect(processed).toMatchObject({
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'aws_sqs',
        'messaging.destination.name': 'settlement',
        'messaging.message.id': expect.any(String),
      },
    });
    expect(processed!.spanContext().traceId).toBe(sent!.spanContext().traceId);
    expect(parentOf(processed)).toBe(sent!.spanContext().spanId);
    expect(processed!.links.map((link) => link.context.spanId)).toEqual([received!.spanContext().spanId]);
    expect(received!.spanContext().traceId).not.toBe(sent!.spanContext().traceId);
    // The calls of the message's work hang from its span.
    expect(parentOf(call)).toBe(processed!.spanContext().spanId);
    expect(call!.spanContext().traceId).toBe(sent!.spanContext().traceId);
  } finally {
    installQueue('settlement', undefined);
    await queue.stop();
  }
});

test("an event's item keeps its writer's trace, which the dispatcher's span for it continues", async () => {
  const { eventPut, TRACE_CONTEXT_ATTRIBUTE } = await import('../../shared/data/events');
  const { withoutStorageAttributes } = await import('../../shared/data/item-keys');
  const { installQueue } = await import('../../shared/data/queues');
  const { tracer } = await import('../../shared/observability/telemetry');
  const { LocalQueue } = await import('../../infra/local/local-queue');
  const { lambdaContext } = await import('../../infra/local/lambda-context');
  const { handler: dispatch } = await import('../../functions/dispatch-events');

  const event = {
    id: 'evt_otel',
    tenant: 'tenant-without-webhooks',
    type: 'payment.settled' as const,
    created_at: new Date().toISOString(),
    data: {},
  };
  let item: Record<string, unknown> = {};
  await tracer.traced(
    middy(async () => {
      item = eventPut(event).Put!.Item!;
      return { statusCode: 200 };
    }).use(tracer.handlerMiddleware()),
  )({}, {} as never);
  const [writer] = byName(await spans(1), '## index.handler');
  const traceContext = item[TRACE_CONTEXT_ATTRIBUTE] as { traceparent: string };
  expect(traceContext.traceparent).toBe(`00-${writer!.spanContext().traceId}-${writer!.spanContext().spanId}-01`);
  // Never part of the event a reader or a webhook sees.
  expect(withoutStorageAttributes(item)).toEqual(event);

  const deliveries = new LocalQueue('webhookDeliveries', async () => undefined);
  installQueue('webhookDeliveries', deliveries);
  try {
    exporter.reset();
    const record = { eventName: 'INSERT', dynamodb: { NewImage: marshall(item), SequenceNumber: '1' } };
    // A Lambda context with its time left: the dispatcher takes no record it might not finish.
    const invocation = lambdaContext('dispatchEvents', undefined, 60_000);
    await expect(dispatch({ Records: [record] } as DynamoDBStreamEvent, invocation)).resolves.toEqual({
      batchItemFailures: [],
    });
    const all = await spans(3);
    const [dispatched, lookup] = byName(all, 'dispatch event', 'DynamoDB.Query');
    expect(dispatched).toMatchObject({
      kind: SpanKind.CONSUMER,
      attributes: { 'event.id': event.id, 'event.type': event.type },
    });
    expect(dispatched!.spanContext().traceId).toBe(writer!.spanContext().traceId);
    expect(parentOf(dispatched)).toBe(writer!.spanContext().spanId);
    // The subscribed webhooks' lookup is part of it.
    expect(parentOf(lookup)).toBe(dispatched!.spanContext().spanId);
  } finally {
    installQueue('webhookDeliveries', undefined);
    await deliveries.stop();
  }
});

test('TRACING picks the tracer: X-Ray by default, OpenTelemetry when asked, nothing else', async () => {
  const { tracerFor } = await import('../../shared/observability/telemetry');
  const { XRayTracer } = await import('../../shared/observability/xray');
  const options = { serviceName: 'breb-test' };
  expect(tracerFor(undefined, options)).toBeInstanceOf(XRayTracer);
  expect(tracerFor('xray', options)).toBeInstanceOf(XRayTracer);
  expect(tracerFor('otel', options)).toBeInstanceOf(OtelTracer);
  expect(() => tracerFor('adot', options)).toThrow('TRACING must be xray or otel, not "adot"');
});
