/**
 * One client's webhook reads per payment (issue 31, docs/scale.md): the real dispatcher and sender
 * handlers, against DynamoDB Local behind the benchmarks' recording proxy
 * (bench/functions/dynamodb-meter.ts), take a client's payments (two events each) to its webhook
 * subscribed to every payment event, with two other webhooks of the client (one disabled, one
 * subscribed to nothing a payment sends). The read units each partition takes, as DynamoDB Local
 * reports them, are summed per payment. The dispatcher reads the client's webhooks (its set, its
 * gsi1 list, each webhook's item) once a stream batch, not once an event: at the dispatcher's batch
 * of 100 they cost almost nothing a payment, and the webhook's item takes the sender's two reads a
 * payment (one an attempt), which DynamoDB's 3,000 a second holds up to some 1,450 payments a second.
 * Then the sender is shown to read the webhook as it is now: a rotated secret signs the next attempt,
 * a webhook disabled after its event was dispatched gets no attempt.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Context, DynamoDBStreamEvent, SQSBatchResponse } from 'aws-lambda';
import { DynamoDbMeter } from '../../bench/functions/dynamodb-meter';
import { LOCAL_STAGE, ENV } from '../../shared/runtime/config';
import type { DomainEvent } from '../../shared/domain/events';
import type { WebhookEventType } from '../../shared/schemas/webhooks';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { WebhookReceiver } from '../support/webhook-receiver';

type QueueHandler = (
  event: { Records: { messageId: string; body: string }[] },
  context: Context,
) => Promise<SQSBatchResponse>;
type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<{ batchItemFailures: unknown[] }>;

const PAYMENT_EVENTS: WebhookEventType[] = [
  'payment.outbound.confirmed',
  'payment.inbound.received',
  'payment.inbound.confirmed',
  'payment.settled',
  'payment.rejected',
];
const PAYMENTS = 20;

let table: TestTable;
let meter: DynamoDbMeter;
let receiver: WebhookReceiver;
let dispatcher: StreamHandler;
let sender: QueueHandler;
let webhooksModule: typeof import('../../shared/domain/webhooks');
let store: typeof import('../../shared/data/webhooks-repository').dynamoWebhookStore;
let sealer: import('../../shared/domain/webhooks').SecretSealer;
const queued: string[] = [];
const tenant = `client-${randomUUID()}`;
let webhookId: string;
let secret: string;

const context = {
  functionName: 'test',
  awsRequestId: 'r',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

beforeAll(async () => {
  table = await createTestTable('webhook-read-heat');
  // Every call of the repositories goes through the meter, which reports each call's read units.
  meter = await DynamoDbMeter.start(table.endpoint, { detail: true });
  process.env[ENV.dynamodbEndpoint] = meter.endpoint;
  process.env[ENV.localSecretKey] ??= randomBytes(32).toString('base64');
  // The local stage: its receivers on 127.0.0.1 are allowed, as under `npm start`.
  process.env[ENV.stage] = LOCAL_STAGE;
  receiver = await WebhookReceiver.start();
  const { installQueue } = await import('../../shared/data/queues');
  installQueue('webhookDeliveries', { send: async (message) => void queued.push(JSON.stringify(message)) });
  webhooksModule = await import('../../shared/domain/webhooks');
  ({ dynamoWebhookStore: store } = await import('../../shared/data/webhooks-repository'));
  sealer = (await import('../../shared/data/secret-sealing')).secretSealer();
  ({ handler: dispatcher } = (await import('../../functions/dispatch-events')) as unknown as {
    handler: StreamHandler;
  });
  ({ handler: sender } = (await import('../../functions/send-webhook')) as unknown as { handler: QueueHandler });

  const deps = {
    clock: { now: () => new Date().toISOString() },
    ids: { newId: () => randomUUID() },
    webhooks: store,
    secrets: webhooksModule.randomWebhookSecrets,
    sealer,
    urlPolicy: { localReceivers: true },
    resolver: { resolve: async () => ['127.0.0.1'] },
  };
  const create = (events: WebhookEventType[], path: string, enabled = true) =>
    webhooksModule.createWebhook(deps, tenant, { url: `${receiver.url}${path}`, events, enabled });
  const subscribed = await create(PAYMENT_EVENTS, '/all');
  webhookId = subscribed.id;
  secret = subscribed.secret;
  receiver.secrets.set('/all', [secret]);
  await create(PAYMENT_EVENTS, '/off', false);
  await create(['report.ready'], '/reports');
}, 60_000);

afterAll(async () => {
  (await import('../../shared/data/queues')).installQueue('webhookDeliveries', undefined);
  await receiver?.stop();
  await meter?.stop();
  await table?.drop();
});

let sequence = 1000;
/** Writes `type`'s event for the client (as a change's transaction does) and answers its stream record. */
async function streamedEvent(type: WebhookEventType): Promise<DynamoDBStreamEvent['Records'][number]> {
  const { eventPut } = await import('../../shared/data/events');
  const event: DomainEvent = { id: randomUUID(), tenant, type, created_at: new Date().toISOString(), data: { type } };
  const item = eventPut(event).Put!.Item as Record<string, unknown>;
  await table.documents.send(new PutCommand({ TableName: table.tableName, Item: item }));
  sequence += 1;
  return {
    eventName: 'INSERT',
    dynamodb: { SequenceNumber: String(sequence), NewImage: marshall(item, { removeUndefinedValues: true }) },
  } as DynamoDBStreamEvent['Records'][number];
}

/** Sends every queued delivery, ten a batch (SENDER_BATCH_SIZE), as SQS hands them. */
async function sendQueued(): Promise<void> {
  while (queued.length > 0) {
    const batch = queued.splice(0, 10).map((body) => ({ messageId: randomUUID(), body }));
    expect(await sender({ Records: batch }, context)).toEqual({ batchItemFailures: [] });
  }
}

/** Read units by partition (`<index or table> <partition key value>`) of the calls since the last splice. */
function readUnitsByPartition(): Map<string, number> {
  const units = new Map<string, number>();
  for (const call of meter.log.splice(0)) {
    if (!['GetItem', 'Query'].includes(call.operation)) continue;
    const consumed = [call.output?.['ConsumedCapacity'] ?? []].flat() as { CapacityUnits?: number }[];
    const reported = consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
    const partition =
      call.operation === 'GetItem'
        ? `table ${String(unmarshall(call.input['Key'] as Record<string, AttributeValue>)['pk'])}`
        : `${String(call.input['IndexName'] ?? 'table')} ${String(
            Object.values(unmarshall(call.input['ExpressionAttributeValues'] as Record<string, AttributeValue>))[0],
          )}`;
    units.set(partition, (units.get(partition) ?? 0) + reported);
  }
  return units;
}

/** The partitions every payment of the client reads: its webhooks, its set and its list. */
const sharedByTheClient = (partition: string): boolean =>
  /^table WEBHOOKS?#/.test(partition) || partition === `gsi1 ${tenant}#WEBHOOK`;

/**
 * PAYMENTS payments (their `payment.outbound.confirmed` and `payment.settled`), dispatched in stream
 * batches of `perBatch` events and sent: the read units a payment of each shared partition.
 */
async function perPayment(perBatch: number): Promise<Record<string, number>> {
  const records = [];
  for (let n = 0; n < PAYMENTS; n += 1) {
    records.push(await streamedEvent('payment.outbound.confirmed'), await streamedEvent('payment.settled'));
  }
  const before = receiver.at('/all').length;
  meter.log.splice(0);
  for (let start = 0; start < records.length; start += perBatch) {
    const answer = await dispatcher({ Records: records.slice(start, start + perBatch) }, context);
    expect(answer).toEqual({ batchItemFailures: [] });
  }
  await sendQueued();
  expect(receiver.at('/all').length - before).toBe(2 * PAYMENTS);
  expect(receiver.at('/off')).toHaveLength(0);
  expect(receiver.at('/reports')).toHaveLength(0);
  const units = readUnitsByPartition();
  return Object.fromEntries(
    [...units.entries()].filter(([partition]) => sharedByTheClient(partition)).map(([p, u]) => [p, u / PAYMENTS]),
  );
}

test('in stream batches of one payment, each client partition the dispatcher reads is read once a batch', async () => {
  const units = await perPayment(2);
  process.stdout.write(`read units a payment, batches of 2: ${JSON.stringify(units, null, 1)}\n`);
  // The set (1 unit) and the gsi1 list (0.5) once for the payment's two events, not once each.
  expect(units[`table WEBHOOKS#${tenant}`]).toBeLessThanOrEqual(1);
  expect(units[`gsi1 ${tenant}#WEBHOOK`]).toBeLessThanOrEqual(0.5);
}, 120_000);

test("in the dispatcher's batches of 100 events, only the sender's attempts read the webhook a payment", async () => {
  const units = await perPayment(100);
  process.stdout.write(`read units a payment, batches of 100: ${JSON.stringify(units, null, 1)}\n`);
  // Two attempts a payment, each reading the webhook (1 unit), and the dispatcher's read once a batch.
  expect(units[`table WEBHOOK#${webhookId}`]).toBeLessThanOrEqual(2.1);
  for (const [partition, perPaymentUnits] of Object.entries(units)) {
    if (partition === `table WEBHOOK#${webhookId}`) continue;
    expect([partition, perPaymentUnits <= 0.1]).toEqual([partition, true]);
  }
}, 120_000);

test('the sender reads the webhook as it is now: a rotated secret signs the next attempt, a disabled webhook gets none', async () => {
  const deps = {
    clock: { now: () => new Date().toISOString() },
    webhooks: store,
    secrets: webhooksModule.randomWebhookSecrets,
    sealer,
  };
  const rotated = await webhooksModule.rotateWebhookSecret(deps, tenant, webhookId);
  receiver.secrets.set('/all', [secret, rotated.secret]);
  const before = receiver.at('/all').length;
  await dispatcher({ Records: [await streamedEvent('payment.settled')] }, context);
  await sendQueued();
  const [request] = receiver.at('/all').slice(before);
  // Signed by both secrets, each verifying alone (docs/webhooks.md, "Rotation").
  expect([...request!.verifiedBy].sort()).toEqual([secret, rotated.secret].sort());

  // Dispatched while enabled, disabled before its attempt: the attempt reads it disabled.
  await dispatcher({ Records: [await streamedEvent('payment.settled')] }, context);
  await webhooksModule.updateWebhook(
    { ...deps, urlPolicy: { localReceivers: true }, resolver: { resolve: async () => ['127.0.0.1'] } },
    tenant,
    webhookId,
    { enabled: false },
  );
  const count = receiver.at('/all').length;
  const [message] = queued;
  await sendQueued();
  expect(receiver.at('/all')).toHaveLength(count);
  const { dynamoDeliveryStore } = await import('../../shared/data/deliveries-repository');
  const delivery = await dynamoDeliveryStore.get((JSON.parse(message!) as { delivery_id: string }).delivery_id);
  expect(delivery).toMatchObject({ status: 'FAILED', attempts: [{ error: 'Not sent: the webhook is disabled' }] });
}, 60_000);
