/**
 * The sweeper (docs/reliability.md, "The sweeper"): run every minute by a schedule (EventBridge on
 * AWS, a timer of the local runtime every SWEEP_INTERVAL_MS), it restarts the work that commits left
 * due and that is still not done a grace later (SWEEP_GRACE_MS): a payment's settlement or decision
 * job, a refund's settlement job, a delivery's attempt, an event's dispatch, a report's run, a
 * settlement file's reconciliation (shared/domain/sweep.ts), and leaves what it restarted for its
 * queue's visibility timeout. It publishes how long the oldest stranded item had waited, how many
 * items it restarted had waited 5, 15 and 60 minutes or more, and how many due items it read, which
 * alarms watch (infra/constructs/sweeper-alarms.ts).
 */
import type { Context } from 'aws-lambda';
import { systemClock } from '../shared/domain/clock';
import { STUCK_AGE_MINUTES, sweep } from '../shared/domain/sweep';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { sweptDueWork } from '../shared/data/due-work';
import { dynamoDispatchedEvents } from '../shared/data/events';
import { deliveryQueue, reconciliationQueue, refundQueue, reportQueue, settlementQueue } from '../shared/data/queues';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { STRANDED_WORK_METRICS, strandedWorkOverMetric } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { workerHandler } from '../shared/observability/worker-handler';
import type { DueWorkKind } from '../shared/domain/sweep';
import {
  readQueueVisibilityTimeoutMs,
  readSweepGraceMs,
  readSweepIntervalMs,
  type QueueName,
} from '../shared/runtime/config';
import { visibilityTimeoutSeconds, workerOf } from './workers';

/**
 * How long each kind's restarted work may wait in its queue: the queue's visibility timeout (the
 * worker table's, or the local runtime's own); an event is dispatched by the run itself.
 */
function holdMs(): Record<DueWorkKind, number> {
  const local = readQueueVisibilityTimeoutMs();
  const of = (queue: QueueName) => local ?? visibilityTimeoutSeconds(queue) * 1000;
  return {
    payment: of('settlement'),
    refund: of('settlement'),
    delivery: of('webhookDeliveries'),
    report: of('reports'),
    reconciliation: of('reconciliations'),
    event: 0,
  };
}

const { recordSeconds } = workerOf('sweep-stranded-work');

export const handler = workerHandler(logger, async (_event: unknown, context: Context): Promise<void> => {
  const deliveries = deliveryQueue();
  const report = await sweep({
    // Every shard of the index at each run on AWS (a run a minute); the local runtime's frequent runs
    // share them in turns (shared/data/due-work.ts).
    due: sweptDueWork(readSweepIntervalMs()),
    settlement: settlementQueue(),
    refunds: refundQueue(),
    deliveries,
    reports: reportQueue(),
    reconciliations: reconciliationQueue(),
    dispatch: {
      webhooks: dynamoWebhookWrites,
      deliveries: dynamoDeliveryWrites,
      events: dynamoDispatchedEvents,
      queue: deliveries,
      clock: systemClock,
    },
    clock: systemClock,
    graceMs: readSweepGraceMs(),
    holdMs: holdMs(),
    // Reads while it has time left: a group of restarts (one record's worst time) before its timeout.
    remainingMs: () => context.getRemainingTimeInMillis(),
    marginMs: recordSeconds * 1000,
  });
  const restarted = Object.values(report.restarted).reduce((sum, n) => sum + n, 0);
  // Published on every run, 0 included: the alarm sees the sweeper run, not only its bad minutes.
  metrics.addMetric(STRANDED_WORK_METRICS.OLDEST_AGE, MetricUnit.Seconds, Math.floor(report.oldestAgeMs / 1000));
  metrics.addMetric(STRANDED_WORK_METRICS.RESTARTED, MetricUnit.Count, restarted);
  metrics.addMetric(STRANDED_WORK_METRICS.DUE_DEPTH, MetricUnit.Count, report.seen);
  for (const minutes of STUCK_AGE_MINUTES) {
    metrics.addMetric(strandedWorkOverMetric(minutes), MetricUnit.Count, report.waitingOver[minutes]);
  }
  for (const failure of report.failures) {
    logger.error('Stranded work not restarted: the next run tries again', { ref: failure.id, error: failure.error });
  }
  // How far behind the sweeper is, at every run that found something (an idle run logs nothing).
  if (report.seen > 0 || report.failures.length > 0) {
    logger.warn('Stranded work restarted', {
      ...report.restarted,
      failed: report.failures.length,
      seen: report.seen,
      oldest_due_age_ms: report.oldestDueAgeMs,
      oldest_age_ms: report.oldestAgeMs,
      stopped_for_time: report.stoppedForTime,
      shards_left: report.shardsLeft,
    });
  }
});
