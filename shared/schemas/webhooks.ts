/**
 * Webhook schemas (docs/webhooks.md). Shapes only: whether a URL may be called (scheme, credentials,
 * the addresses its host resolves to) is decided by shared/domain/webhook-urls.ts, 400 either way.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, text } from './common';
import { listQuery } from './lists';

/** The events a committed change reports (the outbox, shared/domain/events.ts; docs/webhooks.md). */
export const CHANGE_EVENT_TYPES = [
  'payment.outbound.confirmed',
  'payment.inbound.received',
  'payment.inbound.confirmed',
  'payment.settled',
  'payment.rejected',
  'qr_code.paid',
] as const;

/** The events a webhook may subscribe to: every change's, and the test event it can ask for. */
export const WEBHOOK_EVENT_TYPES = [...CHANGE_EVENT_TYPES, 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_MODES = ['ONCE', 'RETRY'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** The most characters of a webhook URL; shared/domain/webhook-urls.ts holds the other URL rules. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
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
