/**
 * The outbox (docs/data-model.md, EVENT): each event is put in the transaction of the change it
 * reports, so it exists exactly when the change was committed. The table's TTL removes it after 30
 * days: long enough for every delivery and its retries, short enough that the outbox stays small.
 */
import type { DomainEvent } from '../domain/events';
import { tracer } from '../observability/telemetry';
import { tableName } from './client';
import { clearDue, dueKeys } from './due-work';
import { getRecord } from './records';
import { EVENT_ENTITY, itemKeys, TRACE_CONTEXT_ATTRIBUTE } from './item-keys';
import type { TransactItem } from './transactions';

/** The `entity` of an event's item: the dispatcher picks these out of the table's stream. */
export { EVENT_ENTITY, TRACE_CONTEXT_ATTRIBUTE };

const EVENT_TTL_SECONDS = 30 * 24 * 60 * 60;

/**
 * The Put of one event, inside the transaction of its change (an event id is written once). With
 * OpenTelemetry, the item keeps the trace context of the request that wrote it (`trace_context`,
 * about 70 bytes), so that the dispatcher's work on it joins that trace; X-Ray writes none.
 */
export const eventPut = (event: DomainEvent): TransactItem => {
  const traceContext = tracer.traceCarrier();
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...itemKeys.event(event.id),
        entity: EVENT_ENTITY,
        ...event,
        expires_at: Math.floor(Date.parse(event.created_at) / 1000) + EVENT_TTL_SECONDS,
        ...(Object.keys(traceContext).length > 0 ? { [TRACE_CONTEXT_ATTRIBUTE]: traceContext } : {}),
        // Due at once: the dispatcher takes it out of the index of due work once its deliveries are made.
        ...dueKeys(event.id, event.created_at),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
};

/** The event `id`, as its change wrote it, or undefined once the TTL removed it. */
export const getEvent = (id: string): Promise<DomainEvent | undefined> =>
  getRecord<DomainEvent>(itemKeys.event(id), { consistent: true });

/** The outbox as the sender reads it. */
export const dynamoEventReader = { get: getEvent };

/** The outbox as the dispatcher marks it: an event whose deliveries are made leaves the due work. */
export const dynamoDispatchedEvents = { dispatched: (id: string): Promise<void> => clearDue(itemKeys.event(id)) };
