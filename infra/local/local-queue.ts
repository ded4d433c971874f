/**
 * An SQS queue played by the process's timers, for the local runtime, under SQS's and Lambda's rules
 * as deployed: a delay in whole seconds, at most 15 minutes (shared/data/queues.ts); the messages due
 * together handed to the consumer's own handler in batches of up to its batch size, as the event
 * Lambda hands (`Records: [{ messageId, body, messageAttributes }]`, the attributes in Lambda's shape:
 * the trace context the consumer continues), within its timeout; a message the batch failed (the
 * handler threw or timed out: every message of it; or it named the message in `batchItemFailures`)
 * handed again after the visibility timeout, until its receives reach maxReceives, then moved to the
 * queue's dead-letter list with a log line, as SQS moves it to its dead-letter queue; at most the
 * consumer's maximum concurrency of batches at once, the others waiting in the queue; and, as an SQS
 * fair queue, the waiting messages taken in turns across their message groups (one of each group
 * before a second of any), so that one client's backlog does not hold back another's messages.
 * startLocalQueue
 * takes every number from the worker table (functions/workers.ts) and the stage's concurrency, as the
 * stack does.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { consumerOf, MAX_RECEIVES, visibilityTimeoutSeconds } from '../../functions/workers';
import { sqsDelaySeconds, type MessageAttributes, type MessageQueue, type QueueName } from '../../shared/data/queues';
import { invokeWithin } from './lambda-context';
import { loggable } from '../../shared/observability/loggable-error';

/** A string message attribute as Lambda hands it in an SQS event. */
export interface QueueMessageAttribute {
  readonly dataType: 'String';
  readonly stringValue: string;
  readonly stringListValues: never[];
  readonly binaryListValues: never[];
}

/** One message of a batch, as Lambda hands it. */
export interface QueueRecord {
  readonly messageId: string;
  readonly body: string;
  readonly messageAttributes: Readonly<Record<string, QueueMessageAttribute>>;
  /** The system attributes Lambda hands: the message group it was sent in, if any. */
  readonly attributes: { readonly MessageGroupId?: string };
}

export interface QueueEvent {
  readonly Records: QueueRecord[];
}

/** A queue consumer's handler, as Lambda calls it: a partial batch failure names the failed messages. */
export type QueueHandler = (
  event: QueueEvent,
  context: Context,
) => Promise<void | { batchItemFailures?: readonly { itemIdentifier: string }[] }>;

export interface LocalQueueOptions {
  /** Receives of one message before it is given up, as an SQS queue's maxReceiveCount. */
  readonly maxReceives?: number;
  /** How long a failed message waits before it is handed again (the visibility timeout). */
  readonly visibilityTimeoutMs?: number;
  /** The most messages in one event (the event source's batch size). */
  readonly batchSize?: number;
  /** The consumer's timeout: a batch not answered by then failed whole. */
  readonly timeoutMs?: number;
  /**
   * The most batches its consumer runs at once (the event source's maximum concurrency, the stage's
   * `queueConsumerConcurrency`): the others wait in the queue, as on SQS. Unbounded when absent.
   */
  readonly maxConcurrency?: number;
  readonly log?: (message: string, error: unknown) => void;
}

/** A message and how many times it was received. */
interface Pending {
  readonly record: QueueRecord;
  readonly receive: number;
}

export class LocalQueue implements MessageQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  /** While paused, messages that fall due wait here and are handed over on resume. */
  private held: Pending[] | undefined;
  /**
   * Messages visible and waiting for their consumer, by message group (a message sent without one
   * waits in the group ''), the group to take from next first: a group taken from moves to the end.
   */
  private readonly waiting = new Map<string, Pending[]>();
  /** Whether a hand-out is already set for the next turn of the event loop. */
  private handOutSet = false;
  /** Messages given up after their receives, as an SQS dead-letter queue holds them. */
  readonly deadLetters: QueueRecord[] = [];
  private readonly maxConcurrency: number;
  private readonly maxReceives: number;
  private readonly visibilityTimeoutMs: number;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly log: (message: string, error: unknown) => void;

  constructor(
    readonly name: string,
    private readonly handler: QueueHandler,
    options: LocalQueueOptions = {},
  ) {
    // SQS's and Lambda's defaults where no worker says otherwise.
    this.maxReceives = options.maxReceives ?? MAX_RECEIVES;
    this.visibilityTimeoutMs = options.visibilityTimeoutMs ?? 30_000;
    this.batchSize = options.batchSize ?? 10;
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.maxConcurrency = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
    this.log = options.log ?? ((message, error) => console.error(message, loggable(error)));
  }

  async send(message: object, delayMs: number, attributes: MessageAttributes = {}, group?: string): Promise<void> {
    const body = JSON.stringify(message);
    if (this.stopped) throw new Error(`The ${this.name} queue is stopped: ${body} not sent`);
    const messageAttributes = Object.fromEntries(
      Object.entries(attributes).map(([name, stringValue]): [string, QueueMessageAttribute] => [
        name,
        { dataType: 'String', stringValue, stringListValues: [], binaryListValues: [] },
      ]),
    );
    this.later(
      {
        record: {
          messageId: randomUUID(),
          body,
          messageAttributes,
          attributes: group === undefined ? {} : { MessageGroupId: group },
        },
        receive: 1,
      },
      sqsDelaySeconds(delayMs) * 1000,
    );
  }

  private later(pending: Pending, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.held) this.held.push(pending);
      else this.arrive([pending]);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Messages become visible: those of the same moment go out together, in batches. */
  private arrive(pending: readonly Pending[]): void {
    for (const message of pending) {
      const group = message.record.attributes.MessageGroupId ?? '';
      const lane = this.waiting.get(group);
      if (lane) lane.push(message);
      else this.waiting.set(group, [message]);
    }
    if (this.handOutSet) return;
    this.handOutSet = true;
    setImmediate(() => {
      this.handOutSet = false;
      this.handWaiting();
    });
  }

  /** Hands batches of the waiting messages over while the consumer is under its concurrency cap. */
  private handWaiting(): void {
    while (!this.stopped && this.running.size < this.maxConcurrency && this.waiting.size > 0) {
      this.hand(this.nextBatch());
    }
  }

  /**
   * Up to a batch of the waiting messages, in turns across their groups: the oldest of each group, in
   * the groups' order, then the next of each. A group left with messages goes to the end of the order,
   * so the next batch starts with the groups this one did not reach.
   */
  private nextBatch(): Pending[] {
    const batch: Pending[] = [];
    while (batch.length < this.batchSize && this.waiting.size > 0) {
      for (const [group, lane] of [...this.waiting]) {
        if (batch.length === this.batchSize) break;
        batch.push(lane.shift()!);
        this.waiting.delete(group);
        if (lane.length > 0) this.waiting.set(group, lane);
      }
    }
    return batch;
  }

  /** The messages waiting for their consumer, oldest first within each group. */
  private waitingMessages(): Pending[] {
    const all = [...this.waiting.values()].flat();
    this.waiting.clear();
    return all;
  }

  private hand(batch: readonly Pending[]): void {
    const answer = invokeWithin(this.handler, { Records: batch.map((p) => p.record) }, this.name, this.timeoutMs);
    const run: Promise<void> = answer
      .then((result) => {
        const named = new Set((result?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
        // As SQS: a failure naming no message of the batch fails the batch whole.
        const unknown = [...named].some((id) => !batch.some((p) => p.record.messageId === id));
        const failed = unknown ? batch : batch.filter((p) => named.has(p.record.messageId));
        this.failed(failed, new Error(`The handler reported ${failed.length} of ${batch.length} messages failed`));
      })
      .catch((error: unknown) => this.failed(batch, error))
      .finally(() => {
        this.running.delete(run);
        this.handWaiting();
      });
    this.running.add(run);
  }

  private failed(messages: readonly Pending[], error: unknown): void {
    // Stopping drops them silently, as it drops the messages not yet due.
    if (this.stopped) return;
    for (const { record, receive } of messages) {
      if (receive < this.maxReceives) this.later({ record, receive: receive + 1 }, this.visibilityTimeoutMs);
      else {
        this.deadLetters.push(record);
        this.log(
          `The ${this.name} queue's message ${record.body} failed ${receive} times: moved to its dead-letter ` +
            `queue (${this.deadLetters.length} there)`,
          error,
        );
      }
    }
  }

  /**
   * Holds every message that falls due from now on and waits for the running ones: nothing of this
   * queue touches the table until resume(). (Tests that compare the table around one request.)
   */
  async pause(): Promise<void> {
    this.held ??= [];
    // Those waiting for the consumer wait too.
    this.held.push(...this.waitingMessages());
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Hands over the messages held while paused, and the later ones as they fall due. */
  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    if (held.length > 0) this.arrive(held);
  }

  /** Drops the messages not yet due (as a crash would) and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.held = undefined;
    this.waiting.clear();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/** The numbers SQS and Lambda apply to the queue `name` and its consumer as deployed (functions/workers.ts). */
export function deployedQueueOptions(name: QueueName): Required<Omit<LocalQueueOptions, 'log' | 'maxConcurrency'>> {
  const consumer = consumerOf(name);
  return {
    maxReceives: MAX_RECEIVES,
    visibilityTimeoutMs: visibilityTimeoutSeconds(name) * 1000,
    batchSize: consumer.source.batchSize,
    timeoutMs: consumer.timeoutSeconds * 1000,
  };
}

/**
 * The queue `name`, running its consumer's handler (`functions/<file>.ts`, loaded as the local server
 * loads the routes') under the deployed numbers; `options` overrides them (a test that cannot wait
 * minutes for a retry).
 */
export async function startLocalQueue(name: QueueName, options: LocalQueueOptions = {}): Promise<LocalQueue> {
  const module = (await import(`../../functions/${consumerOf(name).handler}.ts`)) as { handler: QueueHandler };
  return new LocalQueue(name, module.handler, { ...deployedQueueOptions(name), ...options });
}
