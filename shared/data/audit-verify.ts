/**
 * Checking a client's audit chain (shared/data/audit-chain.ts, docs/audit.md): its links read in
 * chain order, each one's event read and its hash computed again, each link checked against the one
 * before it, then the chain head against the last. `npm run audit:verify -- <client_id>`
 * (tools/audit-verify.ts) says OK with the count, or names the first event where the chain breaks.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import {
  AUDIT_CHAIN_GENESIS,
  AUDIT_EVENT_ENTITY,
  auditEventHash,
  chainLinksPartition,
  readChainHead,
} from './audit-chain';
import { dynamo, tableName } from './client';
import { collectionPartition } from './item-keys';

export type ChainVerdict =
  | { readonly ok: true; readonly count: number; readonly unlinked: number }
  | { readonly ok: false; readonly count: number; readonly eventId?: string; readonly reason: string };

type StoredItem = Record<string, unknown>;

/**
 * How long an event may wait for its link: the table's stream keeps a record 24 hours, and the
 * archiver links each one it is handed. An event older than that without a link was never linked.
 */
export const LINK_WAIT_MS = 24 * 60 * 60 * 1000;

/** Every item of a gsi1 partition, in its order (whole items: gsi1 projects them all). */
async function partitionItems(partition: string): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...((page.Items ?? []) as StoredItem[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/**
 * The verdict on `tenant`'s chain: every link must be the next one (its position, its `previous_hash`
 * the hash of the link before it, genesis for the first), its event still there with the content its
 * `hash` covers; the head must name the last link; and every event must be linked, but those written
 * too recently to have been (counted as `unlinked`).
 */
export async function verifyAuditChain(tenant: string, now = Date.now()): Promise<ChainVerdict> {
  // The client's events (their list is not sharded) and its links, by position.
  const events = new Map(
    (await partitionItems(collectionPartition(tenant, AUDIT_EVENT_ENTITY))).map((e) => [String(e['id']), e]),
  );
  const links = await partitionItems(chainLinksPartition(tenant));
  let previous = AUDIT_CHAIN_GENESIS;
  for (const [index, link] of links.entries()) {
    const eventId = String(link['event_id']);
    const broken = (reason: string): ChainVerdict => ({ ok: false, count: index, eventId, reason });
    if (Number(link['chain_sequence']) !== index + 1) {
      return broken(
        `it is link ${String(link['chain_sequence'])} where link ${index + 1} should be: an event is missing or repeated before it`,
      );
    }
    if (link['previous_hash'] !== previous) {
      return broken(
        'its previous_hash is not the hash of the event before it: an event before it was changed, removed or moved',
      );
    }
    const event = events.get(eventId);
    if (!event) return broken('it was removed: its link is left');
    if (auditEventHash({ ...event, previous_hash: previous }) !== link['hash']) {
      return broken('its content does not match its hash: it was changed');
    }
    previous = String(link['hash']);
    events.delete(eventId);
  }
  const head = await readChainHead(tenant);
  if ((head?.sequence ?? 0) !== links.length || (head?.hash ?? AUDIT_CHAIN_GENESIS) !== previous) {
    return {
      ok: false,
      count: links.length,
      reason: `the chain's head names ${head?.sequence ?? 0} events ending in ${head?.hash ?? AUDIT_CHAIN_GENESIS}: the last events are missing or changed`,
    };
  }
  const neverLinked = [...events.values()].find(
    (event) => now - Date.parse(String(event['created_at'])) > LINK_WAIT_MS,
  );
  if (neverLinked) {
    return {
      ok: false,
      count: links.length,
      eventId: String(neverLinked['id']),
      reason: 'it has no link a day after it was written: the archiver never linked it (its stream record expired)',
    };
  }
  return { ok: true, count: links.length, unlinked: events.size };
}
