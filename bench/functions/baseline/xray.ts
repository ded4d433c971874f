/**
 * The baseline's tracing, as the functions traced before shared/observability/xray.ts: Powertools' Tracer over the
 * X-Ray SDK (aws-xray-sdk-core), with its handler middleware (responses never captured). The baseline
 * build (bench/functions/builds.ts) loads this file in place of shared/observability/xray.ts.
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { TraceCarrier, TracedInvocation, Tracer as FunctionsTracer } from '../../../shared/observability/tracer';

export class XRayTracer extends Tracer implements FunctionsTracer {
  /** The X-Ray SDK keeps each invocation's context itself (cls-hooked): nothing to wrap. */
  traced<Handler>(handler: Handler): Handler {
    return handler;
  }

  /** Powertools types its middleware for any event and result. */
  handlerMiddleware(): TracedInvocation {
    return captureLambdaHandler(this, { captureResponse: false }) as TracedInvocation;
  }

  /** The X-Ray SDK propagated nothing through messages: SQS's AWSTraceHeader did. */
  traceCarrier(): TraceCarrier {
    return {};
  }

  continueTrace<Result>(
    _carrier: TraceCarrier | undefined,
    _name: string,
    _attributes: Readonly<Record<string, string>>,
    work: () => Promise<Result>,
  ): Promise<Result> {
    return work();
  }
}
