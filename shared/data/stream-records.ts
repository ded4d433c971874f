/**
 * The table's stream as the later work reads it: the outbox event a record inserted (the dispatcher's
 * and the re-drive's input), and the records of one batch read back by shard and sequence numbers,
 * as the dispatcher's event source reports a batch it gave up on (its on-failure destination's
 * `DDBStreamBatchInfo`). The stream keeps records 24 hours: what is older cannot be read back, and is
 * the sweeper's to find in the table.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { DomainEvent } from '../domain/events';
import { ENV } from '../runtime/config';
import type { TraceCarrier } from '../observability/tracer';
import { EVENT_ENTITY, TRACE_CONTEXT_ATTRIBUTE, withoutStorageAttributes } from './item-keys';

/** A stream record, as Lambda hands it or as GetRecords answers it. */
export type AnyStreamRecord = Pick<DynamoDBRecord, 'eventName'> & {
  readonly dynamodb?: { readonly NewImage?: unknown; readonly SequenceNumber?: string };
};

/** An outbox event as a stream record hands it, with the trace context of the request that wrote it. */
export interface InsertedEvent {
  readonly event: DomainEvent;
  readonly traceContext?: TraceCarrier;
}

/**
 * The event a stream record inserted, with the trace context of the request that wrote it, or
 * undefined for any other change of the table.
 */
export function insertedEvent(record: AnyStreamRecord): InsertedEvent | undefined {
  const image = record.dynamodb?.NewImage as Record<string, AttributeValue> | undefined;
  if (record.eventName !== 'INSERT' || image?.['entity']?.S !== EVENT_ENTITY) return undefined;
  const item = unmarshall(image);
  const traceContext = item[TRACE_CONTEXT_ATTRIBUTE] as TraceCarrier | undefined;
  return { event: withoutStorageAttributes<DomainEvent>(item), ...(traceContext ? { traceContext } : {}) };
}

/** What Lambda writes to a stream event source's on-failure destination about the batch it gave up. */
export interface StreamBatchInfo {
  readonly shardId: string;
  readonly startSequenceNumber: string;
  readonly endSequenceNumber: string;
  readonly streamArn: string;
  readonly batchSize?: number;
  readonly approximateArrivalOfFirstRecord?: string;
  readonly approximateArrivalOfLastRecord?: string;
}

/** The batch info of an on-failure message's body (`{"DDBStreamBatchInfo": {...}}`); throws for any other body. */
export function streamBatchInfo(body: string): StreamBatchInfo {
  const info = (JSON.parse(body) as { DDBStreamBatchInfo?: Partial<StreamBatchInfo> } | null)?.DDBStreamBatchInfo;
  const fields = ['shardId', 'startSequenceNumber', 'endSequenceNumber', 'streamArn'] as const;
  if (!info || fields.some((field) => typeof info[field] !== 'string' || info[field] === '')) {
    throw new Error('Not a stream batch given up: no DDBStreamBatchInfo with shardId, sequence numbers, streamArn');
  }
  return info as StreamBatchInfo;
}

/** Why a batch cannot be read back: the stream no longer has it. */
export class StreamBatchGone extends Error {}

/** Errors of DynamoDB Streams that mean the records are gone for good (trimmed, or the shard or stream deleted). */
const GONE = new Set(['TrimmedDataAccessException', 'ResourceNotFoundException']);

let streams: DynamoDBStreamsClient | undefined;
const streamsClient = (): DynamoDBStreamsClient => {
  const endpoint = process.env[ENV.dynamodbEndpoint];
  return (streams ??= new DynamoDBStreamsClient({ ...(endpoint ? { endpoint } : {}), maxAttempts: 3 }));
};

const sequence = (record: StreamRecord): bigint => BigInt(record.dynamodb!.SequenceNumber!);

/**
 * The records of `batch`, from its first sequence number to its last, read back from the stream.
 * Throws StreamBatchGone when the stream no longer keeps them (older than 24 hours); any other error
 * as it came (the caller fails and is retried).
 */
export async function readStreamBatch(
  batch: StreamBatchInfo,
  client: DynamoDBStreamsClient = streamsClient(),
): Promise<StreamRecord[]> {
  const end = BigInt(batch.endSequenceNumber);
  const records: StreamRecord[] = [];
  try {
    let { ShardIterator: iterator } = await client.send(
      new GetShardIteratorCommand({
        StreamArn: batch.streamArn,
        ShardId: batch.shardId,
        ShardIteratorType: 'AT_SEQUENCE_NUMBER',
        SequenceNumber: batch.startSequenceNumber,
      }),
    );
    // A page may be empty while the shard goes on: read until past the end, or the shard's end.
    let emptyPages = 0;
    while (iterator && emptyPages < 10) {
      const page = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      const wanted = (page.Records ?? []).filter((record) => sequence(record) <= end);
      records.push(...wanted);
      if ((page.Records ?? []).some((record) => sequence(record) >= end)) return records;
      emptyPages = page.Records?.length ? 0 : emptyPages + 1;
      iterator = page.NextShardIterator;
    }
    // The shard closed before the end (nothing past it exists), or it still has pages to read: then
    // the batch is not read whole yet, and the caller fails so that the message is tried again.
    if (iterator) throw new Error(`The stream's shard ${batch.shardId} did not reach ${batch.endSequenceNumber} yet`);
    return records;
  } catch (error) {
    if (GONE.has((error as Error).name)) throw new StreamBatchGone((error as Error).message);
    throw error;
  }
}
