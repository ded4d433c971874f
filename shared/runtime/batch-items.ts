/**
 * A queue consumer's batch, one message after the other, as SQS's partial batch responses expect:
 * each message is parsed and handled inside its own try, so that a malformed or failing one is
 * reported alone and the others of its batch are done; and a batch takes no further message once
 * less than one message's worst time remains before the function's timeout, reporting the rest
 * unhandled, so that SQS hands them again instead of the whole batch after a timeout (which would
 * repeat the messages already handled: duplicate POSTs, message chains twice).
 */
import type { Context, SQSBatchResponse, SQSRecord } from 'aws-lambda';

/** An SQS message as a batch hands it: its message attributes carry the sender's trace context, if any. */
export type QueueRecord = Pick<SQSRecord, 'messageId' | 'body'> & Partial<Pick<SQSRecord, 'messageAttributes'>>;

export interface BatchOptions<Message> {
  /** The longest one message may take (the worker table's recordSeconds, in milliseconds). */
  readonly recordMs: number;
  /** The message a body carries; throws for a body that is not one (it fails alone). */
  readonly parse: (body: string) => Message;
  readonly handle: (message: Message, record: QueueRecord) => Promise<void>;
  /** Told of each message that failed, with its parsed message when the body was one. */
  readonly failed: (record: QueueRecord, error: unknown, message: Message | undefined) => void;
  /** Told once of the messages left unhandled for want of time. */
  readonly outOfTime: (left: readonly QueueRecord[]) => void;
}

/** Whether a record whose worst time is `recordMs` may still start before the function's timeout. */
export const timeForOneMore = (context: Pick<Context, 'getRemainingTimeInMillis'>, recordMs: number): boolean =>
  context.getRemainingTimeInMillis() > recordMs;

export async function eachMessage<Message>(
  records: readonly QueueRecord[],
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  options: BatchOptions<Message>,
): Promise<SQSBatchResponse> {
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  for (const [index, record] of records.entries()) {
    if (!timeForOneMore(context, options.recordMs)) {
      const left = records.slice(index);
      options.outOfTime(left);
      batchItemFailures.push(...left.map((r) => ({ itemIdentifier: r.messageId })));
      break;
    }
    let message: Message | undefined;
    try {
      message = options.parse(record.body);
      await options.handle(message, record);
    } catch (error) {
      options.failed(record, error, message);
      batchItemFailures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures };
}

/**
 * A batch whose messages are handled all at once, each inside its own try as eachMessage's: for a
 * consumer whose messages wait on others (the webhook sender's receivers), so that one slow message
 * does not hold back the rest of its batch. Every message starts now, so the batch needs one message's
 * worst time: with less left, none starts and all are reported unhandled.
 */
export async function allMessagesAtOnce<Message>(
  records: readonly QueueRecord[],
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  options: BatchOptions<Message>,
): Promise<SQSBatchResponse> {
  if (records.length > 0 && !timeForOneMore(context, options.recordMs)) {
    options.outOfTime(records);
    return { batchItemFailures: records.map((r) => ({ itemIdentifier: r.messageId })) };
  }
  const failed = await Promise.all(
    records.map(async (record) => {
      let message: Message | undefined;
      try {
        message = options.parse(record.body);
        await options.handle(message, record);
        return undefined;
      } catch (error) {
        options.failed(record, error, message);
        return { itemIdentifier: record.messageId };
      }
    }),
  );
  return { batchItemFailures: failed.filter((failure) => failure !== undefined) };
}

/**
 * The JSON object a body carries, with `field` a non-empty string: what every message of ours is
 * (`{"payment_id"}`, `{"delivery_id"}`). Anything else throws.
 */
export function jsonMessage<Field extends string>(body: string, field: Field): Record<Field, string> {
  const parsed: unknown = JSON.parse(body);
  const value = (parsed as Record<string, unknown> | null)?.[field];
  if (typeof parsed !== 'object' || parsed === null || typeof value !== 'string' || value === '') {
    throw new Error(`Not a message of this queue: no "${field}" string`);
  }
  return parsed as Record<Field, string>;
}
