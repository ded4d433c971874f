/**
 * The queues a route sends to once its commit is made (docs/reliability.md, "After-commit sends"). The
 * commit put the work in the index of due work, so a send that fails there fails nothing: it is logged
 * (a warning) and counted (QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC), the route answers the committed
 * state, and the sweeper starts the work within its grace. Answering an error instead would tell the
 * client that nothing happened, and a client that starts over (another Idempotency-Key) would pay twice.
 * After a held transaction, the send waits for its commit (deferUntilCommitted); any other message
 * sent after a held transaction is a bug of the route, not an outage: it still throws.
 */
import type { DeliveryQueue } from '../shared/domain/deliveries';
import type { DecisionJobQueue } from '../shared/domain/receive-payment';
import type { RefundQueue } from '../shared/domain/refunds';
import type { ReportQueue } from '../shared/domain/reports';
import type { SettlementQueue } from '../shared/domain/settlement';
import { AfterHeldTransactionError, deferUntilCommitted } from '../shared/data/held-transaction';
import { creditDecisionQueue, deliveryQueue, refundQueue, reportQueue, settlementQueue } from '../shared/data/queues';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';

/**
 * Runs `send`; a failure is logged and counted, not thrown. After a held transaction (an
 * Idempotency-Key's record committed with the work: shared/http/idempotency.ts), `send` waits for that
 * commit and runs right after it.
 */
export async function sentAfterCommit(
  send: () => Promise<void>,
  queue: string,
  fields: Readonly<Record<string, string>>,
): Promise<void> {
  const attempt = async () => {
    try {
      await send();
    } catch (error) {
      if (error instanceof AfterHeldTransactionError) throw error;
      logger.warn(`Not queued after the commit: the sweeper starts the work`, { queue, ...fields, error });
      metrics.addMetric(QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC, MetricUnit.Count, 1);
    }
  };
  if (!deferUntilCommitted(attempt)) await attempt();
}

/** Settlement jobs `{"payment_id"}`, after a payment's commit. */
export function settlementAfterCommit(): SettlementQueue {
  const queue = settlementQueue();
  return {
    schedule: (paymentId, delayMs, tenant) =>
      sentAfterCommit(() => queue.schedule(paymentId, delayMs, tenant), 'settlement', { payment_id: paymentId }),
  };
}

/** An inbound payment's decision job `{"payment_id"}`, after the payer's payment committed. */
export function decisionsAfterCommit(): DecisionJobQueue {
  const queue = creditDecisionQueue();
  return {
    schedule: (paymentId, delayMs, tenant) =>
      sentAfterCommit(() => queue.schedule(paymentId, delayMs, tenant), 'creditDecisions', { payment_id: paymentId }),
  };
}

/** Refund settlement jobs `{"refund_id"}`, after a refund's commit. */
export function refundsAfterCommit(): RefundQueue {
  const queue = refundQueue();
  return {
    schedule: (refundId, delayMs, tenant) =>
      sentAfterCommit(() => queue.schedule(refundId, delayMs, tenant), 'settlement', { refund_id: refundId }),
  };
}

/** Webhook deliveries `{"delivery_id"}`, after a delivery's commit (a redelivery). */
export function deliveriesAfterCommit(): DeliveryQueue {
  const queue = deliveryQueue();
  return {
    send: (deliveryId, delayMs, tenant) =>
      sentAfterCommit(() => queue.send(deliveryId, delayMs, tenant), 'webhookDeliveries', {
        delivery_id: deliveryId,
      }),
  };
}

/** Report runs `{"report_id"}`, after a report's commit. */
export function reportsAfterCommit(): ReportQueue {
  const queue = reportQueue();
  return { run: (reportId) => sentAfterCommit(() => queue.run(reportId), 'reports', { report_id: reportId }) };
}
