/**
 * The dispatcher (docs/webhooks.md, "Delivery"): reads the table's stream and turns each new event of
 * the outbox into a delivery per webhook that wants it, queued for the sender. On AWS the stream's
 * event source mapping calls it (filtered to EVENT inserts, which it checks again: the local runtime
 * hands it every record); locally the runtime's stream reader does (infra/local/event-stream.ts).
 * A failure reports the record it stopped at, so the batch is retried from there: nothing is lost,
 * and a record handled twice finds its deliveries made.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { systemClock } from '../shared/domain/clock';
import { dispatchEvent } from '../shared/domain/dispatch';
import type { DomainEvent } from '../shared/domain/events';
import { dynamoDeliveryStore } from '../shared/data/deliveries-repository';
import { dynamoDispatchedEvents, EVENT_ENTITY, TRACE_CONTEXT_ATTRIBUTE } from '../shared/data/events';
import { withoutStorageAttributes } from '../shared/data/item-keys';
import { deliveryQueue } from '../shared/data/queues';
import { dynamoWebhookStore } from '../shared/data/webhooks-repository';
import { logger } from '../shared/http/logger';
import type { TraceCarrier } from '../shared/observability/tracer';
import { processEvent, workerHandler } from '../shared/observability/worker-handler';

type StreamRecord = DynamoDBStreamEvent['Records'][number];

/**
 * The event a stream record inserted, with the trace context of the request that wrote it, or
 * undefined for any other change of the table.
 */
function insertedEvent(record: StreamRecord): { event: DomainEvent; traceContext?: TraceCarrier } | undefined {
  const image = record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
  if (record.eventName !== 'INSERT' || image?.['entity']?.S !== EVENT_ENTITY) return undefined;
  const item = unmarshall(image);
  return {
    event: withoutStorageAttributes<DomainEvent>(item),
    traceContext: item[TRACE_CONTEXT_ATTRIBUTE] as TraceCarrier | undefined,
  };
}

export const handler = workerHandler(logger, async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const deps = {
    webhooks: dynamoWebhookStore,
    deliveries: dynamoDeliveryStore,
    events: dynamoDispatchedEvents,
    queue: deliveryQueue(),
    clock: systemClock,
  };
  for (const record of event.Records) {
    const inserted = insertedEvent(record);
    if (!inserted) continue;
    const { event: domainEvent, traceContext } = inserted;
    try {
      const deliveries = await processEvent(traceContext, domainEvent, () => dispatchEvent(deps, domainEvent));
      logger.info('Event dispatched', {
        event_id: domainEvent.id,
        event_type: domainEvent.type,
        deliveries: deliveries.length,
      });
    } catch (error) {
      logger.error(
        'Event dispatch failed: the batch is retried from this record',
        { event_id: domainEvent.id },
        error as Error,
      );
      // Everything from this record on is handed again; the records before it are done.
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb!.SequenceNumber! }] };
    }
  }
  return { batchItemFailures: [] };
});
