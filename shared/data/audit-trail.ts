/**
 * The audit trail in DynamoDB (shared/domain/audit.ts, docs/audit.md). Who acts is set once per
 * request by the HTTP chain (`actingAs`, around the route's work: shared/http/handler.ts); a store
 * that changes an audited resource adds `auditItems(...)` to the change's own transaction, so the
 * event is written exactly when the change is, never one without the other. Outside a request (a
 * worker, the sandbox's seed) nobody acts and no event is written.
 *
 * An event holds the resource's non-secret fields only, named here one by one: a field added to a
 * webhook later is not audited until it is listed, and a secret never is.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEvent, AuditListFilters, AuditResourceType, AuditedFields } from '../domain/audit';
import type { RecordReader } from '../domain/lists';
import { AUDIT_EVENT_ENTITY, chainLinkJoin } from './audit-chain';
import { itemKeys } from './item-keys';
import { listedReads, listingOf, type ListedKind } from './listed-records';
import { listedRecordInsert } from './inserts';
import type { TransactItem } from './transactions';

/** Who makes the changes of the running request. */
export interface Actor {
  readonly tenant: string;
  /** The token's `sub`. */
  readonly subject: string;
  readonly requestId: string;
  /** The caller's address (not the edge's: shared/http/caller.ts); none for the service or an operator's command. */
  readonly ipAddress?: string;
  /** The User-Agent the caller sent. */
  readonly userAgent?: string;
  /** What the actor's changes rest on: an operator's evidence, kept on each event. */
  readonly evidence?: string;
}

const actors = new AsyncLocalStorage<Actor>();

/** Runs `work` with `actor` as the author of every audited change it makes. */
export const actingAs = <T>(actor: Actor, work: () => Promise<T>): Promise<T> => actors.run(actor, work);

/**
 * The non-secret fields of each audited resource: the only ones an event copies. Of a person's data
 * (Ley 1581: a payer's or payee's name, document, account number, phone; free text a client wrote,
 * which may hold any of these) an event keeps none: it names ids, statuses and amounts, which say
 * what changed and point at the record that holds the rest. The trail is kept for years, and a data
 * subject's erasure must not have to reach into it: the record itself holds the person's data.
 */
const AUDITED_FIELDS: Readonly<Record<AuditResourceType, readonly string[]>> = {
  WEBHOOK: ['url', 'events', 'delivery_mode', 'enabled', 'description', 'disabled_reason'],
  INBOUND_APPROVAL: ['callback_url', 'enabled', 'auto_approve_on_error'],
  KEY: ['key_type', 'key_value', 'status', 'account_id', 'customer_id', 'display_name'],
  // Not the counterparty (a person's name, document and account) nor the description (free text).
  PAYMENT: [
    'status',
    'direction',
    'customer_id',
    'account_id',
    'amount_cents',
    'resolution_id',
    'recipient_id',
    'rejection_reason',
    'review',
    'settled_at',
  ],
  // Not the counterparty (the payer, a person) nor the reason (free text).
  REFUND: ['status', 'payment_id', 'customer_id', 'account_id', 'amount_cents', 'rejection_reason', 'review'],
  // A recipient is a person's key and account under the client's alias for them: its customer only.
  RECIPIENT: ['customer_id'],
  // Its status and kind; not its NIT, name, email, phone or address (a merchant may be a person).
  CUSTOMER: ['status', 'type', 'identification_type', 'merchant_category_code'],
  // Not its number (an account number is a person's data when the merchant is one) nor its holder's phone.
  ACCOUNT: ['customer_id', 'type', 'account_status'],
  // The code's kind and what it pays into; not its payload, which names the merchant.
  QR_CODE: ['status', 'type', 'channel', 'customer_id', 'account_id', 'key_id'],
  REPORT: ['type', 'status', 'customer_id', 'account_id', 'created_from', 'created_to'],
  // A data subject's request an operator answered (docs/privacy.md): the number's last four only.
  PERSONAL_DATA: ['identification_type', 'identification_number', 'found', 'erased', 'masked', 'kept'],
};

const auditedFieldsOf = (type: AuditResourceType, record: object): AuditedFields => {
  const fields = record as Record<string, unknown>;
  return Object.fromEntries(
    AUDITED_FIELDS[type].filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]),
  );
};

/** The events of one resource are a scope of the tenant's collection: its filter reads only them. */
const resourceScope = (type: string, id: string): string => `${type}#${id}`;

const AUDIT_EVENTS: ListedKind<AuditEvent, AuditListFilters> = {
  name: AUDIT_EVENT_ENTITY,
  // An event records a change once and is never changed itself.
  immutable: true,
  // Answered with its hash chain link, once the audit archiver has linked it.
  join: chainLinkJoin,
  key: itemKeys.auditEvent,
  scopeOf: (event) => resourceScope(event.resource_type, event.resource_id),
  where: (filters) => ({
    scope:
      filters.resourceType !== undefined && filters.resourceId !== undefined
        ? resourceScope(filters.resourceType, filters.resourceId)
        : undefined,
    equals: {
      resource_type: filters.resourceType,
      resource_id: filters.resourceId,
      action: filters.action,
      actor: filters.actor,
    },
  }),
};

export interface AuditedChange {
  readonly action: AuditAction;
  readonly resourceType: AuditResourceType;
  readonly resourceId: string;
  /** The resource as it was; none for a creation. */
  readonly before?: object;
  /** The resource as it became; none for a deletion. */
  readonly after?: object;
  readonly at: string;
}

/**
 * The items that record `change` (the event, listed, and its lists' counters), to be written in the
 * change's own transaction; none outside a request. The event is linked to its client's hash chain
 * after it commits, by the audit archiver (shared/data/audit-chain.ts).
 */
export function auditItems(change: AuditedChange): TransactItem[] {
  const actor = actors.getStore();
  return actor ? actorAuditItems(actor, change) : [];
}

/**
 * The items that record `change` made by `actor` outside any request: the service itself (a webhook
 * the sender disabled, shared/data/webhook-health.ts), which names itself and what it rests on.
 */
export function actorAuditItems(actor: Actor, change: AuditedChange): TransactItem[] {
  const event: AuditEvent = {
    id: randomUUID(),
    tenant: actor.tenant,
    actor: actor.subject,
    action: change.action,
    resource_type: change.resourceType,
    resource_id: change.resourceId,
    ...(change.before ? { before: auditedFieldsOf(change.resourceType, change.before) } : {}),
    ...(change.after ? { after: auditedFieldsOf(change.resourceType, change.after) } : {}),
    ...(actor.evidence ? { evidence: actor.evidence } : {}),
    request_id: actor.requestId,
    ...(actor.ipAddress === undefined ? {} : { ip_address: actor.ipAddress }),
    ...(actor.userAgent === undefined ? {} : { user_agent: actor.userAgent }),
    created_at: change.at,
    updated_at: change.at,
  };
  return listedRecordInsert(event, itemKeys.auditEvent(event.id), AUDIT_EVENTS.name, listingOf(AUDIT_EVENTS, event));
}

/**
 * auditItems for a change only an operator's command audits (a transfer in review answered): none
 * unless the actor gives evidence, so that the same write made by a job, or within a client's
 * request (a payment to one of our own merchants answered at once), records nothing.
 */
export const operatorAuditItems = (change: AuditedChange): TransactItem[] =>
  actors.getStore()?.evidence ? auditItems(change) : [];

/**
 * The audit list's reads (listAuditEvents'). Marked pure: every function that writes audits imports
 * this module, and without the mark each carried the list machinery of this unused call (≈15 KB).
 */
export const dynamoAuditStore: RecordReader<AuditEvent, AuditListFilters> = /* @__PURE__ */ listedReads(AUDIT_EVENTS);
