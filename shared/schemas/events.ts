/**
 * The events API's schemas (docs/webhooks.md, "Events"): GET /v1/events and GET /v1/events/{id}.
 * An event is answered as its webhooks carry it (shared/domain/events.ts, publicEvent).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, TIMESTAMP, UUID } from './common';
import { listAnswer, listQuery } from './lists';
import { WEBHOOK_EVENT_TYPES } from './webhooks';

/** The client's events of one type, within the date filters (and 30 days). */
export const eventListQuerySchema = listQuery({ type: { type: 'string', enum: WEBHOOK_EVENT_TYPES } });

export type EventListQuery = FromSchema<typeof eventListQuerySchema>;

/** One event, as the body every webhook subscribed to it received. */
export const eventSchema = /* @__PURE__ */ closedObject(
  {
    id: UUID,
    type: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
    created_at: TIMESTAMP,
    // The record the event reports, as its GET answered it at the change (docs/webhooks.md, "Delivery").
    data: { type: 'object' },
  },
  ['id', 'type', 'created_at', 'data'],
);

export const eventListSchema = /* @__PURE__ */ listAnswer('events', eventSchema);
