/**
 * A proxy between the functions and DynamoDB Local that counts what crosses the wire: calls by
 * operation, the capacity DynamoDB reports for them, and the TCP connections the functions open.
 * Counting on the wire measures the bundles and the baseline alike, whatever SDK copy they carry.
 *
 * Every call that can report its capacity is forwarded with `ReturnConsumedCapacity: TOTAL` (unless
 * it asks already); DynamoDB Local does not check request signatures, and the answer is passed back
 * untouched (its CRC32 still holds), the extra `ConsumedCapacity` being ignored by the callers.
 */
import { createServer, request as httpRequest, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { FUNCTION_HEADER } from '../../infra/local/granted-actions';

const CAPACITY_OPERATIONS = new Set([
  'GetItem',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'BatchWriteItem',
  'TransactGetItems',
  'TransactWriteItems',
]);
const READ_OPERATIONS = new Set(['GetItem', 'Query', 'Scan', 'BatchGetItem', 'TransactGetItems']);

export interface MeterReading {
  /** Calls by operation (GetItem, Query, TransactWriteItems, ...). */
  readonly calls: Record<string, number>;
  readonly readCapacity: number;
  readonly writeCapacity: number;
  /** TCP connections opened to DynamoDB. */
  readonly connections: number;
}

interface ConsumedCapacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}

/** One call as it crossed the wire, kept when the meter is started with `detail`. */
export interface LoggedCall {
  readonly operation: string;
  readonly input: Record<string, unknown>;
  /** What DynamoDB answered (`ConsumedCapacity` per table and index among it); undefined on an error. */
  readonly output: Record<string, unknown> | undefined;
  /** The items the call deletes, as stored just before it (marshalled), by `<pk>|<sk>`: read by the meter, not counted. */
  readonly deleted?: Record<string, Record<string, unknown>>;
  /** The function whose invocation made the call, as the local runtime names it (FUNCTION_HEADER). */
  readonly function?: string;
  /** When the call was at the proxy, from its arrival to its answer (performance.now() ms), its delay within. */
  readonly span: readonly [from: number, to: number];
}

/** The keys a call deletes (a DeleteItem's, a transaction's Delete items'). */
function deletedKeys(operation: string, input: Record<string, unknown>): Record<string, Record<string, string>>[] {
  if (operation === 'DeleteItem') return [input['Key'] as Record<string, Record<string, string>>];
  if (operation !== 'TransactWriteItems') return [];
  return (input['TransactItems'] as Record<string, Record<string, unknown>>[]).flatMap((entry) =>
    entry['Delete'] ? [entry['Delete']['Key'] as Record<string, Record<string, string>>] : [],
  );
}

/** A transaction's table (its items name it; a DeleteItem names its own). */
const tableOf = (input: Record<string, unknown>): unknown =>
  Object.values((input['TransactItems'] as Record<string, Record<string, unknown>>[])[0]!)[0]!['TableName'];

async function bodyOf(message: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export class DynamoDbMeter {
  private calls: Record<string, number> = {};
  private readCapacity = 0;
  private writeCapacity = 0;
  private connections = 0;
  /** Every call since the last `log.splice`, with `detail`. */
  readonly log: LoggedCall[] = [];
  /**
   * Each call is held this long before it is forwarded, as a network round trip would (bench:latency:
   * an in-region call to DynamoDB takes a few milliseconds; DynamoDB Local on loopback, a fraction).
   */
  delayMs = 0;

  private constructor(
    private readonly server: Server,
    readonly endpoint: string,
  ) {}

  /**
   * Starts the proxy in front of `upstream` (DynamoDB Local's endpoint); with `detail`, it asks for the
   * capacity per table and index and keeps every call in `log`.
   */
  static async start(upstream: string, { detail = false } = {}): Promise<DynamoDbMeter> {
    const target = new URL(upstream);
    const agent = new Agent({ keepAlive: true });
    const server = createServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const meter = new DynamoDbMeter(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('connection', () => {
      meter.connections += 1;
    });
    server.on('request', (incoming, outgoing) => {
      void (async () => {
        const arrived = performance.now();
        const operation = String(incoming.headers['x-amz-target'] ?? '').split('.')[1] ?? 'unknown';
        let body = await bodyOf(incoming);
        let input: Record<string, unknown> = {};
        if (CAPACITY_OPERATIONS.has(operation)) {
          input = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
          input['ReturnConsumedCapacity'] ??= detail ? 'INDEXES' : 'TOTAL';
          body = Buffer.from(JSON.stringify(input));
        }
        const send = (payload: Buffer, target_: string = String(incoming.headers['x-amz-target'])) =>
          new Promise<IncomingMessage>((answered, failed) => {
            const forwarded = httpRequest(
              {
                host: target.hostname,
                port: target.port,
                method: incoming.method,
                path: incoming.url,
                headers: {
                  ...incoming.headers,
                  host: target.host,
                  'x-amz-target': target_,
                  'content-length': payload.length,
                },
                agent,
              },
              answered,
            );
            forwarded.on('error', failed);
            forwarded.end(payload);
          });
        // The items a delete takes away, as they were: what the delete's floor is made of (DynamoDB
        // Local does not check signatures, so the read goes out with the call's own headers).
        const deleted: Record<string, Record<string, unknown>> = {};
        for (const key of detail ? deletedKeys(operation, input) : []) {
          const read = { TableName: input['TableName'] ?? tableOf(input), Key: key, ConsistentRead: true };
          const got = await send(Buffer.from(JSON.stringify(read)), 'DynamoDB_20120810.GetItem');
          const item = (JSON.parse((await bodyOf(got)).toString('utf8')) as { Item?: Record<string, unknown> }).Item;
          if (item) deleted[`${key['pk']!['S']}|${key['sk']!['S']}`] = item;
        }
        if (meter.delayMs > 0) await new Promise((held) => setTimeout(held, meter.delayMs));
        const answer = await send(body);
        const answerBody = await bodyOf(answer);
        meter.record(operation, answer.statusCode ?? 0, answerBody);
        if (detail) {
          const output =
            answer.statusCode === 200
              ? (JSON.parse(answerBody.toString('utf8')) as Record<string, unknown>)
              : undefined;
          const by = incoming.headers[FUNCTION_HEADER];
          meter.log.push({
            operation,
            input,
            output,
            ...(Object.keys(deleted).length ? { deleted } : {}),
            ...(typeof by === 'string' ? { function: by } : {}),
            span: [arrived, performance.now()],
          });
        }
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        outgoing.end(answerBody);
      })().catch((error: unknown) => {
        outgoing.destroy(error as Error);
      });
    });
    return meter;
  }

  private record(operation: string, status: number, body: Buffer): void {
    this.calls[operation] = (this.calls[operation] ?? 0) + 1;
    if (status !== 200 || !CAPACITY_OPERATIONS.has(operation)) return;
    const consumed = [(JSON.parse(body.toString('utf8')) as { ConsumedCapacity?: unknown }).ConsumedCapacity ?? []]
      .flat()
      .map((c) => c as ConsumedCapacity);
    for (const c of consumed) {
      // Transactions report reads (their condition checks) and writes apart; other calls are one kind.
      if (c.ReadCapacityUnits !== undefined || c.WriteCapacityUnits !== undefined) {
        this.readCapacity += c.ReadCapacityUnits ?? 0;
        this.writeCapacity += c.WriteCapacityUnits ?? 0;
      } else if (READ_OPERATIONS.has(operation)) this.readCapacity += c.CapacityUnits ?? 0;
      else this.writeCapacity += c.CapacityUnits ?? 0;
    }
  }

  /** What was counted since the last reset, and starts counting again. */
  reset(): MeterReading {
    const reading = {
      calls: this.calls,
      readCapacity: this.readCapacity,
      writeCapacity: this.writeCapacity,
      connections: this.connections,
    };
    this.calls = {};
    this.readCapacity = 0;
    this.writeCapacity = 0;
    this.connections = 0;
    return reading;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((closed) => this.server.close(() => closed()));
  }
}
