/**
 * The webhooks an event goes to (docs/webhooks.md, "Which webhooks"): its one target for a test
 * event, else every webhook of its client that is enabled, subscribed to its type, and that existed
 * when the event was created.
 */
import type { DomainEvent } from './events';
import type { StoredWebhook } from './webhooks';

/** The webhooks an event goes to: its one target (a test event), else every enabled subscriber. */
export interface SubscriberReader {
  get(id: string): Promise<StoredWebhook | undefined>;
  /** Every webhook of the tenant, each as it is now (read consistently: a change just made counts). */
  webhooksOf(tenant: string): Promise<readonly StoredWebhook[]>;
}

/**
 * Whether `webhook` existed when `event` happened: no webhook gets older events, even handed late (a
 * replay, a re-drive). Both times are ISO 8601 UTC with milliseconds: they compare as text.
 */
const existedAt = (webhook: StoredWebhook, event: DomainEvent): boolean => webhook.created_at <= event.created_at;

export async function recipientsOf(webhooks: SubscriberReader, event: DomainEvent): Promise<readonly StoredWebhook[]> {
  if (event.webhook_id !== undefined) {
    const target = await webhooks.get(event.webhook_id);
    return target?.enabled && existedAt(target, event) ? [target] : [];
  }
  const subscribed = (w: StoredWebhook) => w.enabled && w.events.includes(event.type) && existedAt(w, event);
  return (await webhooks.webhooksOf(event.tenant)).filter(subscribed);
}
