/**
 * The local runtime's stream reader (infra/local/event-stream.ts) on DynamoDB Local's stream of a
 * table of this file's own, with the real dispatcher (functions/dispatch-events.ts) and events written
 * through the real outbox. The demand: the dispatcher killed mid-batch and restarted loses no
 * event, and makes no delivery twice. Also: a batch failure reported at record k hands the batch
 * again from k (the position saved just before it), and a position kept in a file survives a new
 * reader; a batch failing past the deployed retry budget or age limit is given up to the on-failure
 * destination, re-driven from the stream by the real re-drive worker, and the reader moves on.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import {
  filePositions,
  LocalEventStream,
  memoryPositions,
  type PositionStore,
  type StreamFailure,
  type StreamHandler,
  type StreamPositions,
} from '../../infra/local/event-stream';
import { asInvocation } from '../../infra/local/invoke-store';
import type { DomainEvent } from '../../shared/domain/events';
import { MAX_WEBHOOKS, type StoredWebhook, type WebhookStore } from '../../shared/domain/webhooks';
import type { TransactItem } from '../../shared/data/transactions';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';

type StreamEventRecord = DynamoDBStreamEvent['Records'][number];

let table: TestTable;
let webhooks: WebhookStore;
let eventPut: (event: DomainEvent) => TransactItem;
let transactWrite: (input: { TransactItems: TransactItem[] }) => Promise<void>;
let installQueue: typeof import('../../shared/data/queues').installQueue;
let dispatcher: StreamHandler;
/** Every delivery id the dispatcher queued, in order (the recording 'webhookDeliveries' queue). */
const queued: string[] = [];
const readers: LocalEventStream[] = [];
let folder: string;

beforeAll(async () => {
  table = await createTestTable('event-stream');
  ({ dynamoWebhookStore: webhooks } = await import('../../shared/data/webhooks-repository'));
  ({ eventPut } = await import('../../shared/data/events'));
  ({ transactWrite } = await import('../../shared/data/transactions'));
  ({ installQueue } = await import('../../shared/data/queues'));
  installQueue('webhookDeliveries', {
    send: async (message) => void queued.push((message as { delivery_id: string }).delivery_id),
  });
  ({ handler: dispatcher } = (await import('../../functions/dispatch-events')) as { handler: StreamHandler });
  folder = mkdtempSync(join(tmpdir(), 'event-stream-'));
});
afterAll(async () => {
  await Promise.all(readers.map((reader) => reader.stop()));
  installQueue?.('webhookDeliveries', undefined);
  rmSync(folder, { recursive: true, force: true });
  await table?.drop();
});

/** A reader of the table's stream, stopped after the test at the latest. */
async function startReader(handler: StreamHandler, store: PositionStore, batchSize = 10): Promise<LocalEventStream> {
  const reader = await LocalEventStream.start(table.client, table.endpoint, table.tableName, handler, store, {
    batchSize,
    pollMs: 20,
    log: () => undefined,
  });
  readers.push(reader);
  return reader;
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

const newEvent = (tenant: string, n: number): DomainEvent => ({
  id: randomUUID(),
  tenant,
  type: 'payment.settled',
  created_at: new Date().toISOString(),
  data: { n, id: randomUUID(), status: 'SETTLED' },
});

/** Each event in a transaction of its own, as a change writes it (the outbox). */
async function writeEvents(events: readonly DomainEvent[]): Promise<void> {
  for (const event of events) await transactWrite({ TransactItems: [eventPut(event)] });
}

async function addWebhook(tenant: string, fields: Partial<StoredWebhook> = {}): Promise<StoredWebhook> {
  const now = new Date().toISOString();
  const webhook: StoredWebhook = {
    id: randomUUID(),
    tenant,
    url: 'https://hooks.example.com/breb',
    events: ['payment.settled'],
    delivery_mode: 'RETRY',
    enabled: true,
    // Never opened here: the stream's reader routes events, it does not sign them.
    secrets: 'sealed',
    created_at: now,
    updated_at: now,
    ...fields,
  };
  await webhooks.insert(webhook, MAX_WEBHOOKS);
  return webhook;
}

const sequenceOf = (record: StreamRecord | StreamEventRecord): string => record.dynamodb!.SequenceNumber!;
/** The event id a stream record inserted, if it is an event's. */
const eventIdOf = (record: StreamRecord | StreamEventRecord): string | undefined =>
  record.eventName === 'INSERT' && record.dynamodb?.NewImage?.['entity']?.S === 'EVENT'
    ? record.dynamodb.NewImage['id']?.S
    : undefined;
/** The one shard's position (DynamoDB Local's stream of a new table has a single open shard). */
const onlyPosition = (positions: StreamPositions): string | undefined => {
  const values = Object.values(positions.shards);
  expect(values.length).toBeLessThanOrEqual(1);
  return values[0];
};
const deliveriesOf = (tenant: string): Promise<Item[]> =>
  table.scan((item) => item['entity'] === 'DELIVERY' && item['tenant'] === tenant);

test('the dispatcher killed mid-batch and restarted loses no event, and makes each delivery once', async () => {
  // First in this file: the stream holds only what this test writes, so its first two batches of ten
  // are the webhooks' records and events.
  const N = 40;
  const tenant = `client-${randomUUID()}`;
  const hooks = [await addWebhook(tenant), await addWebhook(tenant)];
  // A webhook of the tenant that wants other events, and one disabled: no delivery for either.
  await addWebhook(tenant, { events: ['qr_code.paid'] });
  await addWebhook(tenant, { enabled: false });
  const events = Array.from({ length: N }, (_, n) => newEvent(tenant, n));
  await writeEvents(events);

  const positions = memoryPositions();
  const saves: StreamPositions[] = [];
  const store: PositionStore = { load: positions.load, save: (p) => (saves.push(p), positions.save(p)) };

  // Reader 1: its second batch is half handled, then the process dies (stop() not awaited, the
  // handler never answers).
  let batches = 0;
  let handedBeforeKill: string[] = [];
  let lostWithKill: string[] = [];
  let firstBatch: StreamEventRecord[] = [];
  let killedBatch: StreamEventRecord[] = [];
  let dying: Promise<void> | undefined;
  const readerOne: { reader?: LocalEventStream } = {};
  readerOne.reader = await startReader(async (event, context) => {
    batches += 1;
    if (batches === 1) {
      firstBatch = event.Records;
      return dispatcher(event, context);
    }
    killedBatch = event.Records;
    const half = Math.floor(event.Records.length / 2);
    const handed = event.Records.slice(0, half);
    handedBeforeKill = handed.map(eventIdOf).filter((id) => id !== undefined);
    lostWithKill = event.Records.slice(half)
      .map(eventIdOf)
      .filter((id) => id !== undefined);
    await dispatcher({ Records: handed }, context);
    await until(() => readerOne.reader !== undefined, 'reader 1');
    dying = readerOne.reader!.stop();
    return new Promise<never>(() => undefined);
  }, store);
  await until(() => dying !== undefined, 'the kill');
  await dying;

  // The kill happened mid-batch: events of both halves, the second half's never dispatched.
  expect(batches).toBe(2);
  expect(firstBatch).toHaveLength(10);
  expect(handedBeforeKill.length).toBeGreaterThan(0);
  expect(lostWithKill.length).toBeGreaterThan(0);
  const deliveredBeforeRestart = new Set((await deliveriesOf(tenant)).map((d) => d['event_id']));
  for (const id of handedBeforeKill) expect(deliveredBeforeRestart.has(id)).toBe(true);
  for (const id of lostWithKill) expect(deliveredBeforeRestart.has(id)).toBe(false);
  // Nothing of the killed batch was saved: the position is the end of the first batch.
  expect(saves).toHaveLength(1);
  const afterFirstBatch = onlyPosition(positions.load())!;
  expect(afterFirstBatch).toBe(sequenceOf(firstBatch.at(-1)!));

  // Reader 2, the real handler, from the same positions.
  const handedAgain: StreamEventRecord[] = [];
  const readerTwo = await startReader(async (event, context) => {
    handedAgain.push(...event.Records);
    return dispatcher(event, context);
  }, store);
  // A delivery is queued once it is written: every one is written once the queue saw 2N ids.
  await until(() => new Set(queued).size >= 2 * N, `the ${2 * N} deliveries`, 60_000);
  // It started right after the first batch: the killed batch again, whole.
  expect(handedAgain.slice(0, killedBatch.length).map(sequenceOf)).toEqual(killedBatch.map(sequenceOf));
  const lastEvent = handedAgain
    .filter((r) => eventIdOf(r) !== undefined)
    .reduce((last, r) => (BigInt(sequenceOf(r)) > last ? BigInt(sequenceOf(r)) : last), 0n);
  await until(() => BigInt(onlyPosition(positions.load()) ?? 0) >= lastEvent, 'the position past the last event');
  await readerTwo.stop();

  // Exactly one delivery per (event, webhook), each queued at least once; nothing lost.
  const deliveries = await deliveriesOf(tenant);
  expect(deliveries).toHaveLength(2 * N);
  const pairs = deliveries.map((d) => `${d['event_id']}/${d['webhook_id']}`).sort();
  const expected = events.flatMap((e) => hooks.map((w) => `${e.id}/${w.id}`)).sort();
  expect(pairs).toEqual(expected);
  expect(deliveries.every((d) => d['status'] === 'PENDING' && d['attempts'].length === 0)).toBe(true);
  const queuedIds = new Set(queued);
  for (const delivery of deliveries) expect(queuedIds.has(delivery['id'])).toBe(true);
  // The events dispatched before the kill were dispatched again after it: their deliveries found,
  // not made again, and queued a second time (the sender ignores a message no longer due).
  for (const id of handedBeforeKill) {
    const ofEvent = deliveries.filter((d) => d['event_id'] === id).map((d) => d['id']);
    for (const deliveryId of ofEvent) expect(queued.filter((q) => q === deliveryId)).toHaveLength(2);
  }
  // The positions only moved forward.
  const saved = saves.map((p) => BigInt(onlyPosition(p)!));
  expect(saved.length).toBeGreaterThan(2);
  expect([...saved].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(saved);
  expect(saved.at(-1)!).toBeGreaterThanOrEqual(lastEvent);
}, 90_000);

describe.each([0, 3])('a batch failure reported at record %i', (k) => {
  test('hands the batch again from that record, the position saved just before it', async () => {
    await writeEvents(Array.from({ length: 12 }, (_, n) => newEvent(`client-${randomUUID()}`, n)));
    const positions = memoryPositions();
    const saves: StreamPositions[] = [];
    const store: PositionStore = { load: positions.load, save: (p) => (saves.push(p), positions.save(p)) };
    const calls: string[][] = [];
    let savedBeforeRetry: StreamPositions[] = [];
    const reader = await startReader(async (event) => {
      calls.push(event.Records.map(sequenceOf));
      if (calls.length === 2) savedBeforeRetry = [...saves];
      if (calls.length > 1) return { batchItemFailures: [] };
      return { batchItemFailures: [{ itemIdentifier: sequenceOf(event.Records[k]!) }] };
    }, store);
    await until(() => calls.length >= 2, 'the batch handed again');
    await reader.stop();

    const [failed, again] = calls as [string[], string[]];
    expect(failed).toHaveLength(10);
    expect(again[0]).toBe(failed[k]);
    expect(again.slice(0, failed.length - k)).toEqual(failed.slice(k));
    // The failed batch saved the records before k only (nothing when k is 0).
    expect(savedBeforeRetry.map(onlyPosition)).toEqual(k === 0 ? [] : [failed[k - 1]]);
  });
});

describe('filePositions', () => {
  /** Writes one event and waits until `reader`'s position (in `file`) is past it. */
  async function markerSeenBy(seen: StreamEventRecord[], file: string): Promise<DomainEvent> {
    const marker = newEvent(`client-${randomUUID()}`, 0);
    await writeEvents([marker]);
    await until(() => seen.some((r) => eventIdOf(r) === marker.id), 'the marker handed');
    const record = seen.find((r) => eventIdOf(r) === marker.id)!;
    await until(
      () => BigInt(onlyPosition(filePositions(file).load()) ?? 0) >= BigInt(sequenceOf(record)),
      'the marker saved',
    );
    return marker;
  }

  test('a new reader on the same file starts where the last one stopped', async () => {
    const file = join(folder, 'positions.json');
    const seenByOne: StreamEventRecord[] = [];
    const one = await startReader(async (event) => void seenByOne.push(...event.Records), filePositions(file), 100);
    await markerSeenBy(seenByOne, file);
    await one.stop();

    const saved = JSON.parse(readFileSync(file, 'utf8')) as StreamPositions;
    expect(saved.streamArn).toMatch(/^arn:aws:dynamodb:.*:table\/.*\/stream\//);
    expect(onlyPosition(saved)).toBe(sequenceOf(seenByOne.at(-1)!));

    // Written while no reader runs: the next one hands it, and nothing the first one handled.
    const whileDown = newEvent(`client-${randomUUID()}`, 1);
    await writeEvents([whileDown]);
    const seenByTwo: StreamEventRecord[] = [];
    const two = await startReader(async (event) => void seenByTwo.push(...event.Records), filePositions(file), 100);
    await markerSeenBy(seenByTwo, file);
    await two.stop();
    expect(eventIdOf(seenByTwo[0]!)).toBe(whileDown.id);
    const first = new Set(seenByOne.map(sequenceOf));
    expect(seenByTwo.filter((r) => first.has(sequenceOf(r)))).toEqual([]);
  });

  test("a file of another stream (the table made again) is ignored: from the stream's start", async () => {
    const file = join(folder, 'other-stream.json');
    const seenBefore: StreamEventRecord[] = [];
    const probe = await startReader(async (event) => void seenBefore.push(...event.Records), filePositions(file), 100);
    await markerSeenBy(seenBefore, file);
    await probe.stop();
    const latest = JSON.parse(readFileSync(file, 'utf8')) as StreamPositions;
    writeFileSync(file, JSON.stringify({ ...latest, streamArn: `${latest.streamArn}-gone` }));

    const seen: StreamEventRecord[] = [];
    const reader = await startReader(async (event) => void seen.push(...event.Records), filePositions(file), 100);
    await until(() => seen.length > 0, 'a batch');
    await reader.stop();
    expect(sequenceOf(seen[0]!)).toBe(sequenceOf(seenBefore[0]!));
  });

  test('a missing or unreadable file is the start of the stream', () => {
    expect(filePositions(join(folder, 'none.json')).load()).toEqual({ streamArn: undefined, shards: {} });
    writeFileSync(join(folder, 'torn.json'), '{"streamArn": "arn:');
    expect(filePositions(join(folder, 'torn.json')).load()).toEqual({ streamArn: undefined, shards: {} });
  });
});

describe("the deployed mapping's retry budget and the re-drive (issue 27, finding 3)", () => {
  type QueueHandler = (
    event: { Records: { messageId: string; body: string }[] },
    context: Context,
  ) => Promise<SQSBatchResponse>;
  let redrive: QueueHandler;
  beforeAll(async () => {
    ({ handler: redrive } = (await import('../../functions/redrive-stream-failures')) as unknown as {
      handler: QueueHandler;
    });
  });
  const withTime = { functionName: 'redrive', awsRequestId: 'r', getRemainingTimeInMillis: () => 90_000 } as Context;
  /** The re-drive worker's answer to a batch, in an invocation of its own as Lambda runs it (invoke-store.ts). */
  const redriveBatch = (Records: { messageId: string; body: string }[]) =>
    asInvocation(randomUUID(), () => redrive({ Records }, withTime));
  /** The re-drive worker's answer to one on-failure message. */
  const redriven = (failure: unknown) => redriveBatch([{ messageId: randomUUID(), body: JSON.stringify(failure) }]);

  test.each([
    ['its retries are spent', { retryAttempts: 2 }, 'RetryAttemptsExhausted', 3],
    ['its record is older than the age limit', { maxRecordAgeMs: 1 }, 'RecordAgeExceeded', 1],
  ] as const)(
    'a batch that keeps failing is given up once %s, re-driven from the stream, and the reader moves on',
    async (_when, limits, condition, triesOfStuck) => {
      const tenant = `client-${randomUUID()}`;
      const hook = await addWebhook(tenant);
      const [before, stuck, after] = [newEvent(tenant, 0), newEvent(tenant, 1), newEvent(tenant, 2)];
      await writeEvents([before, stuck, after]);

      let failing = true;
      const triesWithStuck: number[] = [];
      const failures: StreamFailure[] = [];
      const redriveAnswers: SQSBatchResponse[] = [];
      const reader = await LocalEventStream.start(
        table.client,
        table.endpoint,
        table.tableName,
        async (event, context) => {
          const at = event.Records.findIndex((r) => eventIdOf(r) === stuck.id);
          if (!failing || at < 0) return dispatcher(event, context);
          triesWithStuck.push(at);
          // The records before the stuck one are done; it fails, as a dispatch into a broken queue would.
          await dispatcher({ Records: event.Records.slice(0, at) }, context);
          return { batchItemFailures: [{ itemIdentifier: sequenceOf(event.Records[at]!) }] };
        },
        memoryPositions(),
        {
          batchSize: 10,
          pollMs: 20,
          log: () => undefined,
          ...limits,
          onFailure: async (failure) => {
            failures.push(failure);
            // What the deployed streamFailures queue does: its consumer, the re-drive worker, runs now
            // that the fault is gone.
            failing = false;
            redriveAnswers.push(await redriven(failure));
          },
        },
      );
      readers.push(reader);
      await until(() => redriveAnswers.length === 1, 'the batch given up and re-driven');
      // The reader read on: a later event is dispatched as usual.
      const later = newEvent(tenant, 3);
      await writeEvents([later]);
      await until(
        async () => (await deliveriesOf(tenant)).some((d) => d['event_id'] === later.id),
        'the later event dispatched',
      );
      await reader.stop();

      expect(triesWithStuck).toHaveLength(triesOfStuck);
      // From the first failure on, every try started at the stuck record.
      expect(triesWithStuck.slice(1).every((at) => at === 0)).toBe(true);
      expect(failures).toHaveLength(1);
      const [failure] = failures;
      expect(failure!.requestContext.condition).toBe(condition);
      expect(failure!.DDBStreamBatchInfo).toMatchObject({
        shardId: expect.any(String),
        streamArn: expect.stringMatching(/\/stream\//),
        startSequenceNumber: expect.any(String),
        endSequenceNumber: expect.any(String),
      });
      expect(redriveAnswers).toEqual([{ batchItemFailures: [] }]);
      // Every event of the tenant has its one delivery: the stuck one's made by the re-drive.
      const made = await deliveriesOf(tenant);
      expect(made.map((d) => d['event_id']).sort()).toEqual([before.id, stuck.id, after.id, later.id].sort());
      expect(made.every((d) => d['webhook_id'] === hook.id)).toBe(true);
      // Re-driven again (the queue hands a message twice): nothing new is made.
      expect(await redriven(failure)).toEqual({ batchItemFailures: [] });
      expect(await deliveriesOf(tenant)).toHaveLength(4);
    },
    60_000,
  );

  test('a batch the stream no longer keeps is left to the sweeper (not failed); a malformed message fails alone', async () => {
    const { Table } = await table.client.send(new DescribeTableCommand({ TableName: table.tableName }));
    const gone = {
      requestContext: { condition: 'RecordAgeExceeded' },
      DDBStreamBatchInfo: {
        shardId: 'shardId-00000000000000000000-00000000',
        startSequenceNumber: '100000000000000000001',
        endSequenceNumber: '100000000000000000002',
        streamArn: Table!.LatestStreamArn!,
        batchSize: 1,
      },
    };
    expect(await redriven(gone)).toEqual({ batchItemFailures: [] });
    const malformed = { messageId: randomUUID(), body: '{"DDBStreamBatchInfo":{"shardId":"s"}}' };
    expect(await redriveBatch([malformed])).toEqual({
      batchItemFailures: [{ itemIdentifier: malformed.messageId }],
    });
  });
});
