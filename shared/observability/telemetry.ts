/**
 * The process's tracer and metrics. In Lambda they trace through X-Ray (shared/observability/xray.ts), or
 * OpenTelemetry (otel.ts) where the stage says so, and publish CloudWatch metrics as EMF log lines
 * (Powertools' Metrics); anywhere else (the local server, the tests) both stay silent.
 * shared/http/observability.ts and worker-handler.ts wire them into every handler; shared/data traces its
 * AWS calls and messages. All see the tracer as the Tracer interface (shared/observability/tracer.ts): this is
 * the one place that picks its implementation.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { ENV, METRICS_NAMESPACE, SERVICE_NAME } from '../runtime/config';
import { OtelTracer } from './otel';
import type { Tracer, TracerOptions } from './tracer';
import { XRayTracer } from './xray';

const inLambda = Boolean(process.env['AWS_LAMBDA_FUNCTION_NAME']);

// Metrics takes its on/off switch from the environment only. Outside Lambda nothing turns EMF lines
// into metrics, so they would only clutter the local server's output and the test reports.
process.env['POWERTOOLS_METRICS_DISABLED'] ??= String(!inLambda);

/**
 * The tracer `TRACING` asks for: X-Ray unless `otel` (the stack sets it with the ADOT layer). Any
 * other value stops the function at load, rather than leave a stage silently untraced.
 */
export function tracerFor(tracing: string | undefined, options: TracerOptions): Tracer {
  return tracing === 'otel' ? new OtelTracer(options) : xrayTracerFor(tracing, options);
}

function xrayTracerFor(tracing: string | undefined, options: TracerOptions): Tracer {
  if (tracing === undefined || tracing === '' || tracing === 'xray') return new XRayTracer(options);
  throw new Error(`Environment variable ${ENV.tracing} must be xray or otel, not "${tracing}"`);
}

const options: TracerOptions = { serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME };

/**
 * X-Ray switches itself off outside Lambda (and with POWERTOOLS_TRACE_ENABLED=false); OpenTelemetry
 * without a provider. A deployed bundle has `process.env['TRACING']` fixed to its stage's tracer at
 * build (infra/constructs/function-bundle.ts): esbuild folds the test, and the other tracer is left
 * out (on an X-Ray stage, OpenTelemetry's API with ours, 12 KB). So the test is written here, not
 * through tracerFor, and names the variable as the build's `define` does.
 */
export const tracer: Tracer =
  process.env['TRACING'] === 'otel' ? new OtelTracer(options) : xrayTracerFor(process.env['TRACING'], options);

export const metrics = new Metrics({
  namespace: process.env['POWERTOOLS_METRICS_NAMESPACE'] ?? METRICS_NAMESPACE,
  serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME,
});
