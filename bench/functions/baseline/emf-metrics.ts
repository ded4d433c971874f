/**
 * The baseline's metrics, as the functions published them before shared/observability/emf-metrics.ts: Powertools'
 * Metrics and its middleware. The baseline build (bench/functions/builds.ts) loads this file in its place.
 */
import { Metrics } from '@aws-lambda-powertools/metrics';
import { logMetrics as powertoolsLogMetrics } from '@aws-lambda-powertools/metrics/middleware';

export { Metrics as EmfMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const logMetrics = (metrics: Metrics) => powertoolsLogMetrics(metrics, { captureColdStartMetric: true });
