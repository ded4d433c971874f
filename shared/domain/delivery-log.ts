/**
 * The delivery log, and what a client does with it (docs/webhooks.md, "The delivery log"): list a
 * webhook's deliveries, send a finished one again, send a test event. The attempts themselves are
 * shared/domain/deliveries.ts's.
 */
import { AppError } from './errors';
import type { NewRecords, Clock } from './clock';
import type { DomainEvent } from './events';
import { paginationInfo, parsePageRequest, type ListAnswer } from './lists';
import { readOwn } from './ownership';
import { getOwnWebhook, type WebhookStore } from './webhooks';
import type { WebhookDeliveryListQuery } from '../schemas/webhooks';
import {
  MAX_ATTEMPTS,
  newDelivery,
  publicDelivery,
  type DeliveryQueue,
  type DeliveryStore,
  type PublicDelivery,
  type StoredDelivery,
} from './deliveries';

/** Reads a webhook by id (consistent: a change just made, a disabled or rotated one, counts). */
type WebhookReader = Pick<WebhookStore, 'get'>;

/** Reads one delivery of one of the tenant's webhooks: 404 when unknown or of another webhook. */
async function getOwnDelivery(
  deps: {
    readonly webhooks: WebhookReader;
    readonly deliveries: Pick<DeliveryStore, 'get'>;
  },
  tenant: string,
  webhookId: string,
  deliveryId: string,
): Promise<StoredDelivery> {
  const webhook = await getOwnWebhook(deps.webhooks, tenant, webhookId);
  const delivery = await readOwn((id) => deps.deliveries.get(id), tenant, 'Delivery', deliveryId);
  if (delivery.webhook_id !== webhook.id) {
    throw new AppError('NOT_FOUND', `Delivery ${deliveryId} does not exist for webhook ${webhook.id}`);
  }
  return delivery;
}

/**
 * GET /v1/webhooks/{id}/deliveries: the webhook's deliveries, a page at a time, every attempt in each.
 * The webhook is read with the page (PageUnder): unknown is 404, another client's 403, as its GET.
 */
export async function listDeliveries(
  deliveries: Pick<DeliveryStore, 'listUnderWebhook'>,
  tenant: string,
  webhookId: string,
  query: WebhookDeliveryListQuery,
  now: string,
): Promise<ListAnswer<'deliveries', PublicDelivery>> {
  const request = parsePageRequest(query, now);
  const page = await deliveries.listUnderWebhook(tenant, webhookId.toLowerCase(), request);
  const owner = page.ownerTenant;
  await readOwn(async () => (owner === undefined ? undefined : { tenant: owner }), tenant, 'Webhook', webhookId);
  return { deliveries: page.items.map(publicDelivery), pagination_info: paginationInfo(request, page.total) };
}

export interface RedeliverDeps {
  readonly webhooks: WebhookReader;
  readonly deliveries: Pick<DeliveryStore, 'get' | 'reopen'>;
  readonly queue: DeliveryQueue;
  readonly clock: Clock;
}

/**
 * How long past its due time a PENDING delivery's attempt may still be on its way: longer than a
 * sender batch takes (functions/workers.ts). Past it, no message is coming: its attempt has stalled.
 */
export const STALLED_AFTER_MS = 120_000;

/**
 * POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: a new round of attempts, starting now,
 * under the webhook's current URL, secrets and mode. A delivery still PENDING is already being tried:
 * 409, so that one event is never sent by two rounds at once; unless its attempt has stalled (due for
 * over STALLED_AFTER_MS: a redelivery whose message failed after its commit, a crash), which is
 * queued again and answered as it is. The commit made the delivery due work, so the sweeper queues a
 * stalled attempt too, without anyone asking.
 */
export async function redeliver(
  deps: RedeliverDeps,
  tenant: string,
  webhookId: string,
  deliveryId: string,
): Promise<PublicDelivery> {
  const delivery = await getOwnDelivery(deps, tenant, webhookId, deliveryId);
  if (delivery.status === 'PENDING' && stalled(delivery, deps.clock.now())) {
    await deps.queue.send(delivery.id, 0, delivery.tenant);
    return publicDelivery(delivery);
  }
  if (delivery.status === 'PENDING') {
    throw new AppError('DELIVERY_IN_PROGRESS', `Delivery ${delivery.id} is still being attempted: wait for its result`);
  }
  if (delivery.attempts.length >= MAX_ATTEMPTS) {
    throw new AppError(
      'DELIVERY_IN_PROGRESS',
      `Delivery ${delivery.id} has made ${MAX_ATTEMPTS} attempts, the most it keeps`,
    );
  }
  const reopened = await deps.deliveries.reopen(delivery, deps.clock.now());
  if (!reopened)
    throw new AppError(
      'CONCURRENT_UPDATE',
      `Delivery ${delivery.id} was changed by another request: read it and retry`,
    );
  await deps.queue.send(reopened.id, 0, reopened.tenant);
  return publicDelivery(reopened);
}

const stalled = (delivery: StoredDelivery, now: string): boolean =>
  Date.parse(now) - Date.parse(delivery.next_attempt_at ?? delivery.updated_at) > STALLED_AFTER_MS;

export interface SendTestEventDeps extends NewRecords {
  readonly webhooks: WebhookReader;
  readonly deliveries: Pick<DeliveryStore, 'createTest'>;
}

/**
 * POST /v1/webhooks/{id}/test: a `webhook.test` event for this webhook alone (whatever its events),
 * and its delivery, written together; the dispatcher queues it as any event. A disabled webhook
 * receives nothing, so it is refused; one disabled after this, before the attempt, ends the delivery
 * FAILED.
 */
export async function sendTestEvent(
  deps: SendTestEventDeps,
  tenant: string,
  webhookId: string,
): Promise<PublicDelivery> {
  const webhook = await getOwnWebhook(deps.webhooks, tenant, webhookId);
  if (!webhook.enabled) throw new AppError('WEBHOOK_DISABLED', `Webhook ${webhook.id} is disabled: enable it first`);
  const now = deps.clock.now();
  const event: DomainEvent = {
    id: deps.ids.newId(),
    tenant,
    type: 'webhook.test',
    created_at: now,
    data: { webhook_id: webhook.id },
    webhook_id: webhook.id,
  };
  const delivery = newDelivery(event, webhook, now);
  await deps.deliveries.createTest(event, delivery);
  return publicDelivery(delivery);
}
