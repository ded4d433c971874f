/**
 * Webhooks that fail for days are disabled (docs/webhooks.md, "Disabled webhooks"), as Stripe does:
 * an endpoint that has answered no delivery for WEBHOOK_DISABLE_AFTER_MS (3 days by default) is
 * likely gone, and trying it on is noise for no one. Each attempt made (one not sent, for a webhook
 * disabled or an event expired, says nothing of the receiver) tells the webhook how it went:
 * - the first failure after a success (or ever) starts a run: `failing_since`, its time;
 * - a success ends the run;
 * - a failure at least the window after the run began disables the webhook, in one transaction with
 *   its `webhook.disabled` event (to the client's other webhooks subscribed to it) and an audit event.
 * Every attempt in between failed, or the run would have ended: "every delivery failed for 3 days in
 * a row". Writes happen at a run's start and end only, never on each attempt of a healthy webhook.
 */
import type { Clock, IdGenerator } from './clock';
import { newEvent, type DomainEvent } from './events';
import { publicWebhook, type StoredWebhook } from './webhooks';

/** How a webhook's run of failures is kept (shared/data/webhook-health.ts). */
export interface WebhookHealthStore {
  /** Sets `failing_since` to `at` unless the webhook has one: the run's first failure. */
  startFailing(webhook: StoredWebhook, at: string): Promise<void>;
  /** Removes the run `webhook` was read with (its `failing_since`), unless another began since. */
  recover(webhook: StoredWebhook): Promise<void>;
  /**
   * Writes `disabled` (the webhook as read, disabled), its event and its audit event in one
   * transaction, while the webhook is still as read (its version and run): false when it changed.
   */
  disable(seen: StoredWebhook, disabled: StoredWebhook, event: DomainEvent, evidence: string): Promise<boolean>;
}

export interface WebhookHealthDeps {
  readonly health: WebhookHealthStore;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** How long every attempt must have failed before the webhook is disabled (WEBHOOK_DISABLE_AFTER_MS). */
  readonly disableAfterMs: number;
}

/** What an attempt made of `webhook` (read before it) means for it; answers whether it disabled it. */
export async function noteAttempt(
  deps: WebhookHealthDeps,
  webhook: StoredWebhook,
  attempt: { readonly attempted_at: string; readonly succeeded: boolean },
): Promise<boolean> {
  const since = webhook.failing_since;
  if (attempt.succeeded) {
    if (since !== undefined) await deps.health.recover(webhook);
    return false;
  }
  if (since === undefined) {
    await deps.health.startFailing(webhook, attempt.attempted_at);
    return false;
  }
  if (Date.parse(attempt.attempted_at) - Date.parse(since) < deps.disableAfterMs) return false;
  const now = deps.clock.now();
  const disabled: StoredWebhook = { ...webhook, enabled: false, disabled_reason: 'DELIVERIES_FAILED', updated_at: now };
  const event = newEvent(deps.ids, webhook.tenant, 'webhook.disabled', now, publicWebhook(disabled));
  const evidence = `Every delivery attempt failed from ${since} to ${attempt.attempted_at}`;
  return deps.health.disable(webhook, disabled, event, evidence);
}
