/**
 * The sender (docs/webhooks.md, "Delivery"): each message `{"delivery_id"}` of the delivery queue is
 * one attempt, when its delivery is PENDING and due, recorded on the delivery, and the next attempt
 * queued with its backoff; a webhook whose every attempt failed for WEBHOOK_DISABLE_AFTER_MS is
 * disabled (shared/domain/webhook-health.ts). Fed by SQS on AWS and by the local runtime's queue locally, with the same
 * messages. A message that failed (DynamoDB or SQS unavailable) is reported, so the queue hands it
 * again; the attempt is recorded only on the delivery as it was read, so it is never counted twice. A
 * malformed message fails alone, and a batch running out of time leaves its rest to the queue
 * (shared/runtime/batch-items.ts).
 *
 * A batch's deliveries are sent at once: a receiver that takes its whole timeout holds back no other
 * delivery of its batch. And an endpoint whose last attempts all failed is held back for a cool-down
 * (shared/domain/endpoint-breaker.ts): its deliveries are made due after it, not attempted.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock, uuidIds } from '../shared/domain/clock';
import { attemptDelivery } from '../shared/domain/deliveries';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { dynamoEventReader } from '../shared/data/events';
import { webhookUrlDeps } from '../shared/data/host-resolver';
import { deliveryQueue } from '../shared/data/queues';
import { secretSealer } from '../shared/data/secret-sealing';
import { httpWebhookTransport } from '../shared/data/webhook-transport';
import { dynamoWebhookHealth } from '../shared/data/webhook-health';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { DELIVERY_METRICS } from '../shared/observability/metric-names';
import { metrics } from '../shared/observability/telemetry';
import { processMessage, workerHandler } from '../shared/observability/worker-handler';
import { allMessagesAtOnce, jsonMessage } from '../shared/runtime/batch-items';
import { DEFAULT_BREAKER_SETTINGS, EndpointBreaker } from '../shared/domain/endpoint-breaker';
import { readWebhookBreakerCoolDownMs, readWebhookDisableAfterMs, runtimeConfig } from '../shared/runtime/config';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('send-webhook');

// The breaker's state is this process's (one Lambda instance's, or the local runtime's), in memory: it
// lasts as long as the instance and is not shared between instances. Each instance learns of a failing
// endpoint from its own attempts (at most DEFAULT_BREAKER_SETTINGS.failures of them), which costs far
// less than a table write on every attempt to keep a shared count.
// Made at the first batch, its cool-down read then (the local runtime's tests set theirs before it).
let breaker: EndpointBreaker | undefined;

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> => {
    const { webhookTimeoutMs, webhookRetryBaseMs } = runtimeConfig();
    const settings = {
      timeoutMs: webhookTimeoutMs,
      retryBaseMs: webhookRetryBaseMs,
      disableAfterMs: readWebhookDisableAfterMs(),
    };
    const deps = {
      deliveries: dynamoDeliveryWrites,
      webhooks: dynamoWebhookWrites,
      events: dynamoEventReader,
      transport: httpWebhookTransport,
      urls: webhookUrlDeps(),
      queue: deliveryQueue(),
      clock: systemClock,
      settings,
      random: Math.random,
      sealer: secretSealer(),
      health: dynamoWebhookHealth,
      ids: uuidIds,
      breaker: (breaker ??= new EndpointBreaker({
        ...DEFAULT_BREAKER_SETTINGS,
        coolDownMs: readWebhookBreakerCoolDownMs(),
      })),
    };
    return allMessagesAtOnce(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: (body) => jsonMessage(body, 'delivery_id'),
      handle: async ({ delivery_id: deliveryId }, record) => {
        const outcome = await processMessage('webhookDeliveries', record, () => attemptDelivery(deps, deliveryId));
        // Never the webhook or the event: their secrets and data stay out of the logs.
        logger.info('Delivery handled', { delivery_id: deliveryId, outcome });
        const metric = DELIVERY_METRICS[outcome as keyof typeof DELIVERY_METRICS];
        if (metric) metrics.addMetric(metric, MetricUnit.Count, 1);
      },
      failed: (record, error, message) =>
        logger.error('Delivery failed: the queue hands it again', {
          message_id: record.messageId,
          ...(message ? { delivery_id: message.delivery_id } : {}),
          error,
        }),
      outOfTime: (left) =>
        logger.warn('Out of time: the queue hands the rest of the batch again', { messages: left.length }),
    });
  },
);
