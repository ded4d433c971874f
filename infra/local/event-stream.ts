/**
 * The table's stream as Lambda's event source mapping reads it, for the local runtime: DynamoDB Local
 * keeps a stream of the table (the same NEW_IMAGE view the stack enables), and this reader hands its
 * records, a batch at a time and in order, to the dispatcher's own handler (functions/
 * dispatch-events.ts). As the mapping does, it moves its position past a batch only once the handler
 * answered it, and from a reported failure it hands the batch again from the failed record: a reader
 * stopped (or killed) mid-batch starts again where the last finished batch ended, and loses nothing.
 * The position is kept in a file of the data folder (`npm start -- --data .data`) or in memory.
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
import { lambdaContext } from './lambda-context';

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
  /** Records per batch (the event source mapping's batch size). */
  readonly batchSize?: number;
  readonly log?: (message: string, error: unknown) => void;
}

const DEFAULT_POLL_MS = 200;
const FIRST_IDLE_WAIT_MS = 25;
/** How often the list of shards is read again (DynamoDB rolls a stream's shards over every few hours). */
const SHARD_LIST_TTL_MS = 5_000;
const DEFAULT_BATCH_SIZE = 100;
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
  private readonly loop: Promise<void>;
  private positions: StreamPositions;

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
        (this.options.log ?? ((m, e) => console.error(m, e)))('The event stream reader failed: retrying', error);
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
        new GetRecordsCommand({ ShardIterator: iterator, Limit: this.options.batchSize ?? DEFAULT_BATCH_SIZE }),
      );
      if (!this.running) return handled;
      if (Records.length > 0) {
        const done = await this.hand(shardId, Records);
        handled += Records.length;
        // A reported failure: read again from the failed record, after a pause.
        if (!done) {
          this.iterators.delete(shardId);
          await sleep(RETRY_AFTER_FAILURE_MS);
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

  /** Hands a batch; true when it was handled whole. The position moves past what was handled. */
  private async hand(shardId: string, records: readonly StreamRecord[]): Promise<boolean> {
    const answer = await Promise.race([
      this.handler(
        {
          Records: records.map((record) => ({
            ...record,
            eventSourceARN: this.streamArn,
          })) as DynamoDBStreamEvent['Records'],
        },
        lambdaContext('dispatchEvents'),
      ),
      this.halted,
    ]);
    // Stopped while the handler ran: as a killed reader, it saves nothing of this batch.
    if (answer === 'halted' || !this.running) return false;
    const failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
    const failedAt =
      failed === undefined ? records.length : records.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
    const last = records[(failedAt < 0 ? 0 : failedAt) - 1];
    if (last) this.save(shardId, last.dynamodb!.SequenceNumber!);
    return failed === undefined;
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
