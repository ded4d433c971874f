/**
 * The sender (docs/webhooks.md, "Delivery"): each message `{"delivery_id"}` of the delivery queue is
 * one attempt, when its delivery is PENDING and due, recorded on the delivery, and the next attempt
 * queued with its backoff. Fed by SQS on AWS and by the local runtime's queue locally, with the same
 * messages. A message that failed (DynamoDB or SQS unavailable) is reported, so the queue hands it
 * again; the attempt is recorded only on the delivery as it was read, so it is never counted twice.
 */
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock } from '../shared/domain/clock';
import { attemptDelivery, type DeliveryMessage } from '../shared/domain/deliveries';
import { dynamoDeliveryStore } from '../shared/data/deliveries-repository';
import { dynamoEventReader } from '../shared/data/events';
import { webhookUrlDeps } from '../shared/data/host-resolver';
import { deliveryQueue } from '../shared/data/queues';
import { secretSealer } from '../shared/data/secret-sealing';
import { httpWebhookTransport } from '../shared/data/webhook-transport';
import { dynamoWebhookStore } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '../shared/observability/emf-metrics';
import { DELIVERY_METRICS } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { runtimeConfig } from '../shared/runtime/config';

export const handler = workerHandler(logger, async (event: Pick<SQSEvent, 'Records'>): Promise<SQSBatchResponse> => {
  const { webhookTimeoutMs, webhookRetryBaseMs } = runtimeConfig();
  const deps = {
    deliveries: dynamoDeliveryStore,
    webhooks: dynamoWebhookStore,
    events: dynamoEventReader,
    transport: httpWebhookTransport,
    urls: webhookUrlDeps(),
    queue: deliveryQueue(),
    clock: systemClock,
    settings: { timeoutMs: webhookTimeoutMs, retryBaseMs: webhookRetryBaseMs },
    sealer: secretSealer(),
  };
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const { delivery_id: deliveryId } = JSON.parse(record.body) as DeliveryMessage;
    try {
      const outcome = await processMessage('webhookDeliveries', record, () => attemptDelivery(deps, deliveryId));
      // Never the webhook or the event: their secrets and data stay out of the logs.
      logger.info('Delivery handled', { delivery_id: deliveryId, outcome });
      const metric = DELIVERY_METRICS[outcome as keyof typeof DELIVERY_METRICS];
      if (metric) metrics.addMetric(metric, MetricUnit.Count, 1);
    } catch (error) {
      logger.error('Delivery failed: the queue hands it again', { delivery_id: deliveryId }, error as Error);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
});
