/**
 * What tells someone work is stuck (docs/operations.md, "Stranded work" and "Due work piling up"):
 * the sweeper's own metrics (STRANDED_WORK_METRICS and strandedWorkOverMetric, published at every run
 * by functions/sweep-stranded-work.ts, 0 included). Counts by age, not one latched maximum: an
 * operator sees how many items are stuck, and the alarm ends once none of them is restarted any more.
 */
import { Duration } from 'aws-cdk-lib';
import { Metric, type AlarmProps } from 'aws-cdk-lib/aws-cloudwatch';
import { STUCK_AGE_MINUTES } from '../../shared/domain/sweep';
import { STRANDED_WORK_METRICS, strandedWorkOverMetric } from '../../shared/observability/metric-names';
import { SERVICE_NAME } from '../../shared/runtime/config';

const PERIOD = Duration.minutes(5);

/**
 * Work restarted this long after it started waiting (minutes) is not a message merely late: the
 * sweeper has restarted it several times (once past its 2-minute grace, then every visibility
 * timeout) and it is still not done. The StrandedWork alarm reads this bucket's count.
 */
export const STRANDED_WORK_ALARM_MINUTES = 15;
/**
 * Periods StrandedWork looks back over: a stuck item is counted at each of its restarts, which for a
 * payment come every visibility timeout and grace (3 + 2 minutes), so one 5-minute period may hold
 * none of them. One restart in 15 minutes raises it; 15 minutes without one ends it.
 */
export const STRANDED_WORK_PERIODS = 3;

/**
 * Due items (past their grace) a run reads, past which the index is piling up: at rest nearly none
 * are (work leaves the index when it is done, within the grace), and a run drains some thousands a
 * minute (docs/reliability.md, "The sweeper").
 */
export const DUE_DEPTH_ALARM_ITEMS = 1_000;
/** Periods in a row over DUE_DEPTH_ALARM_ITEMS: a quarter of an hour, so a burst the sweeper drains is no page. */
export const DUE_DEPTH_PERIODS = 3;

/** What the stage's alarm helper takes (monitoring.ts). */
export type SweeperAlarmOptions = Pick<AlarmProps, 'metric' | 'threshold' | 'evaluationPeriods' | 'datapointsToAlarm'>;

const sweeperMetric = (namespace: string, metricName: string, label: string): Metric =>
  new Metric({
    namespace,
    metricName,
    dimensionsMap: { service: SERVICE_NAME },
    period: PERIOD,
    statistic: 'Maximum',
    label,
  });

/** The counts of restarted work by age, and the index's depth, the most a run saw in each 5 minutes. */
export function sweeperMetrics(namespace: string): { readonly byAge: Metric[]; readonly depth: Metric } {
  return {
    byAge: STUCK_AGE_MINUTES.map((minutes) =>
      sweeperMetric(namespace, strandedWorkOverMetric(minutes), `Waiting ${minutes} min or more`),
    ),
    depth: sweeperMetric(namespace, STRANDED_WORK_METRICS.DUE_DEPTH, 'Due items read by a run'),
  };
}

/** The sweeper's two alarms on the work itself, as options of the stage's alarm helper (monitoring.ts). */
export function sweeperAlarms(
  namespace: string,
): Record<string, { readonly description: string; readonly options: SweeperAlarmOptions }> {
  const { depth } = sweeperMetrics(namespace);
  return {
    StrandedWork: {
      description:
        `Work left undone ${STRANDED_WORK_ALARM_MINUTES} minutes or more after its commit, restarted by the sweeper ` +
        '(operations.md: stranded work)',
      options: {
        metric: sweeperMetric(
          namespace,
          strandedWorkOverMetric(STRANDED_WORK_ALARM_MINUTES),
          `Waiting ${STRANDED_WORK_ALARM_MINUTES} min or more`,
        ),
        threshold: 1,
        evaluationPeriods: STRANDED_WORK_PERIODS,
        datapointsToAlarm: 1,
      },
    },
    DueWorkDepth: {
      description:
        `A sweeper's run read ${DUE_DEPTH_ALARM_ITEMS} or more due items, ${DUE_DEPTH_PERIODS * 5} minutes running: ` +
        'work piles up faster than it is done (operations.md: due work piling up)',
      options: {
        metric: depth,
        threshold: DUE_DEPTH_ALARM_ITEMS,
        evaluationPeriods: DUE_DEPTH_PERIODS,
        datapointsToAlarm: DUE_DEPTH_PERIODS,
      },
    },
  };
}
