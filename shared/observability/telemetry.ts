/**
 * The process's tracer and metrics. In Lambda they trace through X-Ray (shared/observability/xray.ts) and publish
 * CloudWatch metrics as EMF log lines (shared/observability/emf-metrics.ts); anywhere else (the local server, the
 * tests) both stay silent. shared/http/observability.ts wires them into every handler; shared/data/client.ts
 * traces DynamoDB. Both see the tracer as the Tracer interface (shared/observability/tracer.ts): this is the one
 * place that picks its implementation.
 */
import { METRICS_NAMESPACE, SERVICE_NAME } from '../runtime/config';
import { EmfMetrics } from './emf-metrics';
import type { Tracer } from './tracer';
import { XRayTracer } from './xray';

const inLambda = Boolean(process.env['AWS_LAMBDA_FUNCTION_NAME']);

// Metrics takes its on/off switch from the environment only. Outside Lambda nothing turns EMF lines
// into metrics, so they would only clutter the local server's output and the test reports.
process.env['POWERTOOLS_METRICS_DISABLED'] ??= String(!inLambda);

/** Tracing switches itself off outside Lambda (and with POWERTOOLS_TRACE_ENABLED=false). */
export const tracer: Tracer = new XRayTracer({ serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME });

export const metrics = new EmfMetrics({
  namespace: process.env['POWERTOOLS_METRICS_NAMESPACE'] ?? METRICS_NAMESPACE,
  serviceName: process.env['POWERTOOLS_SERVICE_NAME'] ?? SERVICE_NAME,
});
