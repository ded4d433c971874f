/**
 * Key design of the single table (docs/data-model.md). Every item carries `entity`; entity items are
 * keyed by their id, uniqueness guards by the value they protect (written in the same transaction as
 * the entity), counters and page cursors by the list partition they describe.
 */
import { shardOf } from './list-shards';

export interface ItemKey {
  readonly pk: string;
  readonly sk: string;
}

/**
 * The per-tenant rate limit's counters (shared/data/rate-limit-store.ts) are the only items under
 * this partition-key prefix and the only attributes they hold: every route's function may update
 * them, and its IAM grant for that reaches these keys and attributes only
 * (infra/constructs/api-function.ts).
 */
export const RATE_WINDOW_KEY_PREFIX = 'RATE#';
export const RATE_WINDOW_ATTRIBUTES = ['pk', 'sk', 'entity', 'requests', 'expires_at'] as const;

/**
 * The partition-key prefix of the audit events and their links in the hash chain (docs/audit.md): the
 * only items under it. An event is one item (its lists are its own index keys), its link another, and
 * no function's role may update or delete an item under this prefix
 * (infra/constructs/service-function.ts, auditEventsImmutable).
 */
export const AUDIT_EVENT_KEY_PREFIX = 'AUDIT#';

/**
 * The partition-key prefixes of the items that hold money (docs/security.md, "Money partitions"): an
 * account with its balance, movements and ledger days; a payment and its details; a refund; a
 * reversal; the network's credit answers. Only the functions whose entry declares `writesMoney` may
 * write under them (infra/constructs/service-function.ts, moneyPartitionsGuarded): a bug in a QR
 * code's route or a webhook's worker cannot rewrite a balance.
 */
export const MONEY_KEY_PREFIXES = ['ACCOUNT#', 'PAYMENT#', 'REFUND#', 'REVERSAL#', 'CREDIT#'] as const;

/**
 * The `entity` of an event's item (shared/data/events.ts). On AWS the dispatcher's event source
 * passes on only the stream's insertions of these (infra/constructs/worker-function.ts).
 */
export const EVENT_ENTITY = 'EVENT';

/** The `entity` of a report run's item (shared/data/reports-repository.ts): the sweeper runs it again. */
export const REPORT_ENTITY = 'REPORT';

/** The `entity` of a day's settlement file record (shared/data/reconciliations-repository.ts): the sweeper runs it again. */
export const SETTLEMENT_FILE_ENTITY = 'SETTLEMENT_FILE';

export const itemKeys = {
  customer: (id: string): ItemKey => ({ pk: `CUSTOMER#${id}`, sk: 'CUSTOMER' }),
  /** One NIT per client: the guard item holds the id of the customer that took it. */
  nitGuard: (tenant: string, nit: string): ItemKey => ({ pk: `GUARD#NIT#${tenant}#${nit}`, sk: 'GUARD' }),
  /**
   * One client per NIT across all clients, where the sponsor bank's approval binds it to one platform
   * (shared/domain/sponsor-bank.ts): the guard holds the id of the customer that took it.
   */
  nitClaim: (nit: string): ItemKey => ({ pk: `GUARD#NIT_CLAIM#${nit}`, sk: 'GUARD' }),
  /** One customer per account number across all clients, as nitClaim: the guard holds the account's id. */
  accountNumberClaim: (number: string): ItemKey => ({ pk: `GUARD#ACCOUNT_CLAIM#${number}`, sk: 'GUARD' }),
  account: (id: string): ItemKey => ({ pk: `ACCOUNT#${id}`, sk: 'ACCOUNT' }),
  /** An account's balance and ledger day (shared/data/balances.ts), in the account's item collection. */
  accountBalance: (id: string): ItemKey => ({ pk: `ACCOUNT#${id}`, sk: 'BALANCE' }),
  /**
   * One account number per customer. The guard lives in the customer's item collection, so that the
   * customer's accounts can be found (strongly consistent) with one Query.
   */
  accountNumberGuard: (customerId: string, number: string): ItemKey => ({
    pk: `CUSTOMER#${customerId}`,
    sk: `ACCOUNT_NUMBER#${number}`,
  }),
  accountNumberGuardPrefix: 'ACCOUNT_NUMBER#',
  /** A Bre-B key of a client's merchant. */
  brebKey: (id: string): ItemKey => ({ pk: `KEY#${id}`, sk: 'KEY' }),
  /**
   * The directory entry of a normalised (type, value): our keys' and the sandbox's share this item,
   * which is also the guard that a value is registered once (written with the key, deleted with it).
   */
  directoryEntry: (keyType: string, keyValue: string): ItemKey => ({
    pk: `DIRECTORY#${keyType}#${keyValue}`,
    sk: 'DIRECTORY',
  }),
  resolution: (id: string): ItemKey => ({ pk: `RESOLUTION#${id}`, sk: 'RESOLUTION' }),
  qrCode: (id: string): ItemKey => ({ pk: `QRCODE#${id}`, sk: 'QRCODE' }),
  /**
   * One qr_code_reference per merchant, whatever its case (payments carry the reference, and a
   * reconciliation must find one code by it). Kept when the code is deleted: its payments stay.
   */
  qrReferenceGuard: (customerId: string, reference: string): ItemKey => ({
    pk: `GUARD#QRREF#${customerId}#${reference.toUpperCase()}`,
    sk: 'GUARD',
  }),
  sponsorMerchant: (nit: string): ItemKey => ({ pk: `SPONSOR#${nit}`, sk: 'MERCHANT' }),
  sponsorAccount: (nit: string, number: string): ItemKey => ({ pk: `SPONSOR#${nit}`, sk: `ACCOUNT#${number}` }),
  sponsorAccountPrefix: 'ACCOUNT#',
  /** A reversal of a network credit, by the sponsor bank's reversal_id (shared/data/reversals-repository.ts). */
  reversal: (reversalId: string): ItemKey => ({ pk: `REVERSAL#${reversalId}`, sk: 'REVERSAL' }),
  /** The answer given to a network credit, by its end_to_end_id (shared/data/credit-answers-repository.ts). */
  creditAnswer: (endToEndId: string): ItemKey => ({ pk: `CREDIT#${endToEndId}`, sk: 'ANSWER' }),
  /** What the network credited one merchant in a Bogotá day (shared/data/merchant-credit-days.ts). */
  merchantCreditDay: (customerId: string, day: string): ItemKey => ({
    pk: `CREDIT_DAY#${customerId}#${day}`,
    sk: 'TOTAL',
  }),
  idempotency: (tenant: string, key: string): ItemKey => ({ pk: `IDEMPOTENCY#${tenant}#${key}`, sk: 'IDEMPOTENCY' }),
  /**
   * The counter (shared/data/rate-limit-store.ts, rateCounter) of a tenant, a person or a tenant's
   * directory lookups in one window. The window is in the
   * partition key: each window's writes land on an item (and partition) of their own.
   */
  rateWindow: (counter: string, window: number): ItemKey => ({
    pk: `${RATE_WINDOW_KEY_PREFIX}${counter}#${window}`,
    sk: 'RATE_WINDOW',
  }),
  payment: (id: string): ItemKey => ({ pk: `PAYMENT#${id}`, sk: 'PAYMENT' }),
  /** A payment's fixed, unfiltered fields, beside it and in no index (shared/data/payment-details.ts). */
  paymentDetail: (id: string): ItemKey => ({ pk: `PAYMENT#${id}`, sk: 'DETAIL' }),
  /** A refund of an INBOUND payment (shared/data/refunds-repository.ts). */
  refund: (id: string): ItemKey => ({ pk: `REFUND#${id}`, sk: 'REFUND' }),
  webhook: (id: string): ItemKey => ({ pk: `WEBHOOK#${id}`, sk: 'WEBHOOK' }),
  /**
   * The ids of a client's webhooks, a string set added to and taken from in the transaction of each
   * webhook's create and delete (shared/data/webhooks-repository.ts): the dispatcher reads it
   * consistently, where gsi1 may not list a webhook yet.
   */
  webhookSet: (tenant: string): ItemKey => ({ pk: `WEBHOOKS#${tenant}`, sk: 'WEBHOOK_IDS' }),
  /** A change to a webhook, the approval settings or a key, and who made it (shared/data/audit-trail.ts). */
  auditEvent: (id: string): ItemKey => ({ pk: `${AUDIT_EVENT_KEY_PREFIX}${id}`, sk: 'AUDIT_EVENT' }),
  /** An event's place in its client's hash chain, written once after the event (shared/data/audit-chain.ts). */
  auditLink: (eventId: string): ItemKey => ({ pk: `${AUDIT_EVENT_KEY_PREFIX}${eventId}`, sk: 'AUDIT_LINK' }),
  /**
   * A client's audit chain head: its last linked event's hash and position (shared/data/audit-chain.ts).
   * Not under `AUDIT#`, whose items no function may update (docs/audit.md): the head moves with each link.
   */
  auditChain: (tenant: string): ItemKey => ({ pk: `AUDIT_CHAIN#${tenant}`, sk: 'AUDIT_CHAIN' }),
  /** A client's inbound approval settings: one per client (shared/data/approval-settings-repository.ts). */
  approvalSettings: (tenant: string): ItemKey => ({ pk: `SETTINGS#${tenant}`, sk: 'INBOUND_APPROVAL' }),
  /** A payee a client saved for one of its customers (shared/data/recipients-repository.ts). */
  recipient: (id: string): ItemKey => ({ pk: `RECIPIENT#${id}`, sk: 'RECIPIENT' }),
  /** An event of the outbox, written with the change it reports (shared/data/events.ts). */
  event: (id: string): ItemKey => ({ pk: `EVENT#${id}`, sk: 'EVENT' }),
  /** A report run of a client's (shared/data/reports-repository.ts). */
  report: (id: string): ItemKey => ({ pk: `REPORT#${id}`, sk: 'REPORT' }),
  /** How many of a client's reports are PENDING: counted up by a create, down by the run that finishes one. */
  pendingReports: (tenant: string): ItemKey => ({ pk: `PENDING_REPORTS#${tenant}`, sk: 'COUNT' }),
  /**
   * A Bogotá day of the sponsor bank's settlement files (shared/data/reconciliations-repository.ts):
   * its file's record (`FILE`) and each client's result (`TENANT#<tenant>`), one item collection.
   */
  settlementFile: (date: string): ItemKey => ({ pk: `RECONCILIATION#${date}`, sk: 'FILE' }),
  reconciliation: (tenant: string, date: string): ItemKey => ({ pk: `RECONCILIATION#${date}`, sk: `TENANT#${tenant}` }),
  reconciliationTenantPrefix: 'TENANT#',
  /** A break of a client's reconciliation of a day (listed in the client's SETTLEMENT_BREAK collection). */
  settlementBreak: (id: string): ItemKey => ({ pk: `SETTLEMENT_BREAK#${id}`, sk: 'SETTLEMENT_BREAK' }),
  /**
   * A transfer settled here on a Bogotá day (shared/data/settled-transfers.ts), written in the
   * transaction that settled it: what the day's settlement file should list.
   */
  settledTransfer: (day: string, shard: number, kind: string, id: string): ItemKey => ({
    pk: `SETTLED#${day}#${shard}`,
    sk: `${kind}#${id}`,
  }),
  /** The delivery of one event to one webhook (shared/data/deliveries-repository.ts). */
  delivery: (id: string): ItemKey => ({ pk: `DELIVERY#${id}`, sk: 'DELIVERY' }),
  /**
   * A movement of an account's available balance (its opening balance, each payment), in the
   * account's item collection: the account's ledger is one strongly consistent Query, in time order.
   */
  movement: (accountId: string, at: string, ref: string): ItemKey => ({
    pk: `ACCOUNT#${accountId}`,
    sk: `MOVEMENT#${at}#${ref}`,
  }),
  movementPrefix: 'MOVEMENT#',
  /**
   * A Colombian day the account's ledger has left, with its opening balance (shared/data/movements.ts):
   * a statement finds the opening of its day in one Query of these, whatever the account's age.
   */
  ledgerDay: (accountId: string, day: string): ItemKey => ({ pk: `ACCOUNT#${accountId}`, sk: `LEDGER_DAY#${day}` }),
  ledgerDayPrefix: 'LEDGER_DAY#',
  /** One shard of the item counter of a list partition (a collection or a scope of it). */
  counterShard: (partition: string, shard: number): ItemKey => ({ pk: `COUNT#${partition}`, sk: `SHARD#${shard}` }),
  counterPartition: (partition: string): string => `COUNT#${partition}`,
  /**
   * One shard of a list partition's count of the items created on one UTC day (`YYYY-MM-DD`): the
   * counters of a list whose items expire (events, shared/data/events.ts), whose days are summed.
   */
  dayCounterShard: (partition: string, day: string, shard: number): ItemKey => ({
    pk: `DAYCOUNT#${partition}`,
    sk: `${day}#SHARD#${shard}`,
  }),
  dayCounterPartition: (partition: string): string => `DAYCOUNT#${partition}`,
  /**
   * The payments' figures of a Bogotá day (shared/data/payment-totals.ts), the tenant's or one
   * merchant's (`customerId`), in one shard: a period is one Query of a partition, by day.
   */
  dayTotalsShard: (tenant: string, customerId: string | undefined, day: string, shard: number): ItemKey => ({
    pk: itemKeys.dayTotalsPartition(tenant, customerId),
    sk: `${day}#SHARD#${shard}`,
  }),
  dayTotalsPartition: (tenant: string, customerId?: string): string =>
    customerId === undefined ? `DAYTOTALS#${tenant}` : `DAYTOTALS#${tenant}#CUSTOMER#${customerId}`,
} as const;

/**
 * The list partition of a tenant's collection (gsi1/gsi2), and of a scope inside it (gsi3/gsi4), in
 * its shard (shared/data/list-shards.ts): shard 0, the only one of an unsharded list, is the bare
 * partition; shard n is `<partition>~<n>` (`~` is in no scope's name).
 */
const inShard = (partition: string, shard: number): string => (shard === 0 ? partition : `${partition}~${shard}`);
export const collectionPartition = (tenant: string, collection: string, shard = 0): string =>
  inShard(`${tenant}#${collection}`, shard);
export const scopePartition = (tenant: string, collection: string, scope: string, shard = 0): string =>
  inShard(`${tenant}#${collection}#${scope}`, shard);

/**
 * Index keys that list a tenant's collection by creation time (gsi1), and, when the item belongs to
 * a scope (e.g. `CUSTOMER#<id>` for accounts), that scope of the collection too (gsi3), in the item's
 * shard. Enough alone for a record never updated: its update order is its creation order.
 */
export function creationKeys(tenant: string, collection: string, id: string, createdAt: string, scope?: string) {
  const shard = shardOf(tenant, collection, id, createdAt);
  return {
    gsi1pk: collectionPartition(tenant, collection, shard),
    gsi1sk: `${createdAt}#${id}`,
    ...(scope === undefined
      ? {}
      : { gsi3pk: scopePartition(tenant, collection, scope, shard), gsi3sk: `${createdAt}#${id}` }),
  };
}

/** creationKeys, and the same lists by update time (gsi2, gsi4). */
export function collectionKeys(
  tenant: string,
  collection: string,
  id: string,
  createdAt: string,
  updatedAt: string,
  scope?: string,
) {
  const created = creationKeys(tenant, collection, id, createdAt, scope);
  return {
    ...created,
    gsi2pk: created.gsi1pk,
    gsi2sk: `${updatedAt}#${id}`,
    ...(created.gsi3pk === undefined ? {} : { gsi4pk: created.gsi3pk, gsi4sk: `${updatedAt}#${id}` }),
  };
}

/** The sort keys that move when an item's updated_at changes. */
export function updatedAtKeys(id: string, updatedAt: string, scoped: boolean) {
  return { gsi2sk: `${updatedAt}#${id}`, ...(scoped ? { gsi4sk: `${updatedAt}#${id}` } : {}) };
}

/**
 * The trace context an event's item keeps for the dispatcher (shared/data/events.ts): never part of
 * the event, nor of the webhook that delivers it.
 */
export const TRACE_CONTEXT_ATTRIBUTE = 'trace_context';

const STORAGE_ATTRIBUTES = new Set([
  'pk',
  'sk',
  'gsi1pk',
  'gsi1sk',
  'gsi2pk',
  'gsi2sk',
  'gsi3pk',
  'gsi3sk',
  'gsi4pk',
  'gsi4sk',
  'duepk',
  'duesk',
  'entity',
  'expires_at',
  TRACE_CONTEXT_ATTRIBUTE,
  // An account's ledger day and movement count (shared/data/balances.ts): the ledger's, not the
  // account's. Short names: every balance move rewrites the balance item, billed per KB (on a legacy
  // account, the account item, already near 1 KB: the four add about 50 bytes; long names, 90).
  'lday',
  'lday_open',
  'lsince',
  'moves',
  // A payment's words, for finding it (shared/data/payment-search.ts).
  'search',
]);

/** The stored record without the attributes that only exist for the table's sake. */
export function withoutStorageAttributes<T>(item: Record<string, unknown>): T {
  return Object.fromEntries(Object.entries(item).filter(([name]) => !STORAGE_ATTRIBUTES.has(name))) as T;
}
