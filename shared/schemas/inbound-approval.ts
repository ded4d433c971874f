/**
 * Inbound approval settings (docs/inbound-approval.md): where the API asks a client's system to
 * accept or refuse each inbound payment. Shapes only: whether the callback URL may be called is
 * decided by shared/domain/webhook-urls.ts, as for a webhook's URL (400 either way).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, TIMESTAMPS } from './common';
import { WEBHOOK_URL, webhookWithSecretSchema } from './webhooks';

/** PUT replaces the settings: callback_url and enabled always; auto_approve_on_error defaults to false. */
export const putInboundApprovalRequestSchema = closedObject(
  { callback_url: WEBHOOK_URL, enabled: { type: 'boolean' }, auto_approve_on_error: { type: 'boolean' } },
  ['callback_url', 'enabled'],
);

export type PutInboundApprovalRequest = FromSchema<typeof putInboundApprovalRequestSchema>;

const settingsProperties = {
  ...putInboundApprovalRequestSchema.properties,
  ...TIMESTAMPS,
} as const;
const SETTINGS_FIELDS = ['callback_url', 'enabled', 'auto_approve_on_error', 'created_at', 'updated_at'] as const;

/** The settings as GET answers them: never the secret. */
export const inboundApprovalSchema = /* @__PURE__ */ closedObject(settingsProperties, SETTINGS_FIELDS);

/** PUT's answer: with the secret on the first PUT only. */
export const inboundApprovalPutSchema = /* @__PURE__ */ closedObject(
  { ...settingsProperties, secret: webhookWithSecretSchema.properties.secret },
  SETTINGS_FIELDS,
);

/** rotate-secret's answer: the new secret, shown this once (a replay under its Idempotency-Key goes without it). */
export const inboundApprovalWithSecretSchema = /* @__PURE__ */ closedObject(
  { ...settingsProperties, secret: webhookWithSecretSchema.properties.secret },
  SETTINGS_FIELDS,
);
