/**
 * Checking a client's audit chain (shared/data/audit-chain.ts, docs/audit.md): its events read in
 * chain order, each one's hash computed again and its link to the one before it checked, then the
 * chain head against the last. `npm run audit:verify -- <client_id>` (tools/audit-verify.ts) says
 * OK with the count, or names the first event where the chain breaks.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { AUDIT_CHAIN_GENESIS, AUDIT_EVENT_ENTITY, auditEventHash, readChainHead } from './audit-chain';
import { dynamo, tableName } from './client';
import { collectionPartition } from './item-keys';

export type ChainVerdict =
  | { readonly ok: true; readonly count: number; readonly unchained: number }
  | { readonly ok: false; readonly count: number; readonly eventId?: string; readonly reason: string };

type StoredEvent = Record<string, unknown>;

/** Every event of the client, from its collection's list (gsi1, whole items; the events are not sharded). */
async function eventsOf(tenant: string): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': collectionPartition(tenant, AUDIT_EVENT_ENTITY) },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    events.push(...((page.Items ?? []) as StoredEvent[]));
    start = page.LastEvaluatedKey;
  } while (start);
  return events;
}

/**
 * The verdict on `tenant`'s chain. Events written before the chain began (no `chain_sequence`) are
 * counted apart; every other event must be the next link: its position, its `previous_hash` the
 * hash of the event before it (genesis for the first), its `hash` its content's.
 */
export async function verifyAuditChain(tenant: string): Promise<ChainVerdict> {
  const all = await eventsOf(tenant);
  const chained = all
    .filter((event) => event['chain_sequence'] !== undefined)
    .sort((a, b) => Number(a['chain_sequence']) - Number(b['chain_sequence']));
  let previous = AUDIT_CHAIN_GENESIS;
  for (const [index, event] of chained.entries()) {
    const broken = (reason: string): ChainVerdict => ({
      ok: false,
      count: index,
      eventId: String(event['id']),
      reason,
    });
    if (Number(event['chain_sequence']) !== index + 1) {
      return broken(
        `it is link ${String(event['chain_sequence'])} where link ${index + 1} should be: an event is missing or repeated before it`,
      );
    }
    if (event['previous_hash'] !== previous) {
      return broken(
        'its previous_hash is not the hash of the event before it: an event before it was changed, removed or moved',
      );
    }
    if (auditEventHash(event) !== event['hash']) return broken('its content does not match its hash: it was changed');
    previous = String(event['hash']);
  }
  const head = await readChainHead(tenant);
  if ((head?.sequence ?? 0) !== chained.length || (head?.hash ?? AUDIT_CHAIN_GENESIS) !== previous) {
    return {
      ok: false,
      count: chained.length,
      reason: `the chain's head names ${head?.sequence ?? 0} events ending in ${head?.hash ?? AUDIT_CHAIN_GENESIS}: the last events are missing or changed`,
    };
  }
  return { ok: true, count: chained.length, unchained: all.length - chained.length };
}
