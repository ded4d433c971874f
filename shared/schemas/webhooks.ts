/**
 * Webhook schemas (docs/webhooks.md). Shapes only: whether a URL may be called (scheme, credentials,
 * the addresses its host resolves to) is decided by shared/domain/webhook-urls.ts, 400 either way.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { text } from './common';
import { pageQueryProperties } from './lists';

/** The events a webhook may subscribe to (the design's contract; docs/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  'payment.outbound.confirmed',
  'payment.inbound.received',
  'payment.inbound.confirmed',
  'payment.settled',
  'payment.rejected',
  'qr_code.paid',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const DELIVERY_MODES = ['ONCE', 'RETRY'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** The most characters of a webhook URL; shared/domain/webhook-urls.ts holds the other URL rules. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;
const WEBHOOK_URL = { type: 'string', minLength: 1, maxLength: MAX_WEBHOOK_URL_LENGTH } as const;

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

export const createWebhookRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'events'],
  properties: webhookProperties,
} as const;

export type CreateWebhookRequest = FromSchema<typeof createWebhookRequestSchema>;

/** PATCH: any of the fields, at least one. */
export const updateWebhookRequestSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: webhookProperties,
} as const;

export type UpdateWebhookRequest = FromSchema<typeof updateWebhookRequestSchema>;

export const webhookListQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: pageQueryProperties,
} as const;

export type WebhookListQuery = FromSchema<typeof webhookListQuerySchema>;
