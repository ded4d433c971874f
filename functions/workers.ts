/**
 * The worker table: the functions no route calls, each fed by the table's stream or by a queue
 * (docs/architecture.md, "Later work"). The CDK stack creates one function per entry, with exactly
 * these table actions and queues, and its event source; the local runtime feeds the same handlers
 * from its own stream reader and queues. As the route table (functions/routes/), nothing here imports handler code.
 */
import { DEFAULT_WEBHOOK_TIMEOUT_MS, type QueueName } from '../shared/runtime/config';
import type { FunctionDefinition } from './routes';

/**
 * What invokes a worker: in batches of up to `batchSize`, the table's stream (`events`: only the
 * insertions of outbox events, EVENT items; `audit`: only those of audit events) or one of the queues; or a schedule (an EventBridge rule's expression
 * on AWS; the local runtime runs it every SWEEP_INTERVAL_MS instead).
 */
export type WorkerSource =
  | { readonly stream: 'events' | 'audit'; readonly batchSize: number }
  | { readonly queue: QueueName; readonly batchSize: number }
  | { readonly schedule: `rate(${string})` };

export interface WorkerDefinition extends FunctionDefinition {
  readonly source: WorkerSource;
  /**
   * How long one batch may take, in seconds: a worker handles its batch's records one after the
   * other. A queue's visibility timeout is VISIBILITY_TIMEOUT_FACTOR times its consumer's.
   */
  readonly timeoutSeconds: number;
  /**
   * The longest one record may take, in seconds: a batch takes no further record once less than this
   * remains before its timeout, and reports the rest as failed (shared/runtime/batch-items.ts),
   * so that a slow batch is never cut off mid-record and handed again whole.
   */
  readonly recordSeconds: number;
  /** Reads the table's stream itself (GetShardIterator, GetRecords), beyond what its event source does. */
  readonly readsStream?: true;
}

/** A worker a queue feeds. */
export type QueueWorker = WorkerDefinition & { readonly source: Extract<WorkerSource, { queue: QueueName }> };
/** A worker the table's stream feeds. */
export type StreamWorker = WorkerDefinition & { readonly source: Extract<WorkerSource, { stream: string }> };

/**
 * The numbers AWS applies to the later work, in one place: the stack deploys them
 * (infra/constructs/work-queues.ts, worker-function.ts) and the local runtime plays them
 * (infra/local/runtime.ts), so local runs keep the deployed rules.
 */
/** Receives of one message before SQS sets it aside: a fault that outlasts five tries is not passing. */
export const MAX_RECEIVES = 5;
/**
 * AWS's advice: a queue's visibility timeout six times its consumer's timeout, so that a message is
 * not handed again while a batch that holds it may still be running (and its retries with it).
 */
export const VISIBILITY_TIMEOUT_FACTOR = 6;
/**
 * Attempts at a failing stream batch: the most Lambda accepts, so that the record age below, not a
 * count, is what ends the retries. A deploy missing a right or half an hour of SQS errors is retried
 * through, never skipped.
 */
export const STREAM_RETRY_ATTEMPTS = 10_000;
/**
 * How long the dispatcher's event source keeps retrying a record before it gives the batch up to the
 * re-drive (the streamFailures queue): six hours outlast any outage a retry can wait out, and leave
 * eighteen of the stream's 24 hours for the re-drive worker to read the records back.
 */
export const STREAM_MAX_RECORD_AGE_SECONDS = 6 * 60 * 60;

/** The webhook sender takes this many messages at a time. */
const SENDER_BATCH_SIZE = 10;

export const workers: readonly WorkerDefinition[] = [
  {
    name: 'dispatchEvents',
    handler: 'dispatch-events',
    source: { stream: 'events', batchSize: 100 },
    // Reads the tenant's webhooks (its webhook set's GetItem, consistent, and a Query on gsi1, then each
    // one's GetItem, consistent); each delivery's
    // transaction puts it and updates its lists' counters; its first attempt is then queued, and the
    // event marked dispatched (UpdateItem).
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
    queues: ['webhookDeliveries'],
    // A hundred events, each a query, then a transaction and a message per subscribed webhook.
    timeoutSeconds: 60,
    recordSeconds: 10,
  },
  {
    name: 'archiveAuditEvents',
    handler: 'archive-audit-events',
    // Each new audit event linked to its client's hash chain and copied to the Object Lock bucket
    // (docs/audit.md): reads each client's chain head (GetItem, consistent); a transaction puts the
    // client's links and its head; when it is cancelled, the links made meanwhile (BatchGetItem).
    source: { stream: 'audit', batchSize: 100 },
    tableActions: ['GetItem', 'PutItem', 'BatchGetItem'],
    auditArchive: true,
    timeoutSeconds: 60,
    recordSeconds: 10,
  },
  {
    name: 'sendWebhook',
    handler: 'send-webhook',
    source: { queue: 'webhookDeliveries', batchSize: SENDER_BATCH_SIZE },
    // Reads the delivery (consistent), its webhook and its event, and records the attempt on the
    // delivery; queues the retry, or the rest of a wait longer than SQS delays a message. Notes a run
    // of failures on the webhook (UpdateItem); disabling it is a transaction that updates it and puts
    // its webhook.disabled event and audit event (with their counters).
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
    queues: ['webhookDeliveries'],
    // Opens the webhook's secrets to sign each attempt.
    sealing: ['open'],
    // Its batch's deliveries are sent at once (one slow receiver holds back no other), so a batch takes
    // about one receiver's timeout; the time for every receiver one after the other is kept all the
    // same, as a margin for a busy instance.
    timeoutSeconds: (SENDER_BATCH_SIZE * DEFAULT_WEBHOOK_TIMEOUT_MS) / 1000 + 30,
    // The receiver's whole timeout, and the table's and the queue's calls (each at most 3 s of retries).
    recordSeconds: DEFAULT_WEBHOOK_TIMEOUT_MS / 1000 + 10,
  },
  {
    name: 'settlePayment',
    handler: 'settle-payment',
    source: { queue: 'settlement', batchSize: 10 },
    // Reads the payment (consistent); the answer's transaction puts the payment (while still PENDING)
    // and its event, and for a rejection updates the payer's balance and puts the movement. A payment
    // to one of our merchants left PENDING: the payee's credit received (its checks) and decided.
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    writesMoney: true,
    // On a connector stage it signs the transfer order it POSTs to the sponsor bank's connector.
    secrets: ['network'],
    // Opens a payee's approval secrets to ask it about a payment from another of our merchants, and
    // queues that credit's decision job first, as every inbound payment's.
    sealing: ['open'],
    queues: ['creditDecisions'],
    timeoutSeconds: 30,
    // An inbound payment's approval callback (APPROVAL_TIMEOUT_MS, 3 s) and its transaction.
    recordSeconds: 10,
  },
  {
    name: 'decideCredit',
    handler: 'decide-credit',
    // The decision jobs of inbound payments their request left PROCESSING, on a queue of their own: a
    // connector slow to take the settlement queue's transfer orders does not delay a merchant's credit.
    source: { queue: 'creditDecisions', batchSize: 10 },
    // Reads the payment (consistent), its client's approval settings and a QR code's; the decision's
    // transaction puts the payment and its events, credits the payee's balance (UpdateItem) and puts
    // its movement, a QR code's paid state checked or updated. No network, no connector secret.
    tableActions: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    writesMoney: true,
    timeoutSeconds: 30,
    // One read and one transaction.
    recordSeconds: 10,
  },
  {
    name: 'redriveStreamFailures',
    handler: 'redrive-stream-failures',
    // Each message is one batch the dispatcher's event source gave up on: its shard and sequence numbers.
    source: { queue: 'streamFailures', batchSize: 1 },
    // Reads the batch's records back from the stream, then dispatches them as the dispatcher does
    // (shared/domain/dispatch.ts), marking each event dispatched.
    readsStream: true,
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
    queues: ['webhookDeliveries'],
    // A batch of the dispatcher's size, read back in a few GetRecords calls.
    timeoutSeconds: 90,
    recordSeconds: 80,
  },
  {
    name: 'runReport',
    handler: 'run-report',
    // One report a message: a report may take the whole invocation.
    source: { queue: 'reports', batchSize: 1 },
    // Reads the report (consistent) and takes it for the run (UpdateItem); reads its list's pages as
    // the list routes do (the account, Query, a page's payment details with BatchGetItem: lists never
    // write); the finish's transaction updates the report and puts its event (PutItem).
    tableActions: ['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'UpdateItem'],
    reportFiles: ['write'],
    // Lambda's longest: some 10,000 rows a second are read and written (docs/reconciliation.md).
    timeoutSeconds: 900,
    recordSeconds: 890,
  },
  {
    name: 'reconcileSettlement',
    handler: 'reconcile-settlement',
    // One day's settlement file a message: its run may take the whole invocation.
    source: { queue: 'reconciliations', batchSize: 1 },
    // Reads the day's file record (consistent) and takes it for the run (UpdateItem); reads the
    // transfers and accounts its lines name (BatchGetItem), the day's settled transfers and its
    // clients' results (Query); each client's breaks are put with their counters, its result with its
    // event (transactions of Puts, Updates and a ConditionCheck of the file's version), the old file's
    // breaks found (Query on gsi3) and deleted with their counters; the file then COMPLETED (UpdateItem).
    tableActions: ['GetItem', 'Query', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
    settlementFiles: ['read'],
    // Lambda's longest: a file of the largest size a PUT takes is matched in well under a minute.
    timeoutSeconds: 900,
    recordSeconds: 890,
  },
  {
    name: 'sweepStrandedWork',
    handler: 'sweep-stranded-work',
    source: { schedule: 'rate(1 minute)' },
    // Queries the index of due work (where runs share its shards, the turn counter's UpdateItem first:
    // shared/data/due-work.ts) and takes each item (UpdateItem, ALL_NEW); queues a payment's job,
    // a delivery's attempt, a report's run or a day's reconciliation, and dispatches an event as the dispatcher does (the webhook set's
    // GetItem and a Query on gsi1, each webhook's GetItem, all consistent but the Query; the delivery's
    // transaction, UpdateItem marking it dispatched).
    tableActions: ['GetItem', 'Query', 'PutItem', 'UpdateItem'],
    writesMoney: true,
    queues: ['settlement', 'webhookDeliveries', 'reports', 'reconciliations'],
    // Reads pages of every shard while it has time (shared/domain/sweep.ts), ten restarts at a time.
    timeoutSeconds: 60,
    // One group of restarts, an event's dispatch the longest (as the dispatcher's record): a run starts
    // none with less left, so it stops before its timeout; what it has not reached is still due, and
    // the next run takes it.
    recordSeconds: 10,
  },
];

/** A queue's visibility timeout, in seconds: VISIBILITY_TIMEOUT_FACTOR times its consumer's timeout. */
export const visibilityTimeoutSeconds = (queue: QueueName): number =>
  VISIBILITY_TIMEOUT_FACTOR * consumerOf(queue).timeoutSeconds;

/** The worker a queue feeds: every queue has exactly one. */
export function consumerOf(queue: QueueName): QueueWorker {
  const consumers = workers.filter(
    (worker): worker is QueueWorker => 'queue' in worker.source && worker.source.queue === queue,
  );
  if (consumers.length !== 1)
    throw new Error(`The ${queue} queue has ${consumers.length} consumers in the worker table`);
  return consumers[0]!;
}

/** The worker whose handler is `functions/<handler>.ts`. */
export function workerOf(handler: string): WorkerDefinition {
  const worker = workers.find((w) => w.handler === handler);
  if (!worker) throw new Error(`No worker runs functions/${handler}.ts in the worker table`);
  return worker;
}

/** The workers a schedule runs. */
export const scheduledWorkers = (): readonly (WorkerDefinition & {
  readonly source: { readonly schedule: string };
})[] =>
  workers.filter(
    (worker): worker is WorkerDefinition & { source: { schedule: `rate(${string})` } } => 'schedule' in worker.source,
  );

/** The worker the table's stream of outbox events feeds: the dispatcher. */
export function streamConsumer(): StreamWorker {
  const consumer = workers.find(
    (worker): worker is StreamWorker => 'stream' in worker.source && worker.source.stream === 'events',
  );
  if (!consumer) throw new Error("No worker reads the table's stream in the worker table");
  return consumer;
}

/** The worker the table's stream of audit events feeds: the Object Lock copy's archiver. */
export function auditArchiver(): StreamWorker {
  const archiver = workers.find(
    (worker): worker is StreamWorker => 'stream' in worker.source && worker.source.stream === 'audit',
  );
  if (!archiver) throw new Error("No worker reads the table's stream of audit events in the worker table");
  return archiver;
}
