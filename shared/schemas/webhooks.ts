/**
 * Webhook schemas (docs/webhooks.md). Shapes only: whether a URL may be called (scheme, credentials,
 * the addresses its host resolves to) is decided by shared/domain/webhook-urls.ts, 400 either way.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, matching, text, TIMESTAMP, TIMESTAMPS, UUID } from './common';
import { MAX_WEBHOOK_URL_LENGTH } from './bounds';
import { listAnswer, listQuery } from './lists';

/** The events a committed change reports (the outbox, shared/domain/events.ts; docs/webhooks.md). */
export const CHANGE_EVENT_TYPES = [
  'customer.updated',
  'payment.outbound.confirmed',
  'payment.inbound.received',
  'payment.inbound.confirmed',
  'payment.settled',
  'payment.rejected',
  'payment.reversed',
  'qr_code.paid',
  'report.ready',
  'reconciliation.completed',
  'refund.created',
  'refund.settled',
  'refund.rejected',
  // One of the client's webhooks disabled after its deliveries all failed for days (docs/webhooks.md).
  'webhook.disabled',
] as const;

/** The events a webhook may subscribe to: every change's, and the test event it can ask for. */
export const WEBHOOK_EVENT_TYPES = [...CHANGE_EVENT_TYPES, 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_MODES = ['ONCE', 'RETRY'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** PENDING while attempts are being made, then SUCCEEDED (a 2xx) or FAILED (no more attempts). */
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const WEBHOOK_URL = { type: 'string', minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH } as const;

const webhookProperties = {
  url: WEBHOOK_URL,
  events: {
    type: 'array',
    minItems: 1,
    maxItems: WEBHOOK_EVENT_TYPES.length,
    uniqueItems: true,
    items: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
  },
  delivery_mode: { type: 'string', enum: DELIVERY_MODES },
  enabled: { type: 'boolean' },
  description: text(200),
} as const;

export const createWebhookRequestSchema = closedObject(webhookProperties, ['url', 'events']);

export type CreateWebhookRequest = FromSchema<typeof createWebhookRequestSchema>;

/** PATCH: any of the fields, at least one. */
export const updateWebhookRequestSchema = { ...closedObject(webhookProperties), minProperties: 1 } as const;

export type UpdateWebhookRequest = FromSchema<typeof updateWebhookRequestSchema>;

/** No filter of its own: a client has few webhooks. */
export const webhookListQuerySchema = listQuery({});

export type WebhookListQuery = FromSchema<typeof webhookListQuerySchema>;

/** A webhook's deliveries, newest or oldest first; no filter of their own. */
export const webhookDeliveryListQuerySchema = listQuery({});

export type WebhookDeliveryListQuery = FromSchema<typeof webhookDeliveryListQuerySchema>;

/** Why a webhook is disabled when the API disabled it: every delivery failed for days (docs/webhooks.md). */
export const WEBHOOK_DISABLED_REASONS = ['DELIVERIES_FAILED'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/**
 * A webhook, as every route answers it: never with its secret, but for webhookWithSecretSchema.
 * `failing_since`: the first failed attempt of a run with no success since; `disabled_reason`: the
 * API disabled it (both go when it is enabled again or given a new URL).
 */
export const webhookSchema = /* @__PURE__ */ closedObject(
  {
    id: UUID,
    ...webhookProperties,
    failing_since: TIMESTAMP,
    disabled_reason: { type: 'string', enum: WEBHOOK_DISABLED_REASONS },
    ...TIMESTAMPS,
  },
  ['id', 'url', 'events', 'delivery_mode', 'enabled', 'created_at', 'updated_at'],
);

/**
 * The answer of create and rotate-secret, the only two that show the (new) signing secret: always on
 * the first answer, never on a replay under the same Idempotency-Key (the secret is not kept with the
 * recorded answer; the replay says so in `Idempotent-Replay-Withheld: secret`).
 */
export const webhookWithSecretSchema = /* @__PURE__ */ closedObject(
  {
    ...webhookSchema.properties,
    secret: /* @__PURE__ */ matching('^whsec_[A-Za-z0-9+/]+={0,2}$', 'must be whsec_ and a Base64 key'),
  },
  webhookSchema.required,
);

export const webhookListSchema = /* @__PURE__ */ listAnswer('webhooks', webhookSchema);

/** One call to the receiver, or why none was made (no status_code when no answer came). */
export const deliveryAttemptSchema = /* @__PURE__ */ closedObject(
  {
    attempted_at: TIMESTAMP,
    status_code: { type: 'integer', minimum: 100, maximum: 599 },
    duration_ms: { type: 'integer', minimum: 0 },
    error: { type: 'string' },
  },
  ['attempted_at', 'duration_ms'],
);

/** One event's delivery to one webhook, with every attempt made, redeliveries included. */
export const webhookDeliverySchema = /* @__PURE__ */ closedObject(
  {
    id: UUID,
    webhook_id: UUID,
    event_id: UUID,
    event_type: { type: 'string', enum: WEBHOOK_EVENT_TYPES },
    status: { type: 'string', enum: DELIVERY_STATUSES },
    attempts: { type: 'array', items: deliveryAttemptSchema },
    next_attempt_at: TIMESTAMP,
    ...TIMESTAMPS,
  },
  ['id', 'webhook_id', 'event_id', 'event_type', 'status', 'attempts', 'created_at', 'updated_at'],
);

export const webhookDeliveryListSchema = /* @__PURE__ */ listAnswer('deliveries', webhookDeliverySchema);
