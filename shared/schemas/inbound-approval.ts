/**
 * Inbound approval settings (docs/inbound-approval.md): where the API asks a client's system to
 * accept or refuse each inbound payment. Shapes only: whether the callback URL may be called is
 * decided by shared/domain/webhook-urls.ts, as for a webhook's URL (400 either way).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject } from './common';
import { WEBHOOK_URL } from './webhooks';

/** PUT replaces the settings: callback_url and enabled always; auto_approve_on_error defaults to false. */
export const putInboundApprovalRequestSchema = closedObject(
  { callback_url: WEBHOOK_URL, enabled: { type: 'boolean' }, auto_approve_on_error: { type: 'boolean' } },
  ['callback_url', 'enabled'],
);

export type PutInboundApprovalRequest = FromSchema<typeof putInboundApprovalRequestSchema>;
