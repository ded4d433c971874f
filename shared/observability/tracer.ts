/**
 * What the functions ask of tracing, whoever records it: the Middy chain (shared/http) and the
 * DynamoDB client (shared/data/client.ts) see only this interface, through the process's tracer of
 * telemetry.ts. Today the implementation is X-Ray's (xray.ts, segments sent to the daemon without the
 * X-Ray SDK); moving to OpenTelemetry replaces that implementation and nothing else (docs/tracing.md).
 */
import type { MiddlewareObj } from '@middy/core';

/** The middleware's view of an invocation: its answer's status, once the chain has one. */
export type TracedInvocation = MiddlewareObj<unknown, { statusCode?: number } | undefined>;

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
}
