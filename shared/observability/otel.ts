/**
 * The functions' Tracer (tracer.ts) over the OpenTelemetry API alone (docs/tracing.md, step 1): the
 * spans are recorded by whatever provider the process registered (the ADOT Lambda layer on a stage
 * that asks for it; the tests' in-memory exporter), and cost nothing but a few no-op calls when none is.
 *
 * - a SERVER span per invocation, named as X-Ray's subsegment was (`## <handler>`), with the cold
 *   start and the service; an error that reaches the handler's error handling is recorded as an
 *   exception, with the HTTP status it became. As OpenTelemetry's HTTP conventions ask, only an
 *   error that became a 5xx (or no answer) sets the span's error status: a 4xx is the client's
 *   error, which X-Ray shows as such from the status. The answer itself is never recorded: it holds
 *   customers' data.
 * - a CLIENT span per call of a captured AWS SDK client, with the attributes of OpenTelemetry's AWS
 *   conventions; the call carries the trace context in its headers, as the registered propagator
 *   writes it.
 * - a span per message or event a worker handles (continueTrace), child of the span that sent it.
 */
import {
  context,
  propagation,
  ProxyTracerProvider,
  SpanKind,
  SpanStatusCode,
  trace,
  createContextKey,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { coldStartTracker } from './cold-start';
import {
  recordingCall,
  type AwsClient,
  type TraceCarrier,
  type TracedInvocation,
  type Tracer,
  type TracerOptions,
} from './tracer';

/** The instrumentation scope of our spans. */
const SCOPE = 'breb-merchant-api';
/**
 * What the API's provider delegates to until a provider is registered: it records nothing. (These
 * two are marked pure, so that a bundle built for X-Ray leaves the API out: telemetry.ts.)
 */
const NO_PROVIDER = /* @__PURE__ */ new ProxyTracerProvider().getDelegate();

/**
 * The invocation's span, kept in a slot of the invocation's context (`traced`): Middy opens it in
 * `before` and closes it in `after`, callbacks that cannot make it the active span of the handler
 * between them, so the captured clients find it here.
 */
const INVOCATION = /* @__PURE__ */ createContextKey('breb.invocation');
interface InvocationSlot {
  span?: Span;
}

interface ResponseMetadata {
  readonly httpStatusCode?: number;
  readonly requestId?: string;
}

/** The tables a DynamoDB request names: its table, a batch's, or a transaction's items'. */
function tableNames(input: Record<string, unknown>): string[] {
  const names = new Set<string>();
  if (typeof input['TableName'] === 'string') names.add(input['TableName']);
  const requestItems = input['RequestItems'];
  if (requestItems && typeof requestItems === 'object') for (const name of Object.keys(requestItems)) names.add(name);
  const transactItems = input['TransactItems'];
  if (Array.isArray(transactItems)) {
    for (const item of transactItems as Record<string, { TableName?: unknown }>[]) {
      for (const operation of Object.values(item)) {
        if (typeof operation?.TableName === 'string') names.add(operation.TableName);
      }
    }
  }
  return [...names];
}

/** The DynamoDB attributes of OpenTelemetry's AWS conventions, for a request's input. */
function requestAttributes(input: Record<string, unknown>): Attributes {
  const tables = tableNames(input);
  return {
    ...(tables.length > 0 ? { 'aws.dynamodb.table_names': tables } : {}),
    ...(typeof input['IndexName'] === 'string' ? { 'aws.dynamodb.index_name': input['IndexName'] } : {}),
  };
}

/** Records `error` on `span`, with the error status unless `status` says it was the client's. */
function recordError(span: Span, error: unknown, status?: number): void {
  const exception = error instanceof Error ? error : new Error(String(error));
  span.recordException(exception);
  span.setAttribute('error.type', exception.name);
  if (status === undefined || status >= 500 || status < 400) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: exception.message });
  }
}

/** The current invocation's context, with its innermost span (a message's, the invocation's) active. */
function invocationContext(): Context {
  const active = context.active();
  const span = (active.getValue(INVOCATION) as InvocationSlot | undefined)?.span;
  return span ? trace.setSpan(active, span) : active;
}

export class OtelTracer implements Tracer {
  readonly serviceName: string;
  /** True once: on the first invocation of an environment initialized on demand. */
  private readonly isColdStart = coldStartTracker();

  constructor(options: TracerOptions) {
    this.serviceName = options.serviceName;
  }

  /** True once a provider is registered (the ADOT layer registers it before the handler loads). */
  isTracingEnabled(): boolean {
    return (trace.getTracerProvider() as ProxyTracerProvider).getDelegate() !== NO_PROVIDER;
  }

  traced<Handler extends (...args: never[]) => Promise<unknown>>(handler: Handler): Handler {
    return ((...args: Parameters<Handler>) =>
      context.with(context.active().setValue(INVOCATION, {} satisfies InvocationSlot), () =>
        handler(...args),
      )) as Handler;
  }

  /** Used outermost, its onError runs last: after the error became an answer, whose status it reads. */
  handlerMiddleware(): TracedInvocation {
    return {
      before: () => {
        const coldStart = this.isColdStart();
        const slot = context.active().getValue(INVOCATION) as InvocationSlot | undefined;
        if (!slot) return;
        slot.span = this.tracer().startSpan(`## ${process.env['_HANDLER'] ?? 'handler'}`, {
          kind: SpanKind.SERVER,
          attributes: { 'faas.coldstart': coldStart, 'service.name': this.serviceName },
        });
      },
      after: (request) => this.endInvocation(undefined, request.response?.statusCode),
      onError: (request) => this.endInvocation(request.error ?? undefined, request.response?.statusCode),
    };
  }

  captureAWSv3Client<Client extends object>(client: Client): Client {
    const { config, middlewareStack } = client as unknown as AwsClient;
    middlewareStack.add(
      (next, { clientName = 'AwsClient', commandName = 'Command' }) =>
        async (args) => {
          const parent = invocationContext();
          const service = clientName.replace(/Client$/, '');
          const operation = commandName.replace(/Command$/, '');
          const span = this.tracer().startSpan(
            `${service}.${operation}`,
            {
              kind: SpanKind.CLIENT,
              attributes: {
                'rpc.system': 'aws-api',
                'rpc.service': service,
                'rpc.method': operation,
                ...requestAttributes((args.input ?? {}) as Record<string, unknown>),
              },
            },
            parent,
          );
          if (!span.isRecording()) return next(args);
          const headers = (args.request as { headers?: Record<string, string> } | undefined)?.headers;
          if (headers) propagation.inject(trace.setSpan(parent, span), headers);
          const record = async (metadata: ResponseMetadata | undefined, error?: unknown) => {
            const region = await config.region().catch(() => undefined);
            if (region) span.setAttribute('cloud.region', region);
            if (metadata?.requestId) span.setAttribute('aws.request_id', metadata.requestId);
            if (metadata?.httpStatusCode) span.setAttribute('http.response.status_code', metadata.httpStatusCode);
            // A call's error is the call's failure, whoever caused it: no status spares it.
            if (error !== undefined) recordError(span, error);
            span.end();
          };
          return recordingCall(() => next(args), record);
        },
      { step: 'build', name: 'otelTracing', override: true },
    );
    return client;
  }

  traceCarrier(): TraceCarrier {
    const carrier: Record<string, string> = {};
    propagation.inject(invocationContext(), carrier);
    return carrier;
  }

  /**
   * A message's span is the child of the span that sent it, so that its work joins the sender's
   * trace, and links to the invocation's, whose batch may hold messages of many traces (a span has one
   * parent). Without a context, it is the invocation's child.
   */
  async continueTrace<Result>(
    carrier: TraceCarrier | undefined,
    name: string,
    attributes: Readonly<Record<string, string>>,
    work: () => Promise<Result>,
  ): Promise<Result> {
    const invocation = invocationContext();
    const invocationSpan = trace.getSpan(invocation)?.spanContext();
    const parent = carrier ? propagation.extract(invocation, carrier) : invocation;
    const joined = trace.getSpan(parent)?.spanContext();
    const linked = invocationSpan && joined?.spanId !== invocationSpan.spanId;
    const span = this.tracer().startSpan(
      name,
      {
        kind: SpanKind.CONSUMER,
        attributes,
        links: linked ? [{ context: invocationSpan }] : [],
      },
      parent,
    );
    if (!span.isRecording()) return work();
    return context.with(
      trace.setSpan(parent, span).setValue(INVOCATION, { span } satisfies InvocationSlot),
      async () => {
        try {
          return await work();
        } catch (error) {
          recordError(span, error);
          throw error;
        } finally {
          span.end();
        }
      },
    );
  }

  /** Asked on each span: a provider registered after this module loaded is used from then on. */
  private tracer() {
    return trace.getTracer(SCOPE);
  }

  /** Closes the invocation's span, with the error that ended it and the answer's status, if any. */
  private endInvocation(error: unknown, status: number | undefined): void {
    const slot = context.active().getValue(INVOCATION) as InvocationSlot | undefined;
    const span = slot?.span;
    if (!slot || !span) return;
    slot.span = undefined;
    if (status !== undefined) span.setAttribute('http.response.status_code', status);
    if (error !== undefined) recordError(span, error, status);
    span.end();
  }
}
