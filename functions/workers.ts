/**
 * The worker table: the functions no route calls, each fed by the table's stream or by a queue
 * (docs/architecture.md, "Later work"). The CDK stack creates one function per entry, with exactly
 * these table actions and queues, and its event source; the local runtime feeds the same handlers
 * from its own stream reader and queues. As routes.ts, nothing here imports handler code.
 */
import { DEFAULT_WEBHOOK_TIMEOUT_MS, type QueueName } from '../shared/runtime/config';
import type { FunctionDefinition } from './routes';

/**
 * What invokes a worker: in batches of up to `batchSize`, the table's stream (only the insertions of
 * outbox events: EVENT items) or one of the queues; or a schedule (an EventBridge rule's expression
 * on AWS; the local runtime runs it every SWEEP_INTERVAL_MS instead).
 */
export type WorkerSource =
  | { readonly stream: 'events'; readonly batchSize: number }
  | { readonly queue: QueueName; readonly batchSize: number }
  | { readonly schedule: `rate(${string})` };

export interface WorkerDefinition extends FunctionDefinition {
  readonly source: WorkerSource;
  /**
   * How long one batch may take, in seconds: a worker handles its batch's records one after the
   * other. A queue's visibility timeout is six times its consumer's (infra/constructs/work-queues.ts).
   */
  readonly timeoutSeconds: number;
}

/** The webhook sender takes this many messages at a time. */
const SENDER_BATCH_SIZE = 10;

export const workers: readonly WorkerDefinition[] = [
  {
    name: 'dispatchEvents',
    handler: 'dispatch-events',
    source: { stream: 'events', batchSize: 100 },
    // Reads the tenant's webhooks (Query on gsi1); each delivery's transaction puts it and updates its
    // lists' counters; its first attempt is then queued, and the event marked dispatched (UpdateItem).
    tableActions: ['Query', 'PutItem', 'UpdateItem'],
    queues: ['webhookDeliveries'],
    // A hundred events, each a query, then a transaction and a message per subscribed webhook.
    timeoutSeconds: 60,
  },
  {
    name: 'sendWebhook',
    handler: 'send-webhook',
    source: { queue: 'webhookDeliveries', batchSize: SENDER_BATCH_SIZE },
    // Reads the delivery (consistent), its webhook and its event, and records the attempt on the
    // delivery; queues the retry, or the rest of a wait longer than SQS delays a message.
    tableActions: ['GetItem', 'UpdateItem'],
    queues: ['webhookDeliveries'],
    // Every receiver of the batch may take its whole timeout (WEBHOOK_TIMEOUT_MS, the lookup included),
    // plus the table's and the queue's calls.
    timeoutSeconds: (SENDER_BATCH_SIZE * DEFAULT_WEBHOOK_TIMEOUT_MS) / 1000 + 30,
  },
  {
    name: 'settlePayment',
    handler: 'settle-payment',
    source: { queue: 'settlement', batchSize: 10 },
    // Reads the payment (consistent); the answer's transaction puts the payment (while still PENDING)
    // and its event, and for a rejection updates the payer's balance and puts the movement.
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    // On a connector stage it signs the transfer order it POSTs to the sponsor bank's connector.
    secrets: ['network'],
    timeoutSeconds: 30,
  },
  {
    name: 'sweepStrandedWork',
    handler: 'sweep-stranded-work',
    source: { schedule: 'rate(1 minute)' },
    // Queries the index of due work and takes each item (UpdateItem, ALL_NEW); queues a payment's job
    // or a delivery's attempt, and dispatches an event as the dispatcher does (Query on gsi1, the
    // delivery's transaction, UpdateItem marking it dispatched).
    tableActions: ['Query', 'PutItem', 'UpdateItem'],
    queues: ['settlement', 'webhookDeliveries'],
    // At most 800 items a run (shared/domain/sweep.ts), ten at a time.
    timeoutSeconds: 60,
  },
];

/** The worker a queue feeds: every queue has exactly one. */
export function consumerOf(queue: QueueName): WorkerDefinition {
  const consumers = workers.filter((worker) => 'queue' in worker.source && worker.source.queue === queue);
  if (consumers.length !== 1)
    throw new Error(`The ${queue} queue has ${consumers.length} consumers in the worker table`);
  return consumers[0]!;
}

/** The workers a schedule runs. */
export const scheduledWorkers = (): readonly (WorkerDefinition & {
  readonly source: { readonly schedule: string };
})[] =>
  workers.filter(
    (worker): worker is WorkerDefinition & { source: { schedule: `rate(${string})` } } => 'schedule' in worker.source,
  );

/** The worker the table's stream feeds. */
export function streamConsumer(): WorkerDefinition {
  const consumer = workers.find((worker) => 'stream' in worker.source);
  if (!consumer) throw new Error("No worker reads the table's stream in the worker table");
  return consumer;
}
