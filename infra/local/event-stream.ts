/**
 * The table's stream as Lambda's event source mapping reads it, for the local runtime: DynamoDB Local
 * keeps a stream of the table (the same NEW_IMAGE view the stack enables), and this reader hands its
 * records, a batch at a time and in order, to the dispatcher's own handler (functions/
 * dispatch-events.ts). As the mapping does, it moves its position past a batch only once the handler
 * answered it, and from a reported failure it hands the batch again from the failed record: a reader
 * stopped (or killed) mid-batch starts again where the last finished batch ended, and loses nothing.
 * As the deployed mapping (functions/workers.ts), a batch that keeps failing is retried from its
 * failed record up to STREAM_RETRY_ATTEMPTS times or until that record is STREAM_MAX_RECORD_AGE_SECONDS
 * old, then given up: what Lambda would write to the on-failure destination (`DDBStreamBatchInfo`)
 * goes to `onFailure` (the runtime's streamFailures queue, whose re-drive worker reads the records
 * back), and the reader moves past the batch. A handler that throws or outlives the dispatcher's
 * timeout fails its batch from the first record. (Lambda would also halve such a batch; here the
 * whole rest is given up together, and re-driven together.) The position is kept in a file of the
 * data folder (`npm start -- --data .data`) or in memory.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import {
  STREAM_MAX_RECORD_AGE_SECONDS,
  STREAM_RETRY_ATTEMPTS,
  streamConsumer,
  type StreamWorker,
} from '../../functions/workers';
import type { StreamBatchInfo } from '../../shared/data/stream-records';
import { invokeWithin } from './lambda-context';
import { loggable } from '../../shared/observability/loggable-error';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | void>;

/** Where the reader is in each shard: the sequence number of the last record handled. */
export interface StreamPositions {
  readonly streamArn: string | undefined;
  readonly shards: Record<string, string>;
}

export interface PositionStore {
  load(): StreamPositions;
  save(positions: StreamPositions): void;
}

export const memoryPositions = (): PositionStore => {
  let saved: StreamPositions = { streamArn: undefined, shards: {} };
  return { load: () => saved, save: (positions) => (saved = positions) };
};

export const filePositions = (file: string): PositionStore => ({
  load: () => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as StreamPositions;
    } catch {
      return { streamArn: undefined, shards: {} };
    }
  },
  save: (positions) => writeFileSync(file, JSON.stringify(positions)),
});

export interface EventStreamOptions {
  /**
   * The longest wait between reads of an idle stream: after a read that found nothing the reader
   * waits 25 ms, doubling up to this (Lambda polls a shard about four times a second). A read that
   * found records is followed at once by the next.
   */
  readonly pollMs?: number;
  /**
   * The worker table's entry of the function the stream feeds: its name (whose grants its calls are
   * checked against), batch size and timeout, as deployed (default: the events' dispatcher).
   */
  readonly consumer?: StreamWorker;
  /** Records per batch (default: the consumer's batch size). */
  readonly batchSize?: number;
  /** Retries of a failing batch before it is given up (default: the deployed STREAM_RETRY_ATTEMPTS). */
  readonly retryAttempts?: number;
  /** Age of a failing record past which its batch is given up (default: STREAM_MAX_RECORD_AGE_SECONDS). */
  readonly maxRecordAgeMs?: number;
  /** The handler's timeout (default: the consumer's). */
  readonly timeoutMs?: number;
  /** Where a batch given up goes, as Lambda writes it to the on-failure destination; none: only logged. */
  readonly onFailure?: (failure: StreamFailure) => Promise<void>;
  readonly log?: (message: string, error: unknown) => void;
}

/** The message Lambda writes to a stream event source's on-failure destination (its fields we use). */
export interface StreamFailure {
  readonly requestContext: { readonly condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded' };
  readonly DDBStreamBatchInfo: StreamBatchInfo;
}

/** How a batch ended: handled whole, to be retried from a record, or given up. */
type BatchOutcome = 'done' | 'retry' | 'given-up';

const DEFAULT_POLL_MS = 200;
const FIRST_IDLE_WAIT_MS = 25;
/** How often the list of shards is read again (DynamoDB rolls a stream's shards over every few hours). */
const SHARD_LIST_TTL_MS = 5_000;
const RETRY_AFTER_FAILURE_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The shards in the order they must be read: a shard's parent before it. */
function parentsFirst(shards: readonly Shard[]): Shard[] {
  const ids = new Set(shards.map((s) => s.ShardId));
  const done = new Set<string>();
  const ordered: Shard[] = [];
  let rest = [...shards];
  while (rest.length > 0) {
    const ready = rest.filter((s) => !s.ParentShardId || !ids.has(s.ParentShardId) || done.has(s.ParentShardId));
    for (const shard of ready.length ? ready : rest) {
      ordered.push(shard);
      done.add(shard.ShardId!);
    }
    rest = rest.filter((s) => !done.has(s.ShardId!));
  }
  return ordered;
}

export class LocalEventStream {
  private running = true;
  private paused: { resume: Promise<void>; release: () => void } | undefined;
  private pass: Promise<unknown> = Promise.resolve();
  private halt!: () => void;
  /** Settles when stop() is called: a handler still running is then left behind, as by a killed process. */
  private readonly halted = new Promise<'halted'>((resolve) => (this.halt = () => resolve('halted')));
  private readonly finishedShards = new Set<string>();
  private readonly iterators = new Map<string, string>();
  /** Per shard: the record a batch last failed at, and how many times in a row. */
  private readonly failures = new Map<string, { readonly sequence: string; readonly count: number }>();
  private readonly loop: Promise<void>;
  private positions: StreamPositions;
  private readonly consumer: StreamWorker;

  private constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly handler: StreamHandler,
    private readonly store: PositionStore,
    private readonly options: EventStreamOptions,
  ) {
    const saved = store.load();
    // Another stream (the table was made again): its positions mean nothing here.
    this.positions = saved.streamArn === streamArn ? saved : { streamArn, shards: {} };
    this.consumer = options.consumer ?? streamConsumer();
    this.loop = this.run();
  }

  /** Starts reading the stream of `tableName` from where `store` says the last reader stopped. */
  static async start(
    dynamodb: DynamoDBClient,
    endpoint: string,
    tableName: string,
    handler: StreamHandler,
    store: PositionStore = memoryPositions(),
    options: EventStreamOptions = {},
  ): Promise<LocalEventStream> {
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
    const streamArn = Table?.LatestStreamArn;
    if (!streamArn) throw new Error(`Table ${tableName} has no stream`);
    const streams = new DynamoDBStreamsClient({ endpoint, region: await dynamodb.config.region() });
    return new LocalEventStream(streams, streamArn, handler, store, options);
  }

  private async run(): Promise<void> {
    let idleWait = FIRST_IDLE_WAIT_MS;
    while (this.running) {
      if (this.paused) await Promise.race([this.paused.resume, this.halted]);
      if (!this.running) break;
      let handled = 0;
      try {
        const pass = this.readOnce();
        this.pass = pass.catch(() => undefined);
        handled = await pass;
      } catch (error) {
        if (!this.running) break;
        this.logger()('The event stream reader failed: retrying', error);
        this.iterators.clear();
        this.shards = undefined;
        await sleep(RETRY_AFTER_FAILURE_MS);
      }
      if (handled > 0) idleWait = FIRST_IDLE_WAIT_MS;
      else if (this.running) {
        await Promise.race([sleep(idleWait), this.halted]);
        idleWait = Math.min(idleWait * 2, this.options.pollMs ?? DEFAULT_POLL_MS);
      }
    }
  }

  private shards: { readonly list: Shard[]; readonly readAt: number } | undefined;

  /** The stream's shards, parents first, read again every few seconds or once one has closed. */
  private async shardList(): Promise<Shard[]> {
    if (!this.shards || Date.now() - this.shards.readAt > SHARD_LIST_TTL_MS) {
      const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn }));
      this.shards = { list: parentsFirst(StreamDescription?.Shards ?? []), readAt: Date.now() };
    }
    return this.shards.list;
  }

  /** One pass over the open shards; answers how many records were handed to the handler. */
  private async readOnce(): Promise<number> {
    let handled = 0;
    for (const shard of await this.shardList()) {
      const shardId = shard.ShardId!;
      if (this.finishedShards.has(shardId) || !this.running) continue;
      const iterator = this.iterators.get(shardId) ?? (await this.iteratorOf(shardId));
      const { Records = [], NextShardIterator } = await this.streams.send(
        new GetRecordsCommand({
          ShardIterator: iterator,
          Limit: this.options.batchSize ?? this.consumer.source.batchSize,
        }),
      );
      if (!this.running) return handled;
      if (Records.length > 0) {
        const outcome = await this.hand(shardId, Records);
        handled += Records.length;
        // A reported failure: read again from the failed record, after a pause; a batch given up:
        // read on from after it.
        if (outcome !== 'done') {
          this.iterators.delete(shardId);
          if (outcome === 'retry') await sleep(RETRY_AFTER_FAILURE_MS);
          continue;
        }
      }
      if (NextShardIterator) this.iterators.set(shardId, NextShardIterator);
      else {
        this.iterators.delete(shardId);
        this.finishedShards.add(shardId);
        // A closed shard has children to read: list the shards again.
        this.shards = undefined;
      }
    }
    return handled;
  }

  private async iteratorOf(shardId: string): Promise<string> {
    const after = this.positions.shards[shardId];
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(after
          ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }
          : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return ShardIterator!;
  }

  /** Hands a batch, and moves the position past what was handled (or given up). */
  private async hand(shardId: string, records: readonly StreamRecord[]): Promise<BatchOutcome> {
    const event = {
      Records: records.map((record) => ({ ...record, eventSourceARN: this.streamArn })),
    } as DynamoDBStreamEvent;
    const timeoutMs = this.options.timeoutMs ?? this.consumer.timeoutSeconds * 1000;
    const answer = invokeWithin(this.handler, event, this.consumer.name, timeoutMs);
    const outcome = await Promise.race([
      answer.then(
        (result) => ({ failed: result?.batchItemFailures?.[0]?.itemIdentifier, error: undefined as unknown }),
        // Thrown or timed out: the batch failed from its first record.
        (error: unknown) => ({ failed: records[0]!.dynamodb!.SequenceNumber!, error }),
      ),
      this.halted,
    ]);
    // Stopped while the handler ran: as a killed reader, it saves nothing of this batch.
    if (outcome === 'halted' || !this.running) return 'retry';
    const { failed, error } = outcome;
    const failedAt =
      failed === undefined ? records.length : records.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
    const last = records[(failedAt < 0 ? 0 : failedAt) - 1];
    if (last) this.save(shardId, last.dynamodb!.SequenceNumber!);
    if (failed === undefined) {
      this.failures.delete(shardId);
      return 'done';
    }
    if (error !== undefined) this.logger()('The dispatcher failed its batch: retrying from its first record', error);
    const rest = records.slice(failedAt < 0 ? 0 : failedAt);
    const condition = this.exhausted(shardId, rest[0]!);
    if (!condition) return 'retry';
    await this.giveUp(shardId, rest, condition);
    return 'given-up';
  }

  /** Counts a failure at `record`: why its batch is given up now, or undefined to retry it. */
  private exhausted(shardId: string, record: StreamRecord): StreamFailure['requestContext']['condition'] | undefined {
    const sequence = record.dynamodb!.SequenceNumber!;
    const previous = this.failures.get(shardId);
    const count = previous?.sequence === sequence ? previous.count + 1 : 1;
    this.failures.set(shardId, { sequence, count });
    const created = record.dynamodb?.ApproximateCreationDateTime;
    const maxAgeMs = this.options.maxRecordAgeMs ?? STREAM_MAX_RECORD_AGE_SECONDS * 1000;
    if (created && Date.now() - new Date(created).getTime() > maxAgeMs) return 'RecordAgeExceeded';
    // The first try and its retries.
    if (count > (this.options.retryAttempts ?? STREAM_RETRY_ATTEMPTS)) return 'RetryAttemptsExhausted';
    return undefined;
  }

  /** Reports the batch to the on-failure destination, then moves the position past it. */
  private async giveUp(
    shardId: string,
    rest: readonly StreamRecord[],
    condition: StreamFailure['requestContext']['condition'],
  ): Promise<void> {
    const failure: StreamFailure = {
      requestContext: { condition },
      DDBStreamBatchInfo: {
        shardId,
        startSequenceNumber: rest[0]!.dynamodb!.SequenceNumber!,
        endSequenceNumber: rest.at(-1)!.dynamodb!.SequenceNumber!,
        streamArn: this.streamArn,
        batchSize: rest.length,
      },
    };
    // Not sent (the destination failing too): the batch stays, and is tried again.
    if (this.options.onFailure) await this.options.onFailure(failure);
    else this.logger()(`A stream batch was given up (${condition}) with no on-failure destination`, failure);
    this.failures.delete(shardId);
    this.save(shardId, rest.at(-1)!.dynamodb!.SequenceNumber!);
  }

  private logger(): (message: string, error: unknown) => void {
    return this.options.log ?? ((m, e) => console.error(m, loggable(e)));
  }

  private save(shardId: string, sequenceNumber: string): void {
    this.positions = { streamArn: this.streamArn, shards: { ...this.positions.shards, [shardId]: sequenceNumber } };
    this.store.save(this.positions);
  }

  /**
   * Stops reading after the pass in progress, and waits for it: no call of the reader or of the
   * dispatcher until resume(). (Tests that compare the table around one request.)
   */
  async pause(): Promise<void> {
    if (!this.paused) {
      let release!: () => void;
      const resume = new Promise<void>((resolve) => (release = resolve));
      this.paused = { resume, release };
    }
    await this.pass;
  }

  resume(): void {
    this.paused?.release();
    this.paused = undefined;
  }

  /** Stops reading; a batch being handled is not recorded as handled (the next reader hands it again). */
  async stop(): Promise<void> {
    this.running = false;
    this.halt();
    await this.loop;
    this.streams.destroy();
  }
}
