/**
 * The audit trail (docs/audit.md): who changed what through the API (payments, refunds, recipients,
 * customers, accounts, keys, QR codes, webhooks, the approval settings), who downloaded a report, and
 * which operator answered a transfer in review. Every change is recorded as an event in the change's
 * own transaction (shared/data/audit-trail.ts), with the actor (the token's `sub`: a person, or the
 * machine client), the action and the non-secret fields before and after. Events are never changed;
 * a client reads its own at GET /v1/audit-events.
 */
import type { AuditEventListQuery } from '../schemas/audit';
import { listOf } from './lists';

export type AuditResourceType =
  | 'WEBHOOK'
  | 'INBOUND_APPROVAL'
  | 'KEY'
  | 'PAYMENT'
  | 'REFUND'
  | 'RECIPIENT'
  | 'CUSTOMER'
  | 'ACCOUNT'
  | 'QR_CODE'
  | 'REPORT'
  | 'PERSONAL_DATA';

export type AuditAction =
  | 'webhook.created'
  | 'webhook.updated'
  | 'webhook.deleted'
  | 'webhook.secret_rotated'
  | 'webhook.disabled'
  | 'inbound_approval.created'
  | 'inbound_approval.updated'
  | 'inbound_approval.secret_rotated'
  | 'key.registered'
  | 'key.suspended'
  | 'key.activated'
  | 'key.deleted'
  | 'payment.answered'
  | 'refund.answered'
  | 'payment.created'
  | 'refund.created'
  | 'recipient.created'
  | 'recipient.deleted'
  | 'customer.linked'
  | 'customer.activated'
  | 'customer.deactivated'
  | 'account.linked'
  | 'qr_code.created'
  | 'qr_code.deleted'
  | 'report.created'
  | 'report.downloaded'
  | 'personal_data.exported'
  | 'personal_data.erased';

/** The non-secret fields of a resource, as they were (`before`) and became (`after`). */
export type AuditedFields = Readonly<Record<string, unknown>>;

export interface AuditEvent {
  readonly id: string;
  readonly tenant: string;
  /** The token's `sub`: the person signed in to the dashboard, or the machine client itself. */
  readonly actor: string;
  readonly action: AuditAction;
  readonly resource_type: AuditResourceType;
  readonly resource_id: string;
  /** Absent for a creation. */
  readonly before?: AuditedFields;
  /** Absent for a deletion. */
  readonly after?: AuditedFields;
  /** What an operator's change rests on (a transfer in review answered: the bank's confirmation). */
  readonly evidence?: string;
  /** The request that made the change (its `x-request-id`, in the request log too). */
  readonly request_id: string;
  /** The caller's IP address (the viewer's, not CloudFront's); absent for the service and an operator's command. */
  readonly ip_address?: string;
  /** The caller's User-Agent, as sent (at most 512 characters). */
  readonly user_agent?: string;
  /**
   * The hash chain (docs/audit.md): the hash of the client's event before this one (64 zeros for its
   * first), and this event's own, hex SHA-256 over its canonical JSON with previous_hash. Its link's,
   * written moments after the change commits: absent until then.
   */
  readonly previous_hash?: string;
  readonly hash?: string;
  /** When the change was made; an event never changes, so updated_at is the same. */
  readonly created_at: string;
  readonly updated_at: string;
}

export interface AuditListFilters {
  readonly resourceType?: AuditResourceType;
  readonly resourceId?: string;
  readonly action?: AuditAction;
  /** The events of one actor (a person's `sub`, a machine client's id). */
  readonly actor?: string;
}

/** The audit event object of GET /v1/audit-events: the stored event without its tenant. */
export type PublicAuditEvent = Omit<AuditEvent, 'tenant' | 'updated_at'>;

export function publicAuditEvent(event: AuditEvent): PublicAuditEvent {
  return {
    id: event.id,
    actor: event.actor,
    action: event.action,
    resource_type: event.resource_type,
    resource_id: event.resource_id,
    ...(event.before === undefined ? {} : { before: event.before }),
    ...(event.after === undefined ? {} : { after: event.after }),
    ...(event.evidence === undefined ? {} : { evidence: event.evidence }),
    request_id: event.request_id,
    ...(event.ip_address === undefined ? {} : { ip_address: event.ip_address }),
    ...(event.user_agent === undefined ? {} : { user_agent: event.user_agent }),
    created_at: event.created_at,
    ...(event.previous_hash === undefined ? {} : { previous_hash: event.previous_hash }),
    ...(event.hash === undefined ? {} : { hash: event.hash }),
  };
}

/** GET /v1/audit-events: the tenant's events, a page at a time (docs/pagination.md), newest first by default. */
export const listAuditEvents = /* @__PURE__ */ listOf({
  name: 'audit_events',
  filters: (query: AuditEventListQuery): AuditListFilters => ({
    ...(query.resource_type === undefined ? {} : { resourceType: query.resource_type }),
    ...(query.resource_id === undefined ? {} : { resourceId: query.resource_id }),
    ...(query.action === undefined ? {} : { action: query.action }),
    ...(query.actor === undefined ? {} : { actor: query.actor }),
  }),
  toPublic: publicAuditEvent,
});
