/**
 * The audit trail's hash chain against DynamoDB Local (shared/data/audit-chain.ts, docs/audit.md):
 * a client's events are linked one after the other from the genesis value, each hash computed over
 * the event as the API shows it; changes of one client made at the same moment all commit, each on the
 * one before (none is refused for the chain); a refused change neither writes an event nor moves the
 * head; `npm run audit:verify` says OK with the count, and names the event where a chain changed in the
 * table breaks (a field changed, an event removed, links swapped).
 */
import { execFile } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { MAX_WEBHOOKS } from '../../shared/domain/webhooks';
import { publicAuditEvent, type AuditEvent } from '../../shared/domain/audit';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';
import { storedWebhookOf } from '../support/stored-webhooks';

let table: TestTable;
let webhooks: typeof import('../../shared/data/webhooks-repository').dynamoWebhookStore;
let audit: typeof import('../../shared/data/audit-trail');
let chain: typeof import('../../shared/data/audit-chain');
let verifyAuditChain: typeof import('../../shared/data/audit-verify').verifyAuditChain;

beforeAll(async () => {
  table = await createTestTable('audit-chain');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
  audit = await import('../../shared/data/audit-trail');
  chain = await import('../../shared/data/audit-chain');
  ({ verifyAuditChain } = await import('../../shared/data/audit-verify'));
});

afterAll(async () => {
  await table.drop();
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

/** The client's stored events, in chain order. */
const chainOf = async (tenant: string): Promise<Item[]> =>
  (await table.scan((item) => item['entity'] === 'AUDIT_EVENT' && item['tenant'] === tenant)).sort(
    (a, b) => a['chain_sequence'] - b['chain_sequence'],
  );

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

test("a client's events are chained from the genesis value, each hash over the event as shown", async () => {
  const tenant = `tenant-${randomUUID()}`;
  await changedWebhook(tenant, 3);
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
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 4, unchained: 0 });
  // Another client's chain is its own, from the genesis value.
  const other = `tenant-${randomUUID()}`;
  await changedWebhook(other, 0);
  expect((await chainOf(other))[0]).toMatchObject({ chain_sequence: 1, previous_hash: '0'.repeat(64) });
});

test('changes of one client at the same moment all commit, each linked on the one before', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const other = `tenant-${randomUUID()}`;
  const inserts = Array.from({ length: 8 }, (_, n) => {
    const owner = n % 4 === 3 ? other : tenant;
    return audit.actingAs(actorOf(owner, n), () => webhooks.insert(webhookOf(owner), MAX_WEBHOOKS));
  });
  // None refused: a head moved by another change is linked again, never the caller's 409.
  expect(await Promise.all(inserts)).toEqual(Array(8).fill('inserted'));
  expect((await chainOf(tenant)).map((event) => event['chain_sequence'])).toEqual([1, 2, 3, 4, 5, 6]);
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 6, unchained: 0 });
  expect(await verifyAuditChain(other)).toEqual({ ok: true, count: 2, unchained: 0 });
});

test('a refused change writes no event and leaves the head where it was', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const webhook = webhookOf(tenant);
  await audit.actingAs(actorOf(tenant), () => webhooks.insert(webhook, MAX_WEBHOOKS));
  const seen = (await webhooks.get(webhook.id))!;
  await audit.actingAs(actorOf(tenant, 2), () => webhooks.update(seen, { enabled: false }, now()));
  const head = await chain.readChainHead(tenant);
  // Made on the version read before that change: refused by its own condition.
  const stale = await audit.actingAs(actorOf(tenant, 3), () =>
    webhooks.update(seen, { url: 'https://late.example.com/' }, now()),
  );
  expect(stale).toBeUndefined();
  expect(await chain.readChainHead(tenant)).toEqual(head);
  expect(head).toEqual({ sequence: 2, hash: (await chainOf(tenant))[1]!['hash'] });
  expect(await verifyAuditChain(tenant)).toEqual({ ok: true, count: 2, unchained: 0 });
});

const changeItem = (event: Item, field: string, value: unknown) =>
  table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: { pk: event['pk'], sk: event['sk'] },
      UpdateExpression: 'SET #field = :value',
      ExpressionAttributeNames: { '#field': field },
      ExpressionAttributeValues: { ':value': value },
    }),
  );

test('verify names the event whose field was changed in the table, and the command says so', async () => {
  const tenant = `tenant-${randomUUID()}`;
  await changedWebhook(tenant, 3);
  const cli = (args: string[]) =>
    promisify(execFile)('npx', ['tsx', 'tools/audit-verify.ts', ...args], {
      env: { ...process.env, TABLE_NAME: table.tableName, DYNAMODB_ENDPOINT: table.endpoint },
    });
  await expect(cli([tenant])).resolves.toMatchObject({ stdout: expect.stringMatching(/^OK: .* 4 events/) });

  const [, second] = await chainOf(tenant);
  await changeItem(second!, 'actor', 'person-mallory');
  const verdict = await verifyAuditChain(tenant);
  expect(verdict).toMatchObject({ ok: false, count: 1, eventId: second!['id'] });
  expect(verdict.ok || verdict.reason).toContain('changed');
  const failed = await cli([tenant]).catch((error: { code: number; stdout: string }) => error);
  expect(failed).toMatchObject({ code: 1, stdout: expect.stringContaining(`at event ${second!['id']}`) });
}, 60_000);

test('verify names where an event was removed, links were swapped, or the last event went', async () => {
  const removed = `tenant-${randomUUID()}`;
  await changedWebhook(removed, 3);
  const [, second, third] = await chainOf(removed);
  await table.documents.send(
    new DeleteCommand({ TableName: table.tableName, Key: { pk: second!['pk'], sk: second!['sk'] } }),
  );
  expect(await verifyAuditChain(removed)).toMatchObject({ ok: false, count: 1, eventId: third!['id'] });

  const swapped = `tenant-${randomUUID()}`;
  await changedWebhook(swapped, 3);
  const [, b, c] = await chainOf(swapped);
  await changeItem(b!, 'chain_sequence', 3);
  await changeItem(c!, 'chain_sequence', 2);
  expect(await verifyAuditChain(swapped)).toMatchObject({ ok: false, count: 1, eventId: c!['id'] });

  // The last event removed: every link left holds, the head names one more.
  const truncated = `tenant-${randomUUID()}`;
  await changedWebhook(truncated, 2);
  const last = (await chainOf(truncated))[2]!;
  await table.documents.send(
    new DeleteCommand({ TableName: table.tableName, Key: { pk: last['pk'], sk: last['sk'] } }),
  );
  const verdict = await verifyAuditChain(truncated);
  expect(verdict).toMatchObject({ ok: false, count: 2 });
  expect(verdict.ok || verdict.reason).toContain('head names 3 events');
});
