/** The audit trail's schemas (docs/audit.md): GET /v1/audit-events, its query and its events. */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, matching, TIMESTAMP, UUID } from './common';
import { listAnswer, listQuery } from './lists';

export const AUDIT_RESOURCE_TYPES = [
  'WEBHOOK',
  'INBOUND_APPROVAL',
  'KEY',
  'PAYMENT',
  'REFUND',
  'RECIPIENT',
  'CUSTOMER',
  'ACCOUNT',
  'QR_CODE',
  'REPORT',
  'PERSONAL_DATA',
] as const;

export const AUDIT_ACTIONS = [
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'webhook.secret_rotated',
  // Disabled by the API: every delivery failed for days (docs/webhooks.md, "Disabled webhooks").
  'webhook.disabled',
  'inbound_approval.created',
  'inbound_approval.updated',
  'inbound_approval.secret_rotated',
  'key.registered',
  'key.suspended',
  'key.activated',
  'key.deleted',
  // A transfer in review answered by an operator, with the bank's evidence (docs/network.md, "Review").
  'payment.answered',
  'refund.answered',
  // A client's own changes (docs/audit.md): a payment or a refund made, a recipient saved or deleted,
  // a merchant linked, (de)activated, an account linked, a QR code made or deleted, a report asked for.
  'payment.created',
  'refund.created',
  'recipient.created',
  'recipient.deleted',
  'customer.linked',
  'customer.activated',
  'customer.deactivated',
  'account.linked',
  'qr_code.created',
  'qr_code.deleted',
  'report.created',
  // A read that is audited: a report's file holds every payment of a period with its payers' data.
  'report.downloaded',
  // A data subject's request answered by an operator (docs/privacy.md).
  'personal_data.exported',
  'personal_data.erased',
] as const;

/** The events of one resource (resource_type and resource_id), of one action, of one actor, within the date filters. */
export const auditEventListQuerySchema = listQuery({
  resource_type: { type: 'string', enum: AUDIT_RESOURCE_TYPES },
  // The resource's own id (a webhook's, a payment's, ...); the inbound approval settings' is the client's id.
  resource_id: { type: 'string', minLength: 1, maxLength: 255 },
  action: { type: 'string', enum: AUDIT_ACTIONS },
  // Who made the changes: a person's `sub`, a machine client's id, `operator:<name>`.
  actor: { type: 'string', minLength: 1, maxLength: 255 },
});

export type AuditEventListQuery = FromSchema<typeof auditEventListQuerySchema>;

const SHA256_HEX = /* @__PURE__ */ matching('^[0-9a-f]{64}$', 'must be 64 lowercase hexadecimal digits');

/** The resource's non-secret fields (a webhook's url and events, a key's status, …): never a secret. */
const auditedFieldsSchema = { type: 'object' } as const;

/** One change: who (the token's sub), what, to which resource, its fields before and after, when. */
export const auditEventSchema = /* @__PURE__ */ closedObject(
  {
    id: UUID,
    actor: { type: 'string', minLength: 1 },
    action: { type: 'string', enum: AUDIT_ACTIONS },
    resource_type: { type: 'string', enum: AUDIT_RESOURCE_TYPES },
    resource_id: { type: 'string', minLength: 1 },
    before: auditedFieldsSchema,
    after: auditedFieldsSchema,
    // What an operator's change rests on (the bank's confirmation of a transfer in review).
    evidence: { type: 'string', minLength: 1, maxLength: 500 },
    request_id: { type: 'string', minLength: 1 },
    // The caller's address (the viewer's, behind CloudFront) and User-Agent; absent for the service
    // itself and an operator's command, which come from no request.
    ip_address: { type: 'string', minLength: 1, maxLength: 64 },
    user_agent: { type: 'string', maxLength: 512 },
    created_at: TIMESTAMP,
    // The client's hash chain (docs/audit.md): the previous event's hash (64 zeros for the first) and
    // this event's, hex SHA-256 of its canonical JSON (these fields but `hash`, keys sorted); absent
    // until the event is linked, moments after its change.
    previous_hash: SHA256_HEX,
    hash: SHA256_HEX,
  },
  ['id', 'actor', 'action', 'resource_type', 'resource_id', 'request_id', 'created_at'],
);

export const auditEventListSchema = /* @__PURE__ */ listAnswer('audit_events', auditEventSchema);
