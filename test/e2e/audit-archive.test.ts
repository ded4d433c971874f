/**
 * The Object Lock copy through the local runtime (functions/archive-audit-events.ts on its own reader
 * of the table's stream, the bucket's folder stand-in: shared/data/audit-archive.ts): a change made
 * through the real server with a real token is linked in its client's chain, then copied as one object
 * under `audit/<client>/`, named by its place in the chain, holding the event as listed (its hash
 * too) and no index key. The
 * store writes an object once: the same bytes again are a retried batch, other bytes are refused. A
 * batch retried after its links committed finds them (a read the archiver's own grants allow).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { folderArchiveStore } from '../../shared/data/audit-archive';
import { ENV } from '../../shared/runtime/config';
import { startTestApi, type TestApi } from '../support/local-api';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api.stop();
});

/** The names of the client's copies, once `wanted` of them are there (the archiver reads the stream as it goes). */
async function copiesOf(tenant: string, wanted: (names: string[]) => boolean): Promise<string[]> {
  const folder = join(process.env[ENV.auditArchiveDir]!, 'audit', tenant);
  for (let waited = 0; waited < 20_000; waited += 100) {
    const names = (() => {
      try {
        return readdirSync(folder).sort();
      } catch {
        return [];
      }
    })();
    if (wanted(names)) return names;
    await sleep(100);
  }
  throw new Error(`The copies of ${tenant}'s events did not come`);
}

test("each audit event is copied once, as listed, under its client's folder in chain order", async () => {
  const token = await api.token('sandbox-client-a');
  const created = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: 'http://127.0.0.1:9/archive', events: ['payment.settled'] },
  });
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  expect((await api.request('PATCH', `/v1/webhooks/${id}`, { token, body: { enabled: false } })).status).toBe(200);
  const listOwn = async () =>
    (
      await api.request('GET', `/v1/audit-events?resource_type=WEBHOOK&resource_id=${id}&order_direction=asc`, {
        token,
      })
    ).body.audit_events as Record<string, unknown>[];
  const made = await listOwn();
  expect(made).toHaveLength(2);

  const names = await copiesOf('sandbox-client-a', (found) =>
    made.every((event) => found.some((name) => name.endsWith(`-${String(event['id'])}.json`))),
  );
  // Copied once linked: listed now, each with its link.
  const events = await listOwn();
  expect(events.every((event) => /^[0-9a-f]{64}$/.test(String(event['hash'])))).toBe(true);
  const folder = join(process.env[ENV.auditArchiveDir]!, 'audit', 'sandbox-client-a');
  const mine = events.map((event) => names.find((name) => name.endsWith(`-${String(event['id'])}.json`))!);
  // Named by the place in the chain (12 digits), so the folder lists them in chain order.
  expect(mine.every((name) => /^\d{12}-[0-9a-f-]{36}\.json$/.test(name))).toBe(true);
  expect(mine[0]! < mine[1]!).toBe(true);
  for (const [index, name] of mine.entries()) {
    const copy = JSON.parse(readFileSync(join(folder, name), 'utf8'));
    expect(copy).toMatchObject({ ...events[index], tenant: 'sandbox-client-a', entity: 'AUDIT_EVENT' });
    expect(Number(name.slice(0, 12))).toBe(copy.chain_sequence);
    expect(Object.keys(copy).filter((key) => /^(pk|sk|gsi)/.test(key))).toEqual([]);
  }
  // Another client's folder has none of them.
  expect(readdirSync(join(process.env[ENV.auditArchiveDir]!, 'audit')).sort()).toEqual(['sandbox-client-a']);
});

test('an object is written once: the same bytes again pass, others are refused and the first kept', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'audit-archive-'));
  try {
    const store = folderArchiveStore(folder);
    await store.put('audit/t/000000000001-e.json', '{"a":1}\n');
    await store.put('audit/t/000000000001-e.json', '{"a":1}\n');
    await expect(store.put('audit/t/000000000001-e.json', '{"a":2}\n')).rejects.toThrow('differs');
    expect(readFileSync(join(folder, 'audit/t/000000000001-e.json'), 'utf8')).toBe('{"a":1}\n');
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('a batch retried after its events were linked keeps their links and makes the copies', async () => {
  const token = await api.token('sandbox-client-b');
  // A file where the client's folder goes: the batch links its event, then fails to copy it.
  const blocker = join(process.env[ENV.auditArchiveDir]!, 'audit', 'sandbox-client-b');
  mkdirSync(dirname(blocker), { recursive: true });
  writeFileSync(blocker, 'in the way');
  const created = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: 'http://127.0.0.1:9/retried', events: ['payment.settled'] },
  });
  expect(created.status).toBe(200);
  const listed = async () =>
    (await api.request('GET', `/v1/audit-events?resource_id=${String(created.body.id)}`, { token })).body
      .audit_events as Record<string, unknown>[];
  for (let waited = 0; !(await listed())[0]?.['hash']; waited += 100) {
    if (waited > 20_000) throw new Error('The event was never linked');
    await sleep(100);
  }
  const [linked] = await listed();
  // The folder can be made now: the retried batch's transaction is refused (the link exists), and the
  // archiver reads the links it made before (BatchGetItem) instead of failing the batch for ever.
  rmSync(blocker);
  const [name] = await copiesOf('sandbox-client-b', (found) => found.length > 0);
  // The client's first event: first in its chain.
  expect(name).toBe(`000000000001-${String(linked!['id'])}.json`);
  const copy = JSON.parse(readFileSync(join(dirname(blocker), 'sandbox-client-b', name!), 'utf8'));
  expect(copy.hash).toBe(linked!['hash']);
});
