/**
 * The events a change reports (docs/payments.md, "Events"): written in the same transaction as the
 * change (an outbox), so an event exists exactly when its change was committed. Webhooks deliver
 * them; `data` is the object as its GET route answers it at the moment of the change.
 */
import type { CHANGE_EVENT_TYPES, WebhookEventType } from '../schemas/webhooks';
import type { IdGenerator } from './clock';

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
