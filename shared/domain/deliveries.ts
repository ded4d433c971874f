/**
 * Deliveries of events to webhooks (docs/webhooks.md, "Delivery"). The dispatcher turns each event of
 * the outbox into one delivery per webhook that wants it, and queues it (shared/domain/dispatch.ts);
 * the sender makes each attempt, records it on the delivery, and queues the next one with its
 * backoff (RETRY) or ends it, noting how it went on the webhook (shared/domain/webhook-health.ts).
 * What a client does with the log (list, redeliver, test) is shared/domain/delivery-log.ts's.
 * Everything here is safe to run twice: a delivery's id follows from its event and its webhook, and
 * an attempt is recorded only on the delivery as it was read.
 */
import type { DeliveryStatus, WebhookEventType } from '../schemas/webhooks';
import { uuidOf, type Clock, type IdGenerator } from './clock';
import { publicEvent, type DomainEvent } from './events';
import type { PageRequest, PageUnder, RecordReader } from './lists';
import type { EndpointBreaker } from './endpoint-breaker';
import { signedPost, type WebhookTransport } from './signed-post';
import { retryDelayMs } from './retry-backoff';
import { noteAttempt, type WebhookHealthStore } from './webhook-health';
import {
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
  /**
   * Moves the next attempt to `until` without one made (its endpoint held back), only while the
   * delivery is as `seen`: false when it changed.
   */
  postpone(seen: StoredDelivery, until: string, now: string): Promise<boolean>;
  /** A new round due at `now`, only while the delivery is as `seen`; the delivery after, or undefined. */
  reopen(seen: StoredDelivery, now: string): Promise<StoredDelivery | undefined>;
}

/**
 * Queues a delivery's next attempt: SQS with a delay on AWS, the process's timers locally; in its
 * tenant's message group, so that one client's backlog (a flood of events, a slow receiver's retries)
 * does not hold back another client's deliveries. (An attempt the sweeper restarts goes without one,
 * as its settlement jobs: SettlementQueue.)
 */
export interface DeliveryQueue {
  send(deliveryId: string, delayMs: number, tenant?: string): Promise<void>;
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
  /** How long every attempt must fail before the webhook is disabled (WEBHOOK_DISABLE_AFTER_MS). */
  readonly disableAfterMs: number;
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
  readonly deliveries: Pick<DeliveryStore, 'get' | 'recordAttempt' | 'postpone'>;
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
  /** Where each attempt's result is noted, to disable a webhook failing for days (webhook-health.ts). */
  readonly health: WebhookHealthStore;
  /** The id of a `webhook.disabled` event. */
  readonly ids: IdGenerator;
  /** Holds back the endpoints failing every attempt (endpoint-breaker.ts); absent, every attempt is made. */
  readonly breaker?: EndpointBreaker;
}

/** What a delivery message led to: an attempt and its result, or nothing to do (yet). */
export type AttemptOutcome = 'SUCCEEDED' | 'RETRYING' | 'FAILED' | 'NOT_DUE' | 'DONE_ALREADY' | 'HELD';

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
    await deps.queue.send(delivery.id, wait, delivery.tenant);
    return 'NOT_DUE';
  }

  const [webhook, event] = await Promise.all([
    deps.webhooks.get(delivery.webhook_id),
    deps.events.get(delivery.event_id),
  ]);
  const attemptedAt = deps.clock.now();
  let record: AttemptRecord;
  const sentTo = webhook?.enabled && event ? webhook : undefined;
  if (!sentTo || !event) {
    const error = `Not sent: ${!webhook ? 'the webhook was deleted' : !webhook.enabled ? 'the webhook is disabled' : 'the event has expired (events are kept 30 days)'}`;
    record = { attempt: { attempted_at: attemptedAt, duration_ms: 0, error }, status: 'FAILED' };
  } else {
    // The client's endpoint: another client's failures at the same URL (its deliveries refused there,
    // unsigned by the owner's secret) must never hold this client's deliveries back.
    const endpoint = `${sentTo.tenant} ${sentTo.url}`;
    const admitted = deps.breaker?.admit(endpoint, Date.parse(attemptedAt)) ?? { attempt: true };
    // Held back: due when the endpoint's cool-down ends, no attempt made (none counts as a retry), and
    // queued for then. Moved in the index of due work too, so the sweeper does not queue it again.
    if (!admitted.attempt) {
      const until = new Date(admitted.untilMs).toISOString();
      if (!(await deps.deliveries.postpone(delivery, until, deps.clock.now()))) return 'DONE_ALREADY';
      await deps.queue.send(delivery.id, admitted.untilMs - Date.parse(deps.clock.now()), delivery.tenant);
      return 'HELD';
    }
    const attempt = await post(deps, sentTo, event, attemptedAt);
    deps.breaker?.note(endpoint, isSuccess(attempt.status_code), Date.parse(deps.clock.now()));
    record = afterAttempt(delivery, sentTo.delivery_mode, attempt, deps);
  }
  if (!(await deps.deliveries.recordAttempt(delivery, record, deps.clock.now()))) return 'DONE_ALREADY';
  if (record.status === 'PENDING') {
    await deps.queue.send(
      delivery.id,
      Math.max(0, Date.parse(record.next_attempt_at!) - Date.parse(deps.clock.now())),
      delivery.tenant,
    );
  }
  // Once the attempt is recorded and the next one queued: an attempt not sent says nothing of the receiver.
  if (sentTo) {
    const health = { ...deps, disableAfterMs: deps.settings.disableAfterMs };
    await noteAttempt(health, sentTo, { attempted_at: attemptedAt, succeeded: record.status === 'SUCCEEDED' });
  }
  return record.status === 'PENDING' ? 'RETRYING' : record.status;
}
