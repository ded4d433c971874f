/**
 * The audit trail's hash chain (docs/audit.md, "The hash chain"): each client's events form one chain.
 * An event's link (its own item, `AUDIT#<event id>` / `AUDIT_LINK`, beside the event and as immutable)
 * holds its position, `previous_hash` (the hash of the client's event before it, AUDIT_CHAIN_GENESIS
 * for the first) and `hash`, the hex SHA-256 of the event's canonical JSON with `previous_hash`.
 * Changing, removing or reordering a stored event breaks the chain where it happened
 * (`npm run audit:verify`).
 *
 * Events are linked after they commit, not in the change's transaction: the audit archiver links each
 * new event as the table's stream hands it (functions/archive-audit-events.ts), then copies it. Linked
 * in the change's transaction, every audited write of a client waited on the client's one head item:
 * 25 concurrent payments of one client answered 503. A write now pays nothing for the chain.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createHash } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { collectionPartition, itemKeys } from './item-keys';
import { Meter, type ListJoin } from './list-plans';

/** The `entity` of an audit event's item. */
export const AUDIT_EVENT_ENTITY = 'AUDIT_EVENT';
/** The `entity` of an event's link in its client's chain. */
export const AUDIT_LINK_ENTITY = 'AUDIT_LINK';
/** The `entity` of a client's chain head. */
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

/** The hash of an event with its `previous_hash`, as linked and as verified. */
export function auditEventHash(event: Readonly<Record<string, unknown>>): string {
  const hashed = Object.fromEntries(HASHED_FIELDS.map((field) => [field, event[field]]));
  return createHash('sha256').update(canonicalJson(hashed)).digest('hex');
}

/** An event's place in its client's chain. */
export interface ChainLink {
  readonly event_id: string;
  readonly tenant: string;
  /** Its position: 1 for the client's first event. */
  readonly chain_sequence: number;
  readonly previous_hash: string;
  readonly hash: string;
}

/** A client's chain head: the hash and position of its last linked event. */
export interface ChainHead {
  readonly hash: string;
  readonly sequence: number;
}

/** The links of a client's chain are listed by position (gsi1): `npm run audit:verify` walks them. */
export const chainLinksPartition = (tenant: string): string => collectionPartition(tenant, AUDIT_LINK_ENTITY);
const positionKey = (sequence: number): string => String(sequence).padStart(12, '0');

export async function readChainHead(tenant: string): Promise<ChainHead | undefined> {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: itemKeys.auditChain(tenant), ConsistentRead: true }),
  );
  return Item ? { hash: String(Item['hash']), sequence: Number(Item['sequence']) } : undefined;
}

/** The links of `eventIds` that exist, read strongly consistent (BatchGetItem, 100 keys a call). */
async function readLinks(eventIds: readonly string[]): Promise<Map<string, ChainLink>> {
  const items = await new Meter().getAll(eventIds.map((id) => itemKeys.auditLink(id)));
  return new Map([...items.values()].map((item) => [String(item['event_id']), linkOf(item)]));
}

const linkOf = (item: Record<string, unknown>): ChainLink => ({
  event_id: String(item['event_id']),
  tenant: String(item['tenant']),
  chain_sequence: Number(item['chain_sequence']),
  previous_hash: String(item['previous_hash']),
  hash: String(item['hash']),
});

/** Attempts to link a client's events while other linkers move its head. */
const LINK_ATTEMPTS = 20;

/** The most links one transaction writes: TransactWriteItems takes 100 items, the head is one. */
const LINKS_PER_TRANSACTION = 99;

/** Exponential backoff with full jitter: 0-20 ms, 0-40 ms, ... capped at 0-640 ms. */
const backoff = (attempt: number) => sleep(Math.floor(Math.random() * 10 * 2 ** Math.min(attempt, 6)));

type StoredEvent = Readonly<Record<string, unknown>>;

/**
 * Links stored events at the end of their clients' chains, in the order given, once each: an event
 * linked already (a stream record handed again) keeps its link. Each client's events are linked in
 * one transaction (99 at most) with the head's move, on condition that the head is still the one read
 * and none of them has a link yet, so two linkers of one client (the stream's shards are read side by
 * side) never fork the chain: the one that finds the head moved reads it again. One transaction per
 * client and batch, not per event: DynamoDB Local runs one transaction at a time, and the local tests
 * pause the archiver between their steps, waiting for its batch.
 */
export async function linkAuditEvents(events: readonly StoredEvent[]): Promise<Map<string, ChainLink>> {
  const byTenant = new Map<string, StoredEvent[]>();
  for (const event of new Map(events.map((e) => [String(e['id']), e])).values()) {
    const tenant = String(event['tenant']);
    byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), event]);
  }
  const links = new Map<string, ChainLink>();
  for (const [tenant, own] of byTenant) {
    for (let i = 0; i < own.length; i += LINKS_PER_TRANSACTION) {
      for (const link of await linkInOrder(tenant, own.slice(i, i + LINKS_PER_TRANSACTION))) {
        links.set(link.event_id, link);
      }
    }
  }
  return links;
}

/** One stored event linked (linkAuditEvents), or its link as it was. */
export async function linkAuditEvent(event: StoredEvent): Promise<ChainLink> {
  return (await linkAuditEvents([event])).get(String(event['id']))!;
}

async function linkInOrder(tenant: string, events: readonly StoredEvent[]): Promise<ChainLink[]> {
  const kept: ChainLink[] = [];
  let waiting = events;
  for (let attempt = 1; ; attempt += 1) {
    const head = await readChainHead(tenant);
    let previous = head ?? { hash: AUDIT_CHAIN_GENESIS, sequence: 0 };
    const links = waiting.map((event): ChainLink => {
      const link = {
        event_id: String(event['id']),
        tenant,
        chain_sequence: previous.sequence + 1,
        previous_hash: previous.hash,
        hash: auditEventHash({ ...event, previous_hash: previous.hash }),
      };
      previous = { hash: link.hash, sequence: link.chain_sequence };
      return link;
    });
    try {
      await dynamo().send(
        new TransactWriteCommand({ TransactItems: [...links.map(linkWrite), headWrite(tenant, head, links.at(-1)!)] }),
      );
      return [...kept, ...links];
    } catch (error) {
      if (!(error instanceof TransactionCanceledException) || attempt >= LINK_ATTEMPTS) throw error;
      // The head moved, or some were linked meanwhile (by another linker, or before: a record handed
      // again): theirs are kept, the others linked again on the head as it is now.
      const found = await readLinks(waiting.map((event) => String(event['id'])));
      kept.push(...found.values());
      waiting = waiting.filter((event) => !found.has(String(event['id'])));
      if (waiting.length === 0) return kept;
      await backoff(attempt);
    }
  }
}

const linkWrite = (link: ChainLink) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...itemKeys.auditLink(link.event_id),
      entity: AUDIT_LINK_ENTITY,
      ...link,
      gsi1pk: chainLinksPartition(link.tenant),
      gsi1sk: positionKey(link.chain_sequence),
    },
    ConditionExpression: 'attribute_not_exists(pk)',
  },
});

/** The head moved to `link`, on condition that it is still `read` (or still absent). */
const headWrite = (tenant: string, read: ChainHead | undefined, link: ChainLink) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...itemKeys.auditChain(tenant),
      entity: AUDIT_CHAIN_ENTITY,
      tenant,
      event_id: link.event_id,
      hash: link.hash,
      sequence: link.chain_sequence,
    },
    ConditionExpression: read ? '#hash = :read' : 'attribute_not_exists(pk)',
    ...(read
      ? { ExpressionAttributeNames: { '#hash': 'hash' }, ExpressionAttributeValues: { ':read': read.hash } }
      : {}),
  },
});

/**
 * The lists of events answer each one with its link's `previous_hash` and `hash` (the link lives in
 * the event's partition: read in the page's one BatchGetItem). An event not linked yet, a moment
 * after its change, is answered without them.
 */
export const chainLinkJoin: ListJoin = {
  sk: itemKeys.auditLink('').sk,
  merge: (event, link) =>
    link ? { ...event, previous_hash: link['previous_hash'], hash: link['hash'] } : { ...event },
};
