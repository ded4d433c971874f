/**
 * The re-drive (docs/operations.md, "Stream re-drive"): each message of the streamFailures queue is a
 * batch the dispatcher's event source gave up on (retried until STREAM_MAX_RECORD_AGE_SECONDS old),
 * as Lambda reports it: its shard and first and last sequence numbers. This worker reads those
 * records back from the stream and dispatches their events exactly as the dispatcher does: a
 * delivery's id follows from its event and webhook, so an event dispatched before makes no second
 * delivery. A batch the stream no longer keeps (older than its 24 hours) is logged and left to the
 * sweeper, which finds undispatched events in the table; any other failure is reported, so the queue
 * hands the message again, then sets it aside in its dead-letter queue, where an alarm sees it.
 */
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { systemClock } from '../shared/domain/clock';
import { dispatchEvent } from '../shared/domain/dispatch';
import { oncePerBatch } from '../shared/domain/subscribers';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { dynamoDispatchedEvents } from '../shared/data/events';
import { deliveryQueue } from '../shared/data/queues';
import {
  insertedEvent,
  readStreamBatch,
  StreamBatchGone,
  streamBatchInfo,
  type StreamBatchInfo,
} from '../shared/data/stream-records';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import { processEvent, workerHandler } from '../shared/observability/worker-handler';
import { eachMessage } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('redrive-stream-failures');

const batchFields = (batch: StreamBatchInfo) => ({
  shard_id: batch.shardId,
  start_sequence_number: batch.startSequenceNumber,
  end_sequence_number: batch.endSequenceNumber,
});

export const handler = workerHandler(
  logger,
  async (event: Pick<SQSEvent, 'Records'>, context: Context): Promise<SQSBatchResponse> => {
    const shared = {
      deliveries: dynamoDeliveryWrites,
      events: dynamoDispatchedEvents,
      queue: deliveryQueue(),
      clock: systemClock,
    };
    return eachMessage(event.Records, context, {
      recordMs: recordSeconds * 1000,
      parse: streamBatchInfo,
      handle: async (batch) => {
        let records;
        try {
          records = await readStreamBatch(batch);
        } catch (error) {
          if (!(error instanceof StreamBatchGone)) throw error;
          // Nothing left to read: the sweeper finds these events undispatched in the table.
          logger.error('Stream batch no longer kept by the stream: left to the sweeper', {
            ...batchFields(batch),
            error,
          });
          return;
        }
        let dispatched = 0;
        // The tenant's webhooks, read once for the batch's events, after they were read back
        // (shared/domain/subscribers.ts).
        const deps = { ...shared, webhooks: oncePerBatch(dynamoWebhookWrites) };
        for (const record of records) {
          const inserted = insertedEvent(record);
          if (!inserted) continue;
          const { event: domainEvent, traceContext } = inserted;
          const deliveries = await processEvent(traceContext, domainEvent, () => dispatchEvent(deps, domainEvent));
          dispatched += 1;
          logger.info('Event re-driven', { event_id: domainEvent.id, deliveries: deliveries.length });
        }
        logger.info('Stream batch re-driven', { ...batchFields(batch), records: records.length, events: dispatched });
      },
      failed: (record, error, batch) =>
        logger.error('Stream batch re-drive failed: the queue hands it again', {
          message_id: record.messageId,
          ...(batch ? batchFields(batch) : {}),
          error,
        }),
      outOfTime: (left) => logger.warn('Out of time: the queue hands the rest again', { messages: left.length }),
    });
  },
);
