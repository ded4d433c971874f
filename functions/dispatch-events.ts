/**
 * The dispatcher (docs/webhooks.md, "Delivery"): reads the table's stream and turns each new event of
 * the outbox into a delivery per webhook that wants it, queued for the sender. On AWS the stream's
 * event source mapping calls it (filtered to EVENT inserts, which it checks again: the local runtime
 * hands it every record); locally the runtime's stream reader does (infra/local/event-stream.ts).
 * A failure reports the record it stopped at, so the batch is retried from there: nothing is lost,
 * and a record handled twice finds its deliveries made. A batch short of time stops the same way
 * before a record it might not finish. A batch retried past its budget is re-driven
 * (functions/redrive-stream-failures.ts).
 */
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { systemClock } from '../shared/domain/clock';
import { dispatchEvent } from '../shared/domain/dispatch';
import { oncePerBatch } from '../shared/domain/subscribers';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { dynamoDispatchedEvents } from '../shared/data/events';
import { deliveryQueue } from '../shared/data/queues';
import { insertedEvent, type InsertedEvent } from '../shared/data/stream-records';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import { processEvent, workerHandler } from '../shared/observability/worker-handler';
import { timeForOneMore } from '../shared/runtime/batch-items';
import { workerOf } from './workers';

const { recordSeconds } = workerOf('dispatch-events');

export const handler = workerHandler(
  logger,
  async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    const deps = {
      // The tenant's webhooks, read once for the batch's events (shared/domain/subscribers.ts).
      webhooks: oncePerBatch(dynamoWebhookWrites),
      deliveries: dynamoDeliveryWrites,
      events: dynamoDispatchedEvents,
      queue: deliveryQueue(),
      clock: systemClock,
    };
    // Everything from the record reported on is handed again; the records before it are done.
    const retryFrom = (record: DynamoDBStreamEvent['Records'][number]): DynamoDBBatchResponse => ({
      batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }],
    });
    for (const record of event.Records) {
      if (!timeForOneMore(context, recordSeconds * 1000)) {
        logger.warn('Out of time: the batch is retried from this record', {
          sequence_number: record.dynamodb?.SequenceNumber,
        });
        return retryFrom(record);
      }
      let inserted: InsertedEvent | undefined;
      try {
        // Read inside the try: a record that cannot be read is reported as any failure.
        inserted = insertedEvent(record);
        if (!inserted) continue;
        const { event: domainEvent, traceContext } = inserted;
        const deliveries = await processEvent(traceContext, domainEvent, () => dispatchEvent(deps, domainEvent));
        logger.info('Event dispatched', {
          event_id: domainEvent.id,
          event_type: domainEvent.type,
          deliveries: deliveries.length,
        });
      } catch (error) {
        logger.error('Event dispatch failed: the batch is retried from this record', {
          event_id: inserted?.event.id,
          sequence_number: record.dynamodb?.SequenceNumber,
          error,
        });
        return retryFrom(record);
      }
    }
    return { batchItemFailures: [] };
  },
);
