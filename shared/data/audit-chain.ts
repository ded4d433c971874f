/**
 * The audit trail's hash chain (docs/audit.md, "The hash chain"): each client's events form one chain,
 * each event carrying `previous_hash` (the hash of the client's event before it, AUDIT_CHAIN_GENESIS
 * for the first) and `hash`, the hex SHA-256 of its canonical JSON with `previous_hash`. Changing,
 * removing or reordering a stored event breaks the chain where it happened (`npm run audit:verify`).
 *
 * The chain is linked when a transaction is sent, not when its items are built (auditItems stays
 * synchronous, and a transaction held for an Idempotency-Key's record is linked when committed):
 * transactWrite (shared/data/transactions.ts) reads each client's chain head just before sending,
 * fills the events' links, and writes the head in the same transaction, on condition that it is still
 * the one read. Two changes of one client thus commit one after the other in chain order; the one
 * whose head moved meanwhile is linked again on the new head and sent again.
 */
import { createHash } from 'node:crypto';
import { GetCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { itemKeys, type ItemKey } from './item-keys';

/** A transaction's item (shared/data/transactions.ts's, named here: that module links through this one). */
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The `entity` of an audit event's item: the Puts transactWrite links. */
export const AUDIT_EVENT_ENTITY = 'AUDIT_EVENT';
export const AUDIT_CHAIN_ENTITY = 'AUDIT_CHAIN';

/** The `previous_hash` of a client's first event: 64 zeros, the hash of no event. */
export const AUDIT_CHAIN_GENESIS = '0'.repeat(64);

/**
 * The fields an event's hash covers: the event as GET /v1/audit-events shows it, `hash` aside, so a
 * client can check its own events too. A field added to events must be added here.
 */
export const HASHED_FIELDS = [
  'id',
  'actor',
  'action',
  'resource_type',
  'resource_id',
  'before',
  'after',
  'evidence',
  'request_id',
  'ip_address',
  'user_agent',
  'created_at',
  'previous_hash',
] as const;

/** JSON with every object's keys in code-point order and no whitespace; undefined fields left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((entry) => canonicalJson(entry ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The hash of a stored event (its `previous_hash` included), as linked and as verified. */
export function auditEventHash(event: Readonly<Record<string, unknown>>): string {
  const hashed = Object.fromEntries(HASHED_FIELDS.map((field) => [field, event[field]]));
  return createHash('sha256').update(canonicalJson(hashed)).digest('hex');
}

/** A client's chain head: the hash and position of its last event. */
export interface ChainHead {
  readonly hash: string;
  readonly sequence: number;
}

export async function readChainHead(tenant: string): Promise<ChainHead | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: itemKeys.auditChain(tenant), ConsistentRead: true }),
  );
  return Item ? { hash: String(Item['hash']), sequence: Number(Item['sequence']) } : undefined;
}

const eventOf = (item: TransactItem): Record<string, unknown> | undefined => {
  const put = item.Put?.Item;
  return put?.['entity'] === AUDIT_EVENT_ENTITY ? (put as Record<string, unknown>) : undefined;
};

/** The transaction's items with its events linked, and where the chain heads' writes begin. */
export interface LinkedTransaction {
  readonly items: TransactItem[];
  /** The index of the first head's write (they come last): none when no event is in the transaction. */
  readonly headsFrom?: number;
}

/**
 * Links the transaction's audit events (in their order in it) to their clients' chains as they are
 * now, and adds each head's conditional write at the end, so that the callers' own items keep their
 * positions (they read their conditions' failures by position).
 */
export async function linkAuditEvents(items: readonly TransactItem[]): Promise<LinkedTransaction> {
  const tenants = [
    ...new Set(
      items
        .map(eventOf)
        .filter((event) => event !== undefined)
        .map((e) => String(e['tenant'])),
    ),
  ];
  if (tenants.length === 0) return { items: [...items] };
  const read = new Map(await Promise.all(tenants.map(async (t) => [t, await readChainHead(t)] as const)));
  const heads = new Map<string, ChainHead>(
    tenants.map((t) => [t, read.get(t) ?? { hash: AUDIT_CHAIN_GENESIS, sequence: 0 }]),
  );
  const linked = items.map((item) => {
    const event = eventOf(item);
    if (!event) return item;
    const tenant = String(event['tenant']);
    const head = heads.get(tenant)!;
    const chained: Record<string, unknown> = { ...event, previous_hash: head.hash, chain_sequence: head.sequence + 1 };
    chained['hash'] = auditEventHash(chained);
    heads.set(tenant, { hash: String(chained['hash']), sequence: head.sequence + 1 });
    return { ...item, Put: { ...item.Put!, Item: chained } };
  });
  return {
    items: [
      ...linked,
      ...tenants.map((tenant) => headWrite(itemKeys.auditChain(tenant), tenant, read.get(tenant), heads.get(tenant)!)),
    ],
    headsFrom: linked.length,
  };
}

/** The head moved to `next`, on condition that it is still `read` (or still absent). */
const headWrite = (key: ItemKey, tenant: string, read: ChainHead | undefined, next: ChainHead): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...key, entity: AUDIT_CHAIN_ENTITY, tenant, hash: next.hash, sequence: next.sequence },
    ConditionExpression: read ? '#hash = :read' : 'attribute_not_exists(pk)',
    ...(read
      ? { ExpressionAttributeNames: { '#hash': 'hash' }, ExpressionAttributeValues: { ':read': read.hash } }
      : {}),
  },
});
