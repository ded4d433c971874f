/**
 * The queues of the later work: settlement jobs, credit decisions, webhook deliveries and report runs (docs/architecture.md). On AWS
 * each is an SQS queue whose URL the stack sets in the function's environment; the local runtime
 * installs its own (infra/local/local-queue.ts) in its process instead. The messages are JSON either
 * way, and the consuming functions' handlers take SQS events.
 */
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { DeliveryQueue } from '../domain/deliveries';
import type { DecisionJobQueue } from '../domain/receive-payment';
import type { RefundQueue } from '../domain/refunds';
import type { ReportQueue } from '../domain/reports';
import type { ReconciliationQueue } from '../domain/settlement-files';
import type { SettlementQueue } from '../domain/settlement';
import { refuseWhileHeld } from './held-transaction';
import { passWriteGate } from './write-gate';
import { ENV, QUEUE_ENV, runtimeConfig, type QueueName } from '../runtime/config';
import { tracer } from '../observability/telemetry';

/**
 * Text attributes beside a message's body (SQS message attributes): the sender's trace context, which
 * the consumer continues (shared/observability/worker-handler.ts).
 */
export type MessageAttributes = Readonly<Record<string, string>>;

/**
 * Sends a JSON message that its consumer receives after `delayMs`, with `attributes`, in the message
 * group `group` (the client whose work it is). On a standard SQS queue a group makes it a fair queue:
 * SQS hands the messages of a group with a backlog behind those of the quiet groups, so one client's
 * flood does not hold back the others' work. It orders nothing (that is a FIFO queue's, which ours are not).
 */
export interface MessageQueue {
  send(message: object, delayMs: number, attributes?: MessageAttributes, group?: string): Promise<void>;
}

export { QUEUE_ENV, type QueueName };

/** SQS delays a message at most 15 minutes: a longer wait is met again by its consumer (see attemptDelivery). */
export const SQS_MAX_DELAY_SECONDS = 900;

let sqsClient: SQSClient | undefined;

/** One client per process, its calls traced as DynamoDB's are (shared/data/client.ts). */
function sqs(): SQSClient {
  if (sqsClient) return sqsClient;
  const endpoint = process.env[ENV.awsEndpoint];
  const client = new SQSClient({
    ...(endpoint ? { endpoint } : {}),
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: runtimeConfig().dynamodbRequestTimeoutMs },
  });
  sqsClient = tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
  return sqsClient;
}

/**
 * The DelaySeconds SQS takes for a wait of `delayMs`: whole seconds (rounded up, so that a message is
 * never early), at most 15 minutes (SQS refuses more). The local runtime's queue applies the same.
 */
export const sqsDelaySeconds = (delayMs: number): number =>
  Math.min(SQS_MAX_DELAY_SECONDS, Math.ceil(Math.max(0, delayMs) / 1000));

/** The SQS queue at `url`: delays round up to whole seconds, at most 15 minutes. */
export const sqsQueue = (url: string): MessageQueue => ({
  async send(message, delayMs, attributes = {}, group) {
    const names = Object.keys(attributes);
    await sqs().send(
      new SendMessageCommand({
        QueueUrl: url,
        MessageBody: JSON.stringify(message),
        DelaySeconds: sqsDelaySeconds(delayMs),
        ...(group === undefined ? {} : { MessageGroupId: group }),
        ...(names.length > 0
          ? {
              MessageAttributes: Object.fromEntries(
                names.map((name) => [name, { DataType: 'String', StringValue: attributes[name] }]),
              ),
            }
          : {}),
      }),
    );
  },
});

// Kept on globalThis: a handler loaded from its own bundle has its own copy of this module and must
// still find the runtime's queues.
const INSTALLED = Symbol.for('breb.localQueues');
type WithQueues = typeof globalThis & { [INSTALLED]?: Partial<Record<QueueName, MessageQueue>> };

/** Makes `queue` this process's `name` queue (the local runtime); undefined removes it when it stops. */
export function installQueue(name: QueueName, queue: MessageQueue | undefined): void {
  const queues = ((globalThis as WithQueues)[INSTALLED] ??= {});
  if (queue) queues[name] = queue;
  else delete queues[name];
}

/** The queue `name` of this process: the installed one, else SQS at the URL of its variable, else none. */
export function queueOf(name: QueueName): MessageQueue | undefined {
  const installed = (globalThis as WithQueues)[INSTALLED]?.[name];
  if (installed) return installed;
  const url = process.env[QUEUE_ENV[name]];
  return url ? sqsQueue(url) : undefined;
}

/**
 * Sends a message of the queue; one client's work in the client's message group (its tenant). Reports
 * and reconciliations go without one: a consumer takes one at a time and a client's are few.
 */
interface GroupedSender {
  send(message: object, delayMs: number, tenant?: string): Promise<void>;
}

/**
 * The queue `name`, whose messages wait for no held transaction (shared/data/held-transaction.ts),
 * carry the sender's trace context and go in their tenant's message group. (SQS takes 10 attributes a message: the propagators write at most
 * four, traceparent, tracestate, baggage and X-Amzn-Trace-Id, and our messages have no other.)
 */
const required = (name: QueueName): GroupedSender => {
  const queue = queueOf(name);
  if (!queue) throw new Error(`No ${name} queue: set ${QUEUE_ENV[name]} (the stack does) or run the local runtime`);
  return {
    send: async (message, delayMs, tenant) => {
      refuseWhileHeld(`A message to the ${name} queue`);
      await passWriteGate();
      return queue.send(message, delayMs, tracer.traceCarrier(), tenant);
    },
  };
};

/** Settlement jobs: `{"payment_id"}` (functions/settle-payment.ts), in the payment's tenant's group. */
export const settlementQueue = (): SettlementQueue => {
  const queue = required('settlement');
  return { schedule: (paymentId, delayMs, tenant) => queue.send({ payment_id: paymentId }, delayMs, tenant) };
};

/**
 * Inbound payments' decision jobs: `{"payment_id"}` (functions/decide-credit.ts), in the payee's
 * tenant's group; apart from the settlement queue's transfer orders, which wait on the connector.
 */
export const creditDecisionQueue = (): DecisionJobQueue => {
  const queue = required('creditDecisions');
  return { schedule: (paymentId, delayMs, tenant) => queue.send({ payment_id: paymentId }, delayMs, tenant) };
};

/** Refund settlement jobs, on the settlement queue: `{"refund_id"}` (functions/settle-payment.ts). */
export const refundQueue = (): RefundQueue => {
  const queue = required('settlement');
  return { schedule: (refundId, delayMs, tenant) => queue.send({ refund_id: refundId }, delayMs, tenant) };
};

/** Webhook deliveries: `{"delivery_id"}` (functions/send-webhook.ts), in the delivery's tenant's group. */
export const deliveryQueue = (): DeliveryQueue => {
  const queue = required('webhookDeliveries');
  return { send: (deliveryId, delayMs, tenant) => queue.send({ delivery_id: deliveryId }, delayMs, tenant) };
};

/** Report runs: `{"report_id"}` (functions/run-report.ts). */
export const reportQueue = (): ReportQueue => {
  const queue = required('reports');
  return { run: (reportId) => queue.send({ report_id: reportId }, 0) };
};

/** Reconciliations of a day's settlement file: `{"date"}` (functions/reconcile-settlement.ts). */
export const reconciliationQueue = (): ReconciliationQueue => {
  const queue = required('reconciliations');
  return { run: (date) => queue.send({ date }, 0) };
};
