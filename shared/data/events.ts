/**
 * The outbox (docs/data-model.md, EVENT): each event is put in the transaction of the change it
 * reports, so it exists exactly when the change was committed. It is listed in its client's `EVENT`
 * collection by creation (gsi1: GET /v1/events, newest first) and counted by the UTC day of its
 * creation. The table's TTL removes it after the window GET /v1/events shows (the 30 whole days
 * before today, and today: shared/domain/events.ts, eventsKeptSince): long enough for every delivery
 * and its retries, short enough that the outbox stays small. A list counter of every event ever
 * written would count the expired ones too; the counters by day are summed over the window's days,
 * and expire after them.
 */
import type { DomainEvent, EventListFilters, EventStore } from '../domain/events';
import { EVENT_RETENTION_DAYS } from '../schemas/bounds';
import { tracer } from '../observability/telemetry';
import { tableName } from './client';
import { dayCounterIncrements } from './counters';
import { clearDue, dueKeys } from './due-work';
import { listPartitions } from './inserts';
import { EVENT_ENTITY, creationKeys, itemKeys, TRACE_CONTEXT_ATTRIBUTE } from './item-keys';
import { listRecords } from './pagination';
import { getRecord } from './records';
import type { TransactItem } from './transactions';

/** The `entity` of an event's item: the dispatcher picks these out of the table's stream. */
export { EVENT_ENTITY, TRACE_CONTEXT_ATTRIBUTE };

/** The collection the events are listed in. */
export const EVENT_COLLECTION = 'EVENT';

const DAY_SECONDS = 24 * 60 * 60;

/** The start of a UTC day (`YYYY-MM-DD`), in Unix seconds. */
const dayStart = (day: string): number => Date.parse(`${day}T00:00:00.000Z`) / 1000;

/**
 * When an event created on `day` expires (the TTL's `expires_at`, Unix seconds): at the end of the
 * last day the window holds it, EVENT_RETENTION_DAYS whole days after its own. Never sooner, so a
 * list never counts an event the TTL removed; DynamoDB removes it within a few days after that, and
 * the window's bound keeps such a late one out of every list.
 */
export const eventExpiresAt = (day: string): number => dayStart(day) + (EVENT_RETENTION_DAYS + 1) * DAY_SECONDS;

/** A day's counters expire a day after its events: until then no window reaches that day. */
const dayCounterExpiresAt = (day: string): number => eventExpiresAt(day) + DAY_SECONDS;

/** Where an event is listed: its client's collection, no scope (its type is a filter). */
const listing = { collection: EVENT_COLLECTION, scope: undefined, immutable: true } as const;

/**
 * The Put of one event alone (a test reads its item; a change writes eventsPut, which counts it too),
 * inside the transaction of its change (an event id is written once). With
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
        ...creationKeys(event.tenant, EVENT_COLLECTION, event.id, event.created_at),
        entity: EVENT_ENTITY,
        ...event,
        expires_at: eventExpiresAt(event.created_at.slice(0, 10)),
        ...(Object.keys(traceContext).length > 0 ? { [TRACE_CONTEXT_ATTRIBUTE]: traceContext } : {}),
        // Due at once: the dispatcher takes it out of the index of due work once its deliveries are made.
        ...dueKeys(event.id, event.created_at),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
};

/**
 * The items that write `events` inside the transaction of their change: each event's Put, and the
 * increments of its list's counters by day (the events of one transaction that meet on a counter
 * shard added up into one update).
 */
export const eventsPut = (events: readonly DomainEvent[]): TransactItem[] =>
  events.length === 0
    ? []
    : [
        ...events.map(eventPut),
        ...dayCounterIncrements(
          events.map((event) => ({
            partitions: listPartitions(event, listing),
            itemId: event.id,
            createdAt: event.created_at,
          })),
          dayCounterExpiresAt,
        ),
      ];

/** The event `id`, as its change wrote it, or undefined once the TTL removed it. */
export const getEvent = (id: string): Promise<DomainEvent | undefined> =>
  getRecord<DomainEvent>(itemKeys.event(id), { consistent: true });

/** The outbox as the sender reads it. */
export const dynamoEventReader = { get: getEvent };

/** The outbox as GET /v1/events reads it: the window's events, newest first by default. */
export const dynamoEventStore: EventStore = {
  get: getEvent,
  list: (tenant: string, filters: EventListFilters, request) =>
    listRecords<DomainEvent>({
      tenant,
      collection: EVENT_COLLECTION,
      immutable: true,
      daily: { since: filters.since },
      equals: { type: filters.type },
      request,
    }),
};

/** The outbox as the dispatcher marks it: an event whose deliveries are made leaves the due work. */
export const dynamoDispatchedEvents = { dispatched: (id: string): Promise<void> => clearDue(itemKeys.event(id)) };
