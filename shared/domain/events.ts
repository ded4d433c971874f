/**
 * The events a change reports (docs/payments.md, "Events"): written in the same transaction as the
 * change (an outbox), so an event exists exactly when its change was committed. Webhooks deliver
 * them; `data` is the object as its GET route answers it at the moment of the change. A client reads
 * its own events of the last 30 days at GET /v1/events (docs/webhooks.md, "Events"), each as its
 * webhooks carry it.
 */
import { EVENT_RETENTION_DAYS } from '../schemas/bounds';
import type { EventListQuery } from '../schemas/events';
import type { CHANGE_EVENT_TYPES, WebhookEventType } from '../schemas/webhooks';
import type { IdGenerator } from './clock';
import { AppError } from './errors';
import { paginationInfo, parsePageRequest, type ListAnswer, type PageRequest, type PageResult } from './lists';

export type EventType = (typeof CHANGE_EVENT_TYPES)[number];

export interface DomainEvent {
  readonly id: string;
  /** The client the change belongs to: an inbound payment's events are the payee's. */
  readonly tenant: string;
  readonly type: WebhookEventType;
  /** When the change happened: the time of the record it reports. */
  readonly created_at: string;
  readonly data: object;
  /** The one webhook the event goes to (a test event); absent: every webhook subscribed to its type. */
  readonly webhook_id?: string;
}

/** An event of `type` reporting `data`, one of `tenant`'s records, as changed at `at`. */
export const newEvent = (ids: IdGenerator, tenant: string, type: EventType, at: string, data: object): DomainEvent => ({
  id: ids.newId(),
  tenant,
  type,
  created_at: at,
  data,
});

/** An event as its webhooks receive it, and as GET /v1/events answers it: without its routing fields. */
export interface PublicEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly created_at: string;
  readonly data: object;
}

export const publicEvent = (event: DomainEvent): PublicEvent => ({
  id: event.id,
  type: event.type,
  created_at: event.created_at,
  data: event.data,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The first instant of the events GET /v1/events holds at `now`: the start of the UTC day
 * EVENT_RETENTION_DAYS days before today's. Whole days, so that a list's total is the sum of its days'
 * counters (shared/data/events.ts); every event of the window outlives it (its TTL is the end of the
 * window's last day), and older ones, which the TTL may not have removed yet, are never shown.
 */
export function eventsKeptSince(now: string): string {
  const today = Date.parse(`${now.slice(0, 10)}T00:00:00.000Z`);
  return new Date(today - EVENT_RETENTION_DAYS * DAY_MS).toISOString();
}

export interface EventListFilters {
  readonly type?: WebhookEventType;
  /** The window's start (eventsKeptSince): the list holds nothing older. */
  readonly since: string;
}

/** The outbox as GET /v1/events reads it. */
export interface EventStore {
  get(id: string): Promise<DomainEvent | undefined>;
  /** A page of the tenant's events created at or after `filters.since`, of the type if one is given. */
  list(tenant: string, filters: EventListFilters, request: PageRequest): Promise<PageResult<DomainEvent>>;
}

const later = (a: string | undefined, b: string | undefined) => (a === undefined || (b !== undefined && b > a) ? b : a);
const sooner = (a: string | undefined, b: string | undefined) =>
  a === undefined || (b !== undefined && b < a) ? b : a;

/**
 * An event never changes, so its update time is its creation time: the updated_* filters bound its
 * creation too, and an order by updated_at is the order by created_at.
 */
function byCreation(request: PageRequest): PageRequest {
  const from = later(request.created.from, request.updated.from);
  const to = sooner(request.created.to, request.updated.to);
  const created = { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) };
  return { ...request, orderKey: 'created_at', created, updated: {} };
}

/**
 * GET /v1/events: the tenant's events of the last 30 days (eventsKeptSince), newest first unless
 * told, a page at a time with the list conventions (docs/pagination.md), of one `type` if asked.
 */
export async function listEvents(
  events: Pick<EventStore, 'list'>,
  tenant: string,
  query: EventListQuery,
  now: string,
): Promise<ListAnswer<'events', PublicEvent>> {
  const request = parsePageRequest(query, now, 'desc');
  const filters = { ...(query.type === undefined ? {} : { type: query.type }), since: eventsKeptSince(now) };
  const page = await events.list(tenant, filters, byCreation(request));
  return { events: page.items.map(publicEvent), pagination_info: paginationInfo(request, page.total) };
}

/**
 * GET /v1/events/{id}: one of the tenant's events of the last 30 days. Another client's event is
 * answered as none (404), as one past the window is: an event id tells nothing of who it belongs to.
 */
export async function getEvent(
  events: Pick<EventStore, 'get'>,
  tenant: string,
  id: string,
  now: string,
): Promise<PublicEvent> {
  const event = await events.get(id.toLowerCase());
  if (!event || event.tenant !== tenant || event.created_at < eventsKeptSince(now)) {
    throw new AppError('NOT_FOUND', `Event ${id} does not exist (events are kept 30 days)`);
  }
  return publicEvent(event);
}
