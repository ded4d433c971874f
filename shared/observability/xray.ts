/**
 * The functions' Tracer (tracer.ts) today: X-Ray, written to the X-Ray daemon directly instead of through the X-Ray
 * SDK (aws-xray-sdk-core, ≈120 KB minified with its dependencies, and tens of milliseconds of every
 * cold start). Lambda's active tracing (Tracing.ACTIVE in the stack) already records each invocation
 * (the function's segment, with its initialization and overhead); what only code inside the
 * function can add is recorded here, as @aws-lambda-powertools/tracer recorded it:
 *
 * - a `## <handler>` subsegment per invocation, annotated `ColdStart` and `Service`; an error that
 *   reaches the handler's error handling is kept with its stack, and flags the subsegment by the
 *   answer it became: error for a 4xx, fault otherwise (the response itself is never recorded:
 *   answers hold customers' data);
 * - a subsegment per call of a captured AWS SDK client, named after the service (`DynamoDB`), in the
 *   `aws` namespace, with the operation, region, request id, retries, table and HTTP status, flagged
 *   throttle, error (4xx) or fault (5xx, no answer); the call carries the `X-Amzn-Trace-Id` header.
 *
 * As the SDK does in Lambda, each subsegment is sent as its own UDP document when it ends, with the
 * function's segment (the `Parent` of the invocation's trace header) or the handler's subsegment as
 * its parent, and nothing is sent for invocations that are not sampled. Not reproduced: the SDK's
 * capture of every outgoing HTTP request; the functions call nothing but AWS APIs, captured above.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { coldStartTracker } from './cold-start';
import {
  recordingCall,
  type AwsClient,
  type TraceCarrier,
  type TracedInvocation,
  type Tracer,
  type TracerOptions,
} from './tracer';

const DAEMON_HEADER = '{"format":"json","version":1}\n';
const DEFAULT_DAEMON = { host: '127.0.0.1', port: 2000 };
/** SDK errors that mean "slow down", which X-Ray shows as throttles rather than errors. */
const THROTTLES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TooManyRequestsException',
  'Throttling',
]);

interface TraceContext {
  readonly traceId: string;
  /** The segment the invocation's subsegments hang from: the function's, created by Lambda. */
  readonly parentId: string;
}

interface Exception {
  readonly id: string;
  readonly message: string;
  readonly type: string;
  readonly remote?: boolean;
  readonly stack?: readonly { path: string; line: number; label: string }[];
}

/** A subsegment document, as the X-Ray API defines it (only the fields we use). */
interface SubsegmentDocument {
  readonly id: string;
  readonly name: string;
  readonly trace_id: string;
  readonly parent_id: string;
  readonly type: 'subsegment';
  readonly start_time: number;
  end_time?: number;
  namespace?: 'aws';
  annotations?: Record<string, string | number | boolean>;
  aws?: Record<string, unknown>;
  http?: { response: { status: number } };
  error?: true;
  fault?: true;
  throttle?: true;
  cause?: { working_directory: string; exceptions: Exception[] };
}

const newId = (): string => randomBytes(8).toString('hex');
const now = (): number => Date.now() / 1000;

/** Root=1-…;Parent=…;Sampled=1 (the runtime's trace header) as a trace context, if sampled. */
export function sampledTraceContext(header: string | undefined): TraceContext | undefined {
  if (!header) return undefined;
  const fields = Object.fromEntries(header.split(';').map((field) => field.split('=', 2) as [string, string]));
  if (fields['Sampled'] !== '1' || !fields['Root'] || !fields['Parent']) return undefined;
  return { traceId: fields['Root'], parentId: fields['Parent'] };
}

/** `host:port`, or the `udp:host:port tcp:host:port` form; the daemon takes segments over UDP. */
export function daemonAddress(value: string | undefined): { host: string; port: number } {
  const udp =
    value
      ?.split(/\s+/)
      .find((part) => part.startsWith('udp:'))
      ?.slice(4) ?? value;
  const match = udp ? /^(.+):(\d+)$/.exec(udp) : null;
  return match ? { host: match[1]!, port: Number(match[2]) } : DEFAULT_DAEMON;
}

function stackOf(error: Error): Exception['stack'] {
  return (error.stack ?? '')
    .split('\n')
    .slice(1, 51)
    .flatMap((line) => {
      const frame = /at (?:(.+?) \()?(.+?):(\d+):\d+\)?$/.exec(line.trim());
      return frame ? [{ label: frame[1] ?? 'anonymous', path: frame[2]!, line: Number(frame[3]) }] : [];
    });
}

function exceptionOf(error: unknown, remote: boolean): Exception {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  return {
    id: newId(),
    message,
    type: name,
    ...(remote ? { remote: true } : {}),
    ...(error instanceof Error && !remote ? { stack: stackOf(error) } : {}),
  };
}

/** What X-Ray keeps of a DynamoDB request: the tables it names, and the index of a query. */
function requestAttributes(input: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  if (typeof input['TableName'] === 'string') attributes['table_name'] = input['TableName'];
  if (typeof input['IndexName'] === 'string') attributes['index_name'] = input['IndexName'];
  const requestItems = input['RequestItems'];
  if (requestItems && typeof requestItems === 'object') attributes['table_names'] = Object.keys(requestItems);
  return attributes;
}

interface Invocation {
  readonly context: TraceContext;
  readonly handler: SubsegmentDocument;
}

export class XRayTracer implements Tracer {
  readonly serviceName: string;
  private readonly enabled: boolean;
  /** True once: on the first invocation of an environment initialized on demand. */
  private readonly isColdStart = coldStartTracker();
  /**
   * The invocation being traced, in the asynchronous context of its handler (`traced`): Lambda runs
   * one at a time per execution environment, but the local server (and Lambda with
   * AWS_LAMBDA_MAX_CONCURRENCY) runs several in one process, and each call must hang from its own.
   */
  private readonly invocations = new AsyncLocalStorage<{ current?: Invocation }>();
  private socket: Socket | undefined;

  constructor(options: TracerOptions) {
    this.serviceName = options.serviceName;
    // As Powertools: on in Lambda, off under SAM local and Amplify's mock, and when switched off.
    const env = process.env;
    this.enabled =
      Boolean(env['AWS_EXECUTION_ENV']) &&
      env['AWS_EXECUTION_ENV'] !== 'AWS_Lambda_amplify-mock' &&
      !env['AWS_SAM_LOCAL'] &&
      env['POWERTOOLS_TRACE_ENABLED']?.toLowerCase() !== 'false';
  }

  isTracingEnabled(): boolean {
    return this.enabled;
  }

  /** Records every call of an AWS SDK v3 client as a subsegment of the current invocation. */
  captureAWSv3Client<Client extends object>(client: Client): Client {
    const { config, middlewareStack } = client as unknown as AwsClient;
    middlewareStack.add(
      (next, { clientName = 'AwsClient', commandName = 'Command' }) =>
        async (args) => {
          const invocation = this.invocations.getStore()?.current;
          if (!invocation) return next(args);
          const subsegment: SubsegmentDocument = {
            id: newId(),
            name: clientName.replace(/Client$/, ''),
            trace_id: invocation.context.traceId,
            parent_id: invocation.handler.id,
            type: 'subsegment',
            start_time: now(),
            namespace: 'aws',
          };
          const headers = (args.request as { headers?: Record<string, string> } | undefined)?.headers;
          if (headers) headers['X-Amzn-Trace-Id'] = `Root=${subsegment.trace_id};Parent=${subsegment.id};Sampled=1`;
          const record = async (metadata: unknown, error?: unknown) => {
            const { httpStatusCode, requestId, attempts } = (metadata ?? {}) as {
              httpStatusCode?: number;
              requestId?: string;
              attempts?: number;
            };
            subsegment.aws = {
              operation: commandName.replace(/Command$/, ''),
              region: await config.region().catch(() => undefined),
              ...(requestId ? { request_id: requestId } : {}),
              retries: Math.max(0, (attempts ?? 1) - 1),
              ...requestAttributes((args.input ?? {}) as Record<string, unknown>),
            };
            if (httpStatusCode) subsegment.http = { response: { status: httpStatusCode } };
            const name = (error as { name?: string } | undefined)?.name;
            if (httpStatusCode === 429 || (name && THROTTLES.has(name))) subsegment.throttle = true;
            if (httpStatusCode && httpStatusCode >= 500) subsegment.fault = true;
            else if (httpStatusCode && httpStatusCode >= 400) subsegment.error = true;
            else if (error) subsegment.fault = true;
            if (error) subsegment.cause = { working_directory: process.cwd(), exceptions: [exceptionOf(error, true)] };
            this.send(subsegment);
          };
          return recordingCall(() => next(args), record);
        },
      { step: 'build', name: 'xrayTracing', override: true },
    );
    return client;
  }

  /**
   * Runs each call of `handler` in a tracing context of its own, where handlerMiddleware records
   * the invocation and captured clients find it.
   */
  traced<Handler extends (...args: never[]) => Promise<unknown>>(handler: Handler): Handler {
    if (!this.enabled) return handler;
    return ((...args: Parameters<Handler>) => this.invocations.run({}, () => handler(...args))) as Handler;
  }

  /**
   * Nothing: SQS already hands X-Ray's trace header on to the consumer (the AWSTraceHeader system
   * attribute, from the SendMessage call's X-Amzn-Trace-Id), and X-Ray links the two traces itself.
   */
  traceCarrier(): TraceCarrier {
    return {};
  }

  /** A message's work stays in the invocation's subsegment: X-Ray has no span per message here. */
  continueTrace<Result>(
    _carrier: TraceCarrier | undefined,
    _name: string,
    _attributes: Readonly<Record<string, string>>,
    work: () => Promise<Result>,
  ): Promise<Result> {
    return work();
  }

  /** Used outermost, its onError runs last: after the error became an answer, whose status it reads. */
  handlerMiddleware(): TracedInvocation {
    return {
      before: () => this.beginInvocation(),
      after: () => this.endInvocation(),
      onError: (request) => this.endInvocation(request.error, request.response?.statusCode),
    };
  }

  /** Opens the invocation's `## <handler>` subsegment, if tracing is on and Lambda sampled the request. */
  private beginInvocation(): void {
    const coldStart = this.isColdStart();
    const slot = this.invocations.getStore();
    if (!this.enabled || !slot) return;
    const awslambda = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId(): string | undefined } } })
      .awslambda;
    const context = sampledTraceContext(awslambda?.InvokeStore?.getXRayTraceId() ?? process.env['_X_AMZN_TRACE_ID']);
    slot.current = context && {
      context,
      handler: {
        id: newId(),
        name: `## ${process.env['_HANDLER'] ?? 'handler'}`,
        trace_id: context.traceId,
        parent_id: context.parentId,
        type: 'subsegment',
        start_time: now(),
        annotations: { ColdStart: coldStart, Service: this.serviceName },
      },
    };
  }

  /** Closes and sends the invocation's subsegment, with the error that ended it and its status, if any. */
  private endInvocation(error?: unknown, status?: number): void {
    const slot = this.invocations.getStore();
    const invocation = slot?.current;
    if (!slot || !invocation) return;
    slot.current = undefined;
    if (error !== undefined) {
      if (status !== undefined && status >= 400 && status < 500) invocation.handler.error = true;
      else invocation.handler.fault = true;
      invocation.handler.cause = { working_directory: process.cwd(), exceptions: [exceptionOf(error, false)] };
    }
    this.send(invocation.handler);
  }

  private send(subsegment: SubsegmentDocument): void {
    subsegment.end_time = now();
    const { host, port } = daemonAddress(process.env['AWS_XRAY_DAEMON_ADDRESS']);
    if (!this.socket) {
      this.socket = createSocket('udp4');
      // Tracing never keeps the process alive, nor fails a request: a lost segment is only lost.
      this.socket.unref();
      this.socket.on('error', () => undefined);
    }
    this.socket.send(DAEMON_HEADER + JSON.stringify(subsegment), port, host);
  }
}
