/**
 * An SQS queue played by the process's timers, for the local runtime: a message sent with a delay
 * becomes, after it, the event SQS would hand its function (`Records: [{ messageId, body,
 * messageAttributes }]`, its attributes in Lambda's shape: the trace context the consumer continues),
 * handed to that function's own handler. As SQS does, a message whose handler failed (threw, or
 * reported it in `batchItemFailures`) is delivered again after the visibility timeout, a few times,
 * then given up with a log line (SQS would move it to its dead-letter queue).
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { MessageAttributes, MessageQueue } from '../../shared/data/queues';
import { lambdaContext } from './lambda-context';

/** A string message attribute as Lambda hands it in an SQS event. */
export interface QueueMessageAttribute {
  readonly dataType: 'String';
  readonly stringValue: string;
  readonly stringListValues: never[];
  readonly binaryListValues: never[];
}

export interface QueueEvent {
  readonly Records: {
    readonly messageId: string;
    readonly body: string;
    readonly messageAttributes: Readonly<Record<string, QueueMessageAttribute>>;
  }[];
}

/** A queue consumer's handler, as Lambda calls it: a partial batch failure names the failed messages. */
export type QueueHandler = (
  event: QueueEvent,
  context: Context,
) => Promise<void | { batchItemFailures?: readonly unknown[] }>;

export interface LocalQueueOptions {
  /** Deliveries of one message before it is given up, as an SQS queue's maxReceiveCount. */
  readonly maxReceives?: number;
  /** How long a failed message waits before it is delivered again (the visibility timeout). */
  readonly visibilityTimeoutMs?: number;
  readonly log?: (message: string, error: unknown) => void;
}

export const DEFAULT_MAX_RECEIVES = 3;
const DEFAULT_VISIBILITY_TIMEOUT_MS = 1_000;

export class LocalQueue implements MessageQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;
  /** While paused, messages that fall due wait here and are handed over on resume. */
  private held: (() => void)[] | undefined;
  private readonly maxReceives: number;
  private readonly visibilityTimeoutMs: number;
  private readonly log: (message: string, error: unknown) => void;

  constructor(
    readonly name: string,
    private readonly handler: QueueHandler,
    options: LocalQueueOptions = {},
  ) {
    this.maxReceives = options.maxReceives ?? DEFAULT_MAX_RECEIVES;
    this.visibilityTimeoutMs = options.visibilityTimeoutMs ?? DEFAULT_VISIBILITY_TIMEOUT_MS;
    this.log = options.log ?? ((message, error) => console.error(message, error));
  }

  async send(message: object, delayMs: number, attributes: MessageAttributes = {}): Promise<void> {
    const body = JSON.stringify(message);
    if (this.stopped) throw new Error(`The ${this.name} queue is stopped: ${body} not sent`);
    const messageAttributes = Object.fromEntries(
      Object.entries(attributes).map(([name, stringValue]): [string, QueueMessageAttribute] => [
        name,
        { dataType: 'String', stringValue, stringListValues: [], binaryListValues: [] },
      ]),
    );
    this.later({ messageId: randomUUID(), body, messageAttributes }, delayMs, 1);
  }

  private later(record: QueueEvent['Records'][number], delayMs: number, receive: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.held) this.held.push(() => this.hand(record, receive));
      else this.hand(record, receive);
    }, delayMs);
    this.timers.add(timer);
  }

  private hand(record: QueueEvent['Records'][number], receive: number): void {
    const run = this.handler({ Records: [record] }, lambdaContext(this.name))
      .then((answer) => {
        if (answer?.batchItemFailures?.length) throw new Error(`The handler reported ${record.messageId} failed`);
      })
      .catch((error: unknown) => {
        // Stopping drops it silently, as it drops the messages not yet due.
        if (this.stopped) return;
        if (receive < this.maxReceives) this.later(record, this.visibilityTimeoutMs, receive + 1);
        else this.log(`The ${this.name} queue's message ${record.body} failed ${receive} times: given up`, error);
      })
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /**
   * Holds every message that falls due from now on and waits for the running ones: nothing of this
   * queue touches the table until resume(). (Tests that compare the table around one request.)
   */
  async pause(): Promise<void> {
    this.held ??= [];
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Hands over the messages held while paused, and the later ones as they fall due. */
  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const hand of held) hand();
  }

  /** Drops the messages not yet due (as a crash would) and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.held = undefined;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}

/** A queue running the handler of `functions/<file>.ts`, loaded as the local server loads the routes'. */
export async function startLocalQueue(name: string, file: string, options?: LocalQueueOptions): Promise<LocalQueue> {
  const module = (await import(`../../functions/${file}.ts`)) as { handler: QueueHandler };
  return new LocalQueue(name, module.handler, options);
}
