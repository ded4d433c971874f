/**
 * The dispatcher's rule (docs/webhooks.md, "Delivery"): each event of the outbox becomes one delivery
 * per webhook that wants it, queued at once; then the event is no longer due work. Run by the
 * dispatcher for each event its stream hands it, and by the sweeper for an event the stream never
 * handed over (shared/domain/sweep.ts).
 */
import type { Clock } from './clock';
import { deliveryIdOf, newDelivery, type DeliveryQueue, type DeliveryStore } from './deliveries';
import type { DomainEvent } from './events';
import { subscribersOf, type SubscriberReader } from './subscribers';

export type { SubscriberReader };

/** The outbox as the dispatcher marks it. */
export interface DispatchedEvents {
  /** The event's deliveries are made: it is no longer due work (docs/reliability.md, "The sweeper"). */
  dispatched(eventId: string): Promise<void>;
}

export interface DispatchDeps {
  readonly webhooks: SubscriberReader;
  readonly deliveries: Pick<DeliveryStore, 'createIfAbsent'>;
  readonly events: DispatchedEvents;
  readonly queue: DeliveryQueue;
  readonly clock: Clock;
}

/**
 * Dispatches one event: a delivery for each webhook it goes to (shared/domain/subscribers.ts: enabled,
 * subscribed, and existing when the event happened), queued at once, then the event marked
 * dispatched. Each delivery is due work from its commit, so a message lost after it is sent by the
 * sweeper; an event not marked (a crash before) is dispatched again by the sweeper or a stream retry,
 * which finds its deliveries made and queues them again: the sender ignores a message whose delivery
 * is no longer due. Answers the deliveries' ids.
 *
 * A test event's one delivery was written with it (sendTestEvent): it is queued whatever its webhook
 * is now, so that a webhook disabled or deleted since ends it FAILED ("Not sent: ...") instead of
 * leaving it PENDING.
 */
export async function dispatchEvent(deps: DispatchDeps, event: DomainEvent): Promise<string[]> {
  const ids: string[] = [];
  if (event.webhook_id !== undefined) {
    ids.push(deliveryIdOf(event.id, event.webhook_id));
    await deps.queue.send(ids[0]!, 0, event.tenant);
  } else {
    const now = deps.clock.now();
    for (const webhook of await subscribersOf(deps.webhooks, event)) {
      const delivery = newDelivery(event, webhook, now);
      await deps.deliveries.createIfAbsent(delivery);
      await deps.queue.send(delivery.id, 0, delivery.tenant);
      ids.push(delivery.id);
    }
  }
  await deps.events.dispatched(event.id);
  return ids;
}
