/**
 * What tells someone the sponsor bank's connector is failing (docs/operations.md, "Connector
 * failing"). An outage fails no invocation: each message's failure is reported alone and retried, so
 * the functions' error alarms stay quiet and StrandedWork speaks only after 15 minutes. These read
 * the connector's own metrics (CONNECTOR_METRICS, published on every request by
 * shared/data/network-connector.ts) minute by minute, and how long the network takes to answer (its
 * status callbacks, timed by the status route).
 */
import { Duration } from 'aws-cdk-lib';
import { MathExpression, Metric, type AlarmProps } from 'aws-cdk-lib/aws-cloudwatch';

/** What the stage's alarm helper takes (monitoring.ts). */
export type ConnectorAlarmOptions = Pick<
  AlarmProps,
  'metric' | 'threshold' | 'evaluationPeriods' | 'datapointsToAlarm'
>;
import { CONNECTOR_METRICS } from '../../shared/observability/metric-names';
import { CONNECTOR_TIMEOUT_MS } from '../../shared/domain/transfer-orders';
import { DEFAULT_TRANSFER_INQUIRY_AFTER_MS, SERVICE_NAME } from '../../shared/runtime/config';

const MINUTE = Duration.minutes(1);

/** The share of the connector's requests (%) a minute that failed, past which the alarm raises. */
export const CONNECTOR_FAILURE_PERCENT = 20;
/** The fewest requests in a minute whose share of failures means anything. */
export const CONNECTOR_MIN_CALLS = 5;
/** Minutes in a row over the share: two, so one burst of timeouts is not an outage. */
export const CONNECTOR_FAILURE_MINUTES = 2;
/** A p99 this close to the connector's time limit (5 s) over 5 minutes: the bank is slowing down. */
export const CONNECTOR_LATENCY_P99_MS = Math.round(CONNECTOR_TIMEOUT_MS * 0.8);
/**
 * The network's answer time (a transfer's commit to its status callback) whose p99 raises the alarm:
 * half the wait after which a transfer's restart asks the connector (TRANSFER_INQUIRY_AFTER_MS, 2
 * minutes by default), where an instant payment is answered in seconds. Past it, payers wait for
 * their money's fate, and past the inquiry's wait the callbacks may be lost altogether.
 */
export const CALLBACK_LATENCY_P99_MS = DEFAULT_TRANSFER_INQUIRY_AFTER_MS / 2;
/** 5-minute periods in a row over CALLBACK_LATENCY_P99_MS: two, so one slow burst is no page. */
export const CALLBACK_LATENCY_PERIODS = 2;

const connectorMetric = (namespace: string, metricName: string, statistic: string, period: Duration) =>
  new Metric({ namespace, metricName, dimensionsMap: { service: SERVICE_NAME }, period, statistic });

/** The connector's three alarms, as options of the stage's alarm helper (monitoring.ts). */
export function connectorAlarms(
  namespace: string,
): Record<string, { readonly description: string; readonly options: ConnectorAlarmOptions }> {
  const calls = connectorMetric(namespace, CONNECTOR_METRICS.calls, 'Sum', MINUTE);
  const failures = connectorMetric(namespace, CONNECTOR_METRICS.failures, 'Sum', MINUTE);
  return {
    ConnectorFailureRate: {
      description:
        `At least ${CONNECTOR_FAILURE_PERCENT}% of the connector's requests failed (no answer, 5xx, 429) ` +
        `for ${CONNECTOR_FAILURE_MINUTES} minutes (operations.md: connector failing)`,
      options: {
        metric: new MathExpression({
          expression: `IF(FILL(calls, 0) >= ${CONNECTOR_MIN_CALLS}, 100 * FILL(failures, 0) / calls, 0)`,
          usingMetrics: { calls, failures },
          period: MINUTE,
          label: 'Connector requests that failed (%)',
        }),
        threshold: CONNECTOR_FAILURE_PERCENT,
        evaluationPeriods: CONNECTOR_FAILURE_MINUTES,
        datapointsToAlarm: CONNECTOR_FAILURE_MINUTES,
      },
    },
    ConnectorLatencyP99: {
      description: `The connector's p99 answer time over 5 minutes is ${CONNECTOR_LATENCY_P99_MS} ms or more, near its time limit (operations.md: connector failing)`,
      options: {
        metric: connectorMetric(namespace, CONNECTOR_METRICS.latency, 'p99', Duration.minutes(5)),
        threshold: CONNECTOR_LATENCY_P99_MS,
        evaluationPeriods: 1,
      },
    },
    ConnectorCallbackLatencyP99: {
      description:
        `The network's p99 answer time (a transfer's commit to its status callback) is ${CALLBACK_LATENCY_P99_MS} ms ` +
        `or more, ${CALLBACK_LATENCY_PERIODS * 5} minutes running (operations.md: callbacks late)`,
      options: {
        metric: connectorMetric(namespace, CONNECTOR_METRICS.callbackLatency, 'p99', Duration.minutes(5)),
        threshold: CALLBACK_LATENCY_P99_MS,
        evaluationPeriods: CALLBACK_LATENCY_PERIODS,
        datapointsToAlarm: CALLBACK_LATENCY_PERIODS,
      },
    },
  };
}
