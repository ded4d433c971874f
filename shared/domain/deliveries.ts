/**
 * Deliveries of events to webhooks (docs/webhooks.md, "Delivery"). The dispatcher turns each event of
 * the outbox into one delivery per webhook that wants it, and queues it (shared/domain/dispatch.ts);
 * the sender makes each attempt, records it on the delivery, and queues the next one with its
 * backoff (RETRY) or ends it.
 * Everything here is safe to run twice: a delivery's id follows from its event and its webhook, and
 * an attempt is recorded only on the delivery as it was read.
 */
import type { DeliveryStatus, WebhookEventType, WebhookDeliveryListQuery } from '../schemas/webhooks';
import { uuidOf, type Clock, type NewRecords } from './clock';
import { AppError } from './errors';
import { publicEvent, type DomainEvent } from './events';
import {
  paginationInfo,
  parsePageRequest,
  type ListAnswer,
  type PageRequest,
  type PageUnder,
  type RecordReader,
} from './lists';
import { readOwn } from './ownership';
import { signedPost, type WebhookTransport } from './signed-post';
import { retryDelayMs } from './retry-backoff';
import {
  getOwnWebhook,
  signingSecrets,
  webhookSecretOwner,
  type SecretSealer,
  type StoredWebhook,
  type WebhookStore,
  type WebhookUrlDeps,
} from './webhooks';

/** Reads a webhook by id (consistent: a change just made, a disabled or rotated one, counts). */
type WebhookReader = Pick<WebhookStore, 'get'>;

/** One call to the receiver, or why none was made. */
export interface DeliveryAttempt {
  readonly attempted_at: string;
  /** The receiver's HTTP status; absent when no answer came (timeout, refused connection, not sent). */
  readonly status_code?: number;
  readonly duration_ms: number;
  /** Why the attempt failed, in words (a status outside 2xx, a timeout, a refused address...). */
  readonly error?: string;
}

export interface StoredDelivery {
  readonly id: string;
  readonly tenant: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly event_type: WebhookEventType;
  readonly status: DeliveryStatus;
  /** Every attempt, oldest first, redeliveries included. */
  readonly attempts: readonly DeliveryAttempt[];
  /** Where the current round starts in `attempts`: a redelivery starts a new round of retries. */
  readonly round_start: number;
  /** When the next attempt is due, while PENDING. */
  readonly next_attempt_at?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface PublicDelivery {
  readonly id: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly event_type: WebhookEventType;
  readonly status: DeliveryStatus;
  readonly attempts: readonly DeliveryAttempt[];
  readonly next_attempt_at?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The attempt just made and what it leaves the delivery as. */
export interface AttemptRecord {
  readonly attempt: DeliveryAttempt;
  readonly status: DeliveryStatus;
  readonly next_attempt_at?: string;
}

export interface DeliveryListFilters {
  readonly webhookId: string;
}

export interface DeliveryStore extends RecordReader<StoredDelivery, DeliveryListFilters> {
  /** A page of a webhook's deliveries, read with the webhook's owner (PageUnder). */
  listUnderWebhook(tenant: string, webhookId: string, request: PageRequest): Promise<PageUnder<StoredDelivery>>;
  /** Inserts the delivery unless it exists: false when it did (a dispatch run again). */
  createIfAbsent(delivery: StoredDelivery): Promise<boolean>;
  /** The test event and its one delivery, in one transaction. */
  createTest(event: DomainEvent, delivery: StoredDelivery): Promise<void>;
  /**
   * Appends the attempt and sets the status, only while the delivery is as `seen` (PENDING, with as
   * many attempts): false when another sender recorded one first.
   */
  recordAttempt(seen: StoredDelivery, record: AttemptRecord, now: string): Promise<boolean>;
  /** A new round due at `now`, only while the delivery is as `seen`; the delivery after, or undefined. */
  reopen(seen: StoredDelivery, now: string): Promise<StoredDelivery | undefined>;
}

/** Queues a delivery's next attempt: SQS with a delay on AWS, the process's timers locally. */
export interface DeliveryQueue {
  send(deliveryId: string, delayMs: number): Promise<void>;
}

/** The message the delivery queue carries (JSON). */
export interface DeliveryMessage {
  readonly delivery_id: string;
}

export interface DeliverySettings {
  /** How long a receiver has to answer 2xx (WEBHOOK_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The first retry's longest delay; the n-th waits up to base × 2^(n-1) (WEBHOOK_RETRY_BASE_MS). */
  readonly retryBaseMs: number;
}

/** Retries after the first attempt of a round, in RETRY mode (Passport's "up to 12 retries"). */
export const MAX_RETRIES = 12;
/**
 * The most attempts a delivery keeps: every attempt is listed, so redeliveries are bounded (seven
 * full rounds of RETRY); past it a redelivery is refused.
 */
export const MAX_ATTEMPTS = 100;

/**
 * The id of the delivery of `eventId` to `webhookId`: the same whenever the dispatcher runs, so a
 * dispatch run twice finds its delivery instead of making another. UUID-shaped (version 8: custom).
 */
export const deliveryIdOf = (eventId: string, webhookId: string): string => uuidOf(`${eventId}/${webhookId}`);

export function publicDelivery(delivery: StoredDelivery): PublicDelivery {
  return {
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    ...(delivery.next_attempt_at === undefined ? {} : { next_attempt_at: delivery.next_attempt_at }),
    created_at: delivery.created_at,
    updated_at: delivery.updated_at,
  };
}

/** The delivery of `event` to `webhook`, PENDING and due at `now`: its first attempt. */
export const newDelivery = (event: DomainEvent, webhook: Pick<StoredWebhook, 'id'>, now: string): StoredDelivery => ({
  id: deliveryIdOf(event.id, webhook.id),
  tenant: event.tenant,
  webhook_id: webhook.id,
  event_id: event.id,
  event_type: event.type,
  status: 'PENDING',
  attempts: [],
  round_start: 0,
  next_attempt_at: now,
  created_at: now,
  updated_at: now,
});

export interface AttemptDeps {
  readonly deliveries: Pick<DeliveryStore, 'get' | 'recordAttempt'>;
  readonly webhooks: WebhookReader;
  readonly events: { get(id: string): Promise<DomainEvent | undefined> };
  readonly transport: WebhookTransport;
  /** The URL rules, applied again at each attempt to the addresses the host resolves to then. */
  readonly urls: WebhookUrlDeps;
  readonly queue: DeliveryQueue;
  readonly clock: Clock;
  readonly settings: DeliverySettings;
  /** Opens the webhook's sealed secrets to sign the attempt. */
  readonly sealer: Pick<SecretSealer, 'open'>;
  /** The retries' jitter: a number in [0, 1) (Math.random; tests pass their own). */
  readonly random: () => number;
}

/** What a delivery message led to: an attempt and its result, or nothing to do (yet). */
export type AttemptOutcome = 'SUCCEEDED' | 'RETRYING' | 'FAILED' | 'NOT_DUE' | 'DONE_ALREADY';

/** The body every receiver gets: the event without its routing fields. */
export const eventBody = (event: DomainEvent): string => JSON.stringify(publicEvent(event));

const isSuccess = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** Why a status outside 2xx failed, as the delivery log says it. */
function statusError(status: number): string {
  if (status >= 300 && status < 400) return `HTTP ${status}: redirects are not followed`;
  return `HTTP ${status}: not a 2xx answer`;
}

/** What an attempt that was made leaves the delivery as: done, or due again after its backoff. */
function afterAttempt(
  delivery: StoredDelivery,
  mode: StoredWebhook['delivery_mode'],
  attempt: DeliveryAttempt,
  deps: Pick<AttemptDeps, 'settings' | 'random'>,
): AttemptRecord {
  if (isSuccess(attempt.status_code)) return { attempt, status: 'SUCCEEDED' };
  const retriesMade = delivery.attempts.length - delivery.round_start;
  if (mode === 'ONCE' || retriesMade >= MAX_RETRIES) return { attempt, status: 'FAILED' };
  // The wait counts from the attempt's end: a receiver that hung for the whole timeout gets it too.
  const due =
    Date.parse(attempt.attempted_at) + attempt.duration_ms + retryDelayMs(deps.settings, retriesMade + 1, deps.random);
  return { attempt, status: 'PENDING', next_attempt_at: new Date(due).toISOString() };
}

/** One attempt: the event, signed with every secret that signs now, posted under the URL rules. */
async function post(
  deps: Pick<AttemptDeps, 'transport' | 'urls' | 'settings' | 'sealer'>,
  webhook: StoredWebhook,
  event: DomainEvent,
  attemptedAt: string,
): Promise<DeliveryAttempt> {
  const secrets = await deps.sealer.open(webhook.secrets, webhookSecretOwner(webhook));
  const result = await signedPost(deps, {
    url: webhook.url,
    id: event.id,
    body: eventBody(event),
    secrets: signingSecrets(secrets, attemptedAt),
    sentAt: attemptedAt,
    timeoutMs: deps.settings.timeoutMs,
    userAgent: WEBHOOK_USER_AGENT,
  });
  const { status_code: status } = result;
  const error = result.error ?? (status === undefined || isSuccess(status) ? undefined : statusError(status));
  return {
    attempted_at: attemptedAt,
    ...(status === undefined ? {} : { status_code: status }),
    duration_ms: result.duration_ms,
    ...(error === undefined ? {} : { error }),
  };
}

export const WEBHOOK_USER_AGENT = 'breb-merchant-api-webhooks/1';

/**
 * Handles one delivery message: when the delivery is PENDING and due, makes the attempt, records it,
 * and queues the next one. A message early for its delivery (SQS delays at most 15 minutes) is
 * queued again for the rest of the wait.
 */
export async function attemptDelivery(deps: AttemptDeps, deliveryId: string): Promise<AttemptOutcome> {
  const delivery = await deps.deliveries.get(deliveryId);
  if (!delivery || delivery.status !== 'PENDING') return 'DONE_ALREADY';
  const wait = Date.parse(delivery.next_attempt_at ?? delivery.updated_at) - Date.parse(deps.clock.now());
  if (wait > 0) {
    await deps.queue.send(delivery.id, wait);
    return 'NOT_DUE';
  }

  const [webhook, event] = await Promise.all([
    deps.webhooks.get(delivery.webhook_id),
    deps.events.get(delivery.event_id),
  ]);
  const attemptedAt = deps.clock.now();
  let record: AttemptRecord;
  if (!webhook || !webhook.enabled || !event) {
    const error = `Not sent: ${!webhook ? 'the webhook was deleted' : !webhook.enabled ? 'the webhook is disabled' : 'the event has expired (events are kept 30 days)'}`;
    record = { attempt: { attempted_at: attemptedAt, duration_ms: 0, error }, status: 'FAILED' };
  } else {
    const attempt = await post(deps, webhook, event, attemptedAt);
    record = afterAttempt(delivery, webhook.delivery_mode, attempt, deps);
  }
  if (!(await deps.deliveries.recordAttempt(delivery, record, deps.clock.now()))) return 'DONE_ALREADY';
  if (record.status === 'PENDING') {
    await deps.queue.send(delivery.id, Math.max(0, Date.parse(record.next_attempt_at!) - Date.parse(deps.clock.now())));
    return 'RETRYING';
  }
  return record.status;
}

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
    await deps.queue.send(delivery.id, 0);
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
  await deps.queue.send(reopened.id, 0);
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
