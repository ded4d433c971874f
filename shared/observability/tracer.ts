/**
 * What the functions ask of tracing, whoever records it: the Middy chains (shared/http, worker-handler.ts),
 * the AWS clients and the queues (shared/data) see only this interface, through the process's tracer of
 * telemetry.ts. Today the implementation is X-Ray's (xray.ts, segments sent to the daemon without the
 * X-Ray SDK) unless the stage asks for OpenTelemetry's (otel.ts); docs/tracing.md tells both.
 */
import type { MiddlewareObj } from '@middy/core';

/**
 * A trace context as text fields (W3C `traceparent`, and whatever else the registered propagators
 * write), for a queue message's attributes or an event's item to carry to the function that handles it.
 */
export type TraceCarrier = Readonly<Record<string, string>>;

/** The middleware's view of an invocation: its answer's status, once the chain has one. */
export type TracedInvocation = MiddlewareObj<unknown, { statusCode?: number } | undefined>;

/** The AWS SDK v3 client shape captureAWSv3Client needs: its middleware stack and region. */
export interface AwsClient {
  readonly config: { region: () => Promise<string> };
  readonly middlewareStack: {
    add(
      middleware: (
        next: (args: { request?: unknown; input?: unknown }) => Promise<{ output?: unknown }>,
        context: { clientName?: string; commandName?: string },
      ) => (args: { request?: unknown; input?: unknown }) => Promise<{ output?: unknown }>,
      options: { step: 'build'; name: string; override: boolean },
    ): void;
  };
}

export interface TracerOptions {
  /** The service every invocation's span names. */
  readonly serviceName: string;
}

export interface Tracer {
  /** Off outside Lambda (the local server, the tests): then nothing is recorded or sent. */
  isTracingEnabled(): boolean;
  /**
   * Runs each call of `handler` in a tracing context of its own, where the handler middleware and the
   * captured clients find the invocation they belong to, however many run in one process.
   */
  traced<Handler extends (...args: never[]) => Promise<unknown>>(handler: Handler): Handler;
  /**
   * The Middy middleware that records each invocation of a handler wrapped in `traced`, with the
   * error that ended it and the status it became; used outermost, so that it sees the final answer.
   */
  handlerMiddleware(): TracedInvocation;
  /** Records every call of an AWS SDK v3 client within the current invocation. */
  captureAWSv3Client<Client extends object>(client: Client): Client;
  /** The current invocation's trace context, for a message or an event it writes; empty when none is recorded. */
  traceCarrier(): TraceCarrier;
  /**
   * Runs `work` (one message or event of a worker's batch) in a span of its own named `name`,
   * continuing the trace `carrier` came with when it has one, and in which the calls made by `work` are recorded.
   */
  continueTrace<Result>(
    carrier: TraceCarrier | undefined,
    name: string,
    attributes: Readonly<Record<string, string>>,
    work: () => Promise<Result>,
  ): Promise<Result>;
}

/**
 * Runs one AWS SDK call of a client's middleware stack and records its outcome once it is known:
 * its response metadata (`$metadata`, on the output or on the error) and the error, if any, which is
 * thrown on unchanged. Both tracers' capture middleware record a call this way.
 */
export async function recordingCall<Result extends { output?: unknown }, Metadata>(
  call: () => Promise<Result>,
  record: (metadata: Metadata | undefined, error?: unknown) => Promise<void>,
): Promise<Result> {
  try {
    const result = await call();
    await record((result.output as { $metadata?: Metadata } | undefined)?.$metadata);
    return result;
  } catch (error) {
    await record((error as { $metadata?: Metadata }).$metadata, error);
    throw error;
  }
}
