/**
 * A queue consumer's batch as SQS's partial batch responses expect, through Powertools Batch
 * (processPartialResponse): each message is parsed and handled inside its own try, so that a
 * malformed or failing one is reported alone and the others of its batch are done. Ours on top: a
 * batch takes no further message once less than one message's worst time remains before the
 * function's timeout, reporting the rest unhandled, so that SQS hands them again instead of the whole
 * batch after a timeout (which would repeat the messages already handled: duplicate POSTs, message
 * chains twice); and a batch whose every message failed is answered as such, not thrown (Powertools'
 * default), so a consumer's errors stay the messages' own.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
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

/** Thrown for a message left for want of time: reported to SQS, told to outOfTime rather than failed. */
class LeftForLater extends Error {}

/**
 * The batch through Powertools' processor, one at a time or all at once. A processor keeps its batch's
 * state, so each batch has its own: the local runtime runs a consumer's batches side by side in one
 * process.
 */
async function processBatch<Message>(
  records: readonly QueueRecord[],
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  options: BatchOptions<Message>,
  processInParallel: boolean,
): Promise<SQSBatchResponse> {
  const left: QueueRecord[] = [];
  const recordHandler = async (record: QueueRecord): Promise<void> => {
    if (left.length > 0 || !timeForOneMore(context, options.recordMs)) {
      left.push(record);
      throw new LeftForLater();
    }
    let message: Message | undefined;
    try {
      message = options.parse(record.body);
      await options.handle(message, record);
    } catch (error) {
      options.failed(record, error, message);
      throw error;
    }
  };
  const { batchItemFailures } = await processPartialResponse(
    { Records: records as SQSRecord[] },
    recordHandler,
    new BatchProcessor(EventType.SQS),
    { processInParallel, throwOnFullBatchFailure: false },
  );
  if (left.length > 0) options.outOfTime(left);
  // In the batch's order, whichever finished first.
  const failed = new Set(batchItemFailures.map((failure) => failure.itemIdentifier));
  return {
    batchItemFailures: records.filter((r) => failed.has(r.messageId)).map((r) => ({ itemIdentifier: r.messageId })),
  };
}

/** A batch's messages one after the other, in the queue's order. */
export const eachMessage = <Message>(
  records: readonly QueueRecord[],
  context: Pick<Context, 'getRemainingTimeInMillis'>,
  options: BatchOptions<Message>,
): Promise<SQSBatchResponse> => processBatch(records, context, options, false);

/**
 * A batch whose messages are handled all at once: for a consumer whose messages wait on others (the
 * webhook sender's receivers), so that one slow message does not hold back the rest of its batch.
 * Every message starts now, so the batch needs one message's worst time: with less left, none starts
 * and all are reported unhandled.
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
  return processBatch(records, context, options, true);
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
