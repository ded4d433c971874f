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

/** The webhooks an event of the outbox (not a test event) goes to: every enabled subscriber that existed at it. */
export async function subscribersOf(webhooks: SubscriberReader, event: DomainEvent): Promise<readonly StoredWebhook[]> {
  const subscribed = (w: StoredWebhook) => w.enabled && w.events.includes(event.type) && existedAt(w, event);
  return (await webhooks.webhooksOf(event.tenant)).filter(subscribed);
}
