/**
 * The webhooks an event goes to (docs/webhooks.md, "Which webhooks"): every webhook of its client
 * that is enabled, subscribed to its type, and that existed when the event was created. A test event
 * goes to its one target, whose delivery was written with it (shared/domain/dispatch.ts).
 */
import type { DomainEvent } from './events';
import type { StoredWebhook } from './webhooks';

/** The webhooks of a tenant, as the dispatcher reads them. */
export interface SubscriberReader {
  /** Every webhook of the tenant, each as it is now (read consistently: a change just made counts). */
  webhooksOf(tenant: string): Promise<readonly StoredWebhook[]>;
}

/**
 * Whether `webhook` existed when `event` happened: no webhook gets older events, even handed late (a
 * replay, a re-drive, the sweeper). Both times are ISO 8601 UTC with milliseconds: they compare as text.
 */
const existedAt = (webhook: StoredWebhook, event: DomainEvent): boolean => webhook.created_at <= event.created_at;

/**
 * The webhook an event is about, when it must not go there: a `webhook.disabled` goes to the client's
 * other webhooks, even if the disabled one was enabled again before the dispatch.
 */
const aboutWebhook = (event: DomainEvent): string | undefined =>
  event.type === 'webhook.disabled' ? (event.data as { readonly id?: string }).id : undefined;

/** The webhooks an event of the outbox (not a test event) goes to: every enabled subscriber that existed at it. */
export async function subscribersOf(webhooks: SubscriberReader, event: DomainEvent): Promise<readonly StoredWebhook[]> {
  const about = aboutWebhook(event);
  const subscribed = (w: StoredWebhook) =>
    w.enabled && w.events.includes(event.type) && existedAt(w, event) && w.id !== about;
  return (await webhooks.webhooksOf(event.tenant)).filter(subscribed);
}

/**
 * A reader that reads each tenant's webhooks once, for every event of one stream batch (the
 * dispatcher's, functions/dispatch-events.ts, and a re-driven one's): one client's events would
 * otherwise read its webhook set, its gsi1 list and each of its webhooks once each (issue 31,
 * docs/scale.md). Make one per batch, never keep it longer.
 *
 * Why it weakens nothing: every record of a batch was committed before the stream handed the batch,
 * and the read is made after that (at the batch's first event of the tenant), consistently. So a
 * webhook created, disabled or deleted before any of the batch's events was written counts as it is
 * for each of them, exactly as when each event read them. A change made after the read is one made
 * after every event of the batch: per event, a change just after that event's own read was missed
 * too. A delivery it leads to for a webhook disabled or deleted since ends FAILED at its attempt
 * (`Not sent: ...`), the sender reading the webhook again (shared/domain/deliveries.ts).
 */
export function oncePerBatch(reader: SubscriberReader): SubscriberReader {
  const read = new Map<string, Promise<readonly StoredWebhook[]>>();
  return {
    webhooksOf(tenant: string): Promise<readonly StoredWebhook[]> {
      let webhooks = read.get(tenant);
      if (!webhooks) {
        webhooks = reader.webhooksOf(tenant);
        // A failed read is not kept: the batch is retried from its event, which reads again.
        webhooks.catch(() => read.delete(tenant));
        read.set(tenant, webhooks);
      }
      return webhooks;
    },
  };
}
