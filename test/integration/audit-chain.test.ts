/**
 * The audit trail's hash chain against DynamoDB Local (shared/data/audit-chain.ts, docs/audit.md): a
 * change commits its event alone, and the archiver then links it (here called as the stream would
 * hand it the event) from the genesis value, each hash computed over the event as the API shows it;
 * linkers of one client working side by side keep one linear chain, and an event handed twice keeps
 * its first link; `npm run audit:verify` says OK with the count, and names the event where a chain
 * changed in the table breaks (a field changed, an event removed, links swapped, the last one gone,
 * an event never linked).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_WEBHOOKS } from '../../shared/domain/webhooks';
import { publicAuditEvent, type AuditEvent } from '../../shared/domain/audit';
import { parsePageRequest } from '../../shared/domain/lists';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';
import { folderArchiveStore } from '../../shared/data/audit-archive';
import { storedWebhookOf } from '../support/stored-webhooks';

let table: TestTable;
let webhooks: typeof import('../../shared/data/webhooks-repository').dynamoWebhookStore;
let audit: typeof import('../../shared/data/audit-trail');
let chain: typeof import('../../shared/data/audit-chain');
let verifyAuditChain: typeof import('../../shared/data/audit-verify').verifyAuditChain;
let archive: typeof import('../../shared/data/audit-archive');
/** The Object Lock bucket's stand-in the archiver copies to. */
const copies = mkdtempSync(join(tmpdir(), 'audit-chain-'));

beforeAll(async () => {
  table = await createTestTable('audit-chain');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
  audit = await import('../../shared/data/audit-trail');
  chain = await import('../../shared/data/audit-chain');
  ({ verifyAuditChain } = await import('../../shared/data/audit-verify'));
  archive = await import('../../shared/data/audit-archive');
});

afterAll(async () => {
  await table.drop();
  rmSync(copies, { recursive: true, force: true });
});

const now = (): string => new Date().toISOString();

const webhookOf = storedWebhookOf;

const actorOf = (tenant: string, n = 1) => ({
  tenant,
  subject: 'person-ana',
  requestId: `req-${n}`,
  ipAddress: '198.51.100.4',
  userAgent: 'Mozilla/5.0',
});

const eventsOf = async (tenant: string): Promise<Item[]> =>
  (await table.scan((item) => item['entity'] === 'AUDIT_EVENT' && item['tenant'] === tenant)).sort((a, b) =>
    a['created_at'] < b['created_at'] ? -1 : 1,
  );

/** Links the client's events not linked yet, in the order they were made, as the archiver does from the stream. */
async function linkNew(tenant: string): Promise<void> {
  const linked = new Set((await linksOf(tenant)).map((link) => link['event_id']));
  await archive.archiveAuditEvents(
    (await eventsOf(tenant)).filter((event) => !linked.has(event['id'])),
    folderArchiveStore(copies),
  );
}

const linksOf = async (tenant: string): Promise<Item[]> =>
  (await table.scan((item) => item['entity'] === 'AUDIT_LINK' && item['tenant'] === tenant)).sort(
    (a, b) => a['chain_sequence'] - b['chain_sequence'],
  );

/** The client's stored events with their links, in chain order. */
const chainOf = async (tenant: string): Promise<Item[]> => {
  const events = new Map((await eventsOf(tenant)).map((event) => [event['id'], event]));
  return (await linksOf(tenant)).map((link) => ({
    ...events.get(link['event_id']),
    previous_hash: link['previous_hash'],
    hash: link['hash'],
    chain_sequence: link['chain_sequence'],
  }));
};

/** A webhook made, then changed `changes` times, one request after the other. */
async function changedWebhook(tenant: string, changes: number): Promise<void> {
  const webhook = webhookOf(tenant);
  await audit.actingAs(actorOf(tenant), () => webhooks.insert(webhook, MAX_WEBHOOKS));
  let current = (await webhooks.get(webhook.id))!;
  for (let n = 0; n < changes; n += 1) {
    current = (await audit.actingAs(actorOf(tenant, n + 2), () =>
      webhooks.update(current, { enabled: n % 2 === 1 }, now()),
    ))!;
  }
}

/** SHA-256 of the canonical JSON (keys sorted, no spaces) of the event as the API lists it, hash aside. */
const hashAsAClientWould = (event: Item): string => {
  const { hash: _hash, ...shown } = publicAuditEvent(event as unknown as AuditEvent);
  const sorted = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(sorted)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((key) => [key, sorted((value as Record<string, unknown>)[key])]),
          )
        : value;
  return createHash('sha256')
    .update(JSON.stringify(sorted(shown)))
    .digest('hex');
};

test("a change commits its event alone; linked, a client's events chain from the genesis value", async () => {
  const tenant = `tenant-${randomUUID()}`;
  await changedWebhook(tenant, 3);
  // The changes' transactions wrote no link and no head: a write pays nothing for the chain.
  expect(await linksOf(tenant)).toEqual([]);
  expect(await chain.readChainHead(tenant)).toBeUndefined();
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 0, unlinked: 4 });

  await linkNew(tenant);
  const events = await chainOf(tenant);
  expect(events.map((event) => event['chain_sequence'])).toEqual([1, 2, 3, 4]);
  expect(events[0]!['previous_hash']).toBe('0'.repeat(64));
  expect(chain.AUDIT_CHAIN_GENESIS).toBe('0'.repeat(64));
  events.forEach((event, index) => {
    expect(event['hash']).toMatch(/^[0-9a-f]{64}$/);
    expect(event['hash']).toBe(hashAsAClientWould(event));
    if (index > 0) expect(event['previous_hash']).toBe(events[index - 1]!['hash']);
    expect(event).toMatchObject({ ip_address: '198.51.100.4', user_agent: 'Mozilla/5.0' });
  });
  expect(await chain.readChainHead(tenant)).toEqual({ sequence: 4, hash: events[3]!['hash'] });
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 4, unlinked: 0 });
  // The list answers each event with its link.
  const listed = await audit.dynamoAuditStore.list(tenant, {}, parsePageRequest({ page_size: 10 }, now()));
  expect(new Set(listed.items.map((event) => event.hash))).toEqual(new Set(events.map((event) => event['hash'])));
  // Another client's chain is its own, from the genesis value.
  const other = `tenant-${randomUUID()}`;
  await changedWebhook(other, 0);
  await linkNew(other);
  expect((await chainOf(other))[0]).toMatchObject({ chain_sequence: 1, previous_hash: '0'.repeat(64) });
});

test('linkers of one client side by side keep one linear chain; an event handed twice keeps its link', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const other = `tenant-${randomUUID()}`;
  // Twelve changes of two clients at the same moment: none waits on the chain.
  const inserts = Array.from({ length: 12 }, (_, n) => {
    const owner = n % 4 === 3 ? other : tenant;
    return audit.actingAs(actorOf(owner, n), () => webhooks.insert(webhookOf(owner), MAX_WEBHOOKS));
  });
  expect(await Promise.all(inserts)).toEqual(Array(12).fill('inserted'));
  // Every event handed to two linkers at once, as two stream shards' consumers and a retried batch would.
  const events = [...(await eventsOf(tenant)), ...(await eventsOf(other))];
  const links = await Promise.all([...events, ...events].map((event) => chain.linkAuditEvent(event)));
  expect((await linksOf(tenant)).map((link) => link['chain_sequence'])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect((await linksOf(other)).map((link) => link['chain_sequence'])).toEqual([1, 2, 3]);
  // Both hands of an event got its one link.
  expect(links.slice(events.length)).toEqual(links.slice(0, events.length));
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 9, unlinked: 0 });
  expect(await verifyAuditChain(other)).toEqual({ ok: true, count: 3, unlinked: 0 });
});

test('a refused change writes no event, so nothing is linked', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const webhook = webhookOf(tenant);
  await audit.actingAs(actorOf(tenant), () => webhooks.insert(webhook, MAX_WEBHOOKS));
  const seen = (await webhooks.get(webhook.id))!;
  await audit.actingAs(actorOf(tenant, 2), () => webhooks.update(seen, { enabled: false }, now()));
  // Made on the version read before that change: refused by its own condition.
  const stale = await audit.actingAs(actorOf(tenant, 3), () =>
    webhooks.update(seen, { url: 'https://late.example.com/' }, now()),
  );
  expect(stale).toBeUndefined();
  await linkNew(tenant);
  expect(await chain.readChainHead(tenant)).toEqual({ sequence: 2, hash: (await chainOf(tenant))[1]!['hash'] });
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 2, unlinked: 0 });
});

const changeItem = (item: Item, field: string, value: unknown) =>
  table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: { pk: item['pk'], sk: item['sk'] },
      UpdateExpression: 'SET #field = :value',
      ExpressionAttributeNames: { '#field': field },
      ExpressionAttributeValues: { ':value': value },
    }),
  );

const removeItem = (item: Item) =>
  table.documents.send(new DeleteCommand({ TableName: table.tableName, Key: { pk: item['pk'], sk: item['sk'] } }));

/** A client whose webhook was made and changed `changes` times, every event linked. */
async function linkedChain(changes: number): Promise<{ tenant: string; events: Item[]; links: Item[] }> {
  const tenant = `tenant-${randomUUID()}`;
  await changedWebhook(tenant, changes);
  await linkNew(tenant);
  const links = await linksOf(tenant);
  const events = await Promise.all(
    links.map(async (link) => (await eventsOf(tenant)).find((event) => event['id'] === link['event_id'])!),
  );
  return { tenant, events, links };
}

test('verify names the event whose field was changed in the table, and the command says so', async () => {
  const { tenant, events } = await linkedChain(3);
  const cli = (args: string[]) =>
    promisify(execFile)('npx', ['tsx', 'tools/audit-verify.ts', ...args], {
      env: { ...process.env, TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint },
    });
  await expect(cli([tenant])).resolves.toMatchObject({ stdout: expect.stringMatching(/^OK: .* 4 events/) });

  const second = events[1]!;
  await changeItem(second, 'actor', 'person-mallory');
  const verdict = await verifyAuditChain(tenant);
  expect(verdict).toMatchObject({ ok: false, count: 1, eventId: second['id'] });
  expect(verdict.ok || verdict.reason).toContain('changed');
  const failed = await cli([tenant]).catch((error: { code: number; stdout: string }) => error);
  expect(failed).toMatchObject({ code: 1, stdout: expect.stringContaining(`at event ${second['id']}`) });
}, 60_000);

test('verify names where an event was removed, links were swapped, or the last event went', async () => {
  // An event removed, its link left.
  const removed = await linkedChain(3);
  await removeItem(removed.events[1]!);
  const verdict = await verifyAuditChain(removed.tenant);
  expect(verdict).toMatchObject({ ok: false, count: 1, eventId: removed.events[1]!['id'] });
  expect(verdict.ok || verdict.reason).toContain('removed');

  // An event and its link removed: the next link is out of place.
  const gone = await linkedChain(3);
  await removeItem(gone.events[1]!);
  await removeItem(gone.links[1]!);
  expect(await verifyAuditChain(gone.tenant)).toMatchObject({ ok: false, count: 1, eventId: gone.events[2]!['id'] });

  // Two links swapped, positions and all: the one moved forward does not follow the one before it.
  const swapped = await linkedChain(3);
  const [, b, c] = swapped.links;
  await changeItem(b!, 'chain_sequence', 3);
  await changeItem(b!, 'gsi1sk', c!['gsi1sk']);
  await changeItem(c!, 'chain_sequence', 2);
  await changeItem(c!, 'gsi1sk', b!['gsi1sk']);
  expect(await verifyAuditChain(swapped.tenant)).toMatchObject({ ok: false, count: 1, eventId: c!['event_id'] });

  // The last event and its link removed: every link left holds, the head names one more.
  const truncated = await linkedChain(2);
  await removeItem(truncated.events[2]!);
  await removeItem(truncated.links[2]!);
  const cut = await verifyAuditChain(truncated.tenant);
  expect(cut).toMatchObject({ ok: false, count: 2 });
  expect(cut.ok || cut.reason).toContain('head names 3 events');
});

test('verify names an event left unlinked past the stream record it was to be linked from', async () => {
  const { tenant } = await linkedChain(1);
  await changedWebhook(tenant, 0);
  const linked = new Set((await linksOf(tenant)).map((link) => link['event_id']));
  const late = (await eventsOf(tenant)).find((event) => !linked.has(event['id']));
  // Moments after its change it is waiting; a day and more later it was never linked.
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 2, unlinked: 1 });
  const dayLater = Date.parse(String(late!['created_at'])) + 25 * 60 * 60 * 1000;
  const verdict = await verifyAuditChain(tenant, dayLater);
  expect(verdict).toMatchObject({ ok: false, count: 2 });
  expect(verdict.ok || verdict.reason).toContain('never linked');
});
