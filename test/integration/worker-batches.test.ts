/**
 * The queue consumers' batches, through their real handlers against DynamoDB Local (issue 27, finding
 * 5): a malformed message among good ones fails alone (the good ones are done, only it is reported in
 * batchItemFailures), and a batch short of time takes no further message, reporting the rest for SQS
 * to hand again, which are then handled in the next batch; the dispatcher short of time reports the
 * record it stopped at.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { Context, DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import { workerOf } from '../../functions/workers';
import { ENV } from '../../shared/runtime/config';
import type { StoredDelivery } from '../../shared/domain/deliveries';
import { createTestTable, type TestTable } from '../support/dynamo-table';

type QueueHandler = (
  event: { Records: { messageId: string; body: string }[] },
  context: Context,
) => Promise<SQSBatchResponse>;

let table: TestTable;
let installQueue: typeof import('../../shared/data/queues').installQueue;
let deliveries: typeof import('../../shared/data/deliveries-repository').dynamoDeliveryStore;
let sender: QueueHandler;
let settler: QueueHandler;
const queued: string[] = [];

beforeAll(async () => {
  table = await createTestTable('worker-batches');
  // The sender opens webhook secrets with the local key, as under the local runtime (infra/local/runtime.ts).
  process.env[ENV.localSecretKey] ??= randomBytes(32).toString('base64');
  ({ installQueue } = await import('../../shared/data/queues'));
  installQueue('webhookDeliveries', { send: async (message) => void queued.push(JSON.stringify(message)) });
  ({ dynamoDeliveryStore: deliveries } = await import('../../shared/data/deliveries-repository'));
  ({ handler: sender } = (await import('../../functions/send-webhook')) as unknown as { handler: QueueHandler });
  ({ handler: settler } = (await import('../../functions/settle-payment')) as unknown as { handler: QueueHandler });
});
afterAll(async () => {
  installQueue?.('webhookDeliveries', undefined);
  await table?.drop();
});

/** A Lambda context whose remaining time is read from `remaining` at each call. */
function contextWith(remaining: () => number): Context {
  return {
    functionName: 'test',
    awsRequestId: randomUUID(),
    getRemainingTimeInMillis: remaining,
  } as unknown as Context;
}
const plentyOfTime = () => contextWith(() => 60_000);

/**
 * A delivery PENDING and due later than now: its message is handled by queueing it again for the
 * rest of the wait (NOT_DUE), with no receiver called: each handled message leaves one trace.
 */
async function pendingDelivery(): Promise<StoredDelivery> {
  const now = new Date().toISOString();
  const delivery: StoredDelivery = {
    id: randomUUID(),
    tenant: `client-${randomUUID()}`,
    webhook_id: randomUUID(),
    event_id: randomUUID(),
    event_type: 'payment.settled',
    status: 'PENDING',
    attempts: [],
    round_start: 0,
    next_attempt_at: new Date(Date.now() + 3_600_000).toISOString(),
    created_at: now,
    updated_at: now,
  };
  await deliveries.createIfAbsent(delivery);
  return delivery;
}

const message = (body: string) => ({ messageId: randomUUID(), body });
const requeuedIds = () => queued.map((m) => (JSON.parse(m) as { delivery_id: string }).delivery_id);

describe.each([
  ['not JSON', 'delivery {'],
  ['JSON null', 'null'],
  ['another message', '{"payment_id":"p-1"}'],
  ['an id that is not a string', '{"delivery_id":42}'],
])('the sender, with a message that is %s among good ones', (_what, poisonBody) => {
  test('handles the good ones and reports the poison one alone', async () => {
    queued.length = 0;
    const [one, two] = [await pendingDelivery(), await pendingDelivery()];
    const poison = message(poisonBody);
    const records = [
      message(JSON.stringify({ delivery_id: one.id })),
      poison,
      message(JSON.stringify({ delivery_id: two.id })),
    ];
    const answer = await sender({ Records: records }, plentyOfTime());
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: poison.messageId }] });
    // Both good messages were handled: each delivery, not yet due, queued again for the rest of its wait.
    expect(requeuedIds().sort()).toEqual([one.id, two.id].sort());
  });
});

test('the settlement job reports a malformed message alone; the good one (an unknown payment) is done', async () => {
  const poison = message('{"payment_id":""}');
  const good = message(JSON.stringify({ payment_id: randomUUID() }));
  expect(await settler({ Records: [poison, good] }, plentyOfTime())).toEqual({
    batchItemFailures: [{ itemIdentifier: poison.messageId }],
  });
});

test('a sender batch short of time starts none of its messages and reports them all; the next batch, with time, sends them', async () => {
  queued.length = 0;
  const { recordSeconds } = workerOf('send-webhook');
  const batch = await Promise.all(Array.from({ length: 4 }, () => pendingDelivery()));
  const records = batch.map((d) => message(JSON.stringify({ delivery_id: d.id })));
  // The batch's messages go at once (a slow receiver holds back no other): it needs one message's
  // worst time, and with less left it starts none.
  const answer = await sender(
    { Records: records },
    contextWith(() => recordSeconds * 1000 - 1),
  );
  expect(answer.batchItemFailures).toEqual(records.map((r) => ({ itemIdentifier: r.messageId })));
  expect(requeuedIds()).toEqual([]);

  // SQS hands them again: the next batch, with time, handles each once.
  const rest = await sender({ Records: records }, plentyOfTime());
  expect(rest).toEqual({ batchItemFailures: [] });
  expect(requeuedIds().sort()).toEqual(batch.map((d) => d.id).sort());
});

test('the dispatcher short of time stops at the record it might not finish: the batch is retried from there', async () => {
  const { handler: dispatcher } = (await import('../../functions/dispatch-events')) as unknown as {
    handler: (event: DynamoDBStreamEvent, context: Context) => Promise<{ batchItemFailures: unknown[] }>;
  };
  const { recordSeconds } = workerOf('dispatch-events');
  const tenant = `client-${randomUUID()}`;
  const record = (n: number) => ({
    eventName: 'INSERT' as const,
    dynamodb: {
      SequenceNumber: String(1000 + n),
      NewImage: marshall({
        pk: `EVENT#${n}`,
        sk: 'EVENT',
        entity: 'EVENT',
        id: randomUUID(),
        tenant,
        type: 'payment.settled',
        created_at: new Date().toISOString(),
        data: { n },
      }),
    },
  });
  const records = [record(1), record(2)] as unknown as DynamoDBStreamEvent['Records'];
  const short = contextWith(() => recordSeconds * 1000 - 1);
  expect(await dispatcher({ Records: records }, short)).toEqual({ batchItemFailures: [{ itemIdentifier: '1001' }] });
  // With time, the same batch is dispatched whole (the tenant has no webhook: nothing to make).
  expect(await dispatcher({ Records: records }, plentyOfTime())).toEqual({ batchItemFailures: [] });
});
