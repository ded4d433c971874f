/**
 * An HTTP proxy in front of DynamoDB Local that injects the faults of a real DynamoDB: throttling
 * (HTTP 400 with the `ProvisionedThroughputExceededException` or `ThrottlingException` body AWS
 * sends), internal errors (HTTP 500), calls that never answer, connections reset or refused. The
 * server under test talks to it as to DynamoDB, so the SDK's own retries and timeouts run for real.
 *
 * Faults aim at SDK invocations (one command, with all its retry attempts, recognised by the
 * `amz-sdk-invocation-id` header), so "fail the 3rd DynamoDB call of this request" is one rule.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { FUNCTION_HEADER } from '../../infra/local/granted-actions';

export type Fault =
  | 'ProvisionedThroughputExceededException'
  | 'ThrottlingException'
  | 'InternalServerError'
  /** The call is never answered: the client's request timeout has to give up on it. */
  | 'hang'
  /** The connection is closed under the request (ECONNRESET). */
  | 'reset';

export interface FaultRule {
  readonly fault: Fault;
  /** DynamoDB operations the rule aims at (`TransactWriteItems`, `PutItem`, ...); every one if absent. */
  readonly operations?: readonly string[];
  /** Matching invocations to let through before the first fault. */
  readonly skip?: number;
  /** Matching invocations to fail, each on every attempt; all of them if absent. */
  readonly invocations?: number;
}

export interface Attempt {
  readonly operation: string;
  readonly invocation: string;
  readonly attempt: number;
  readonly fault: Fault | undefined;
  /** The request's JSON body, as the SDK sent it (which table, index, key a call names). */
  readonly body: string;
  /** The function whose invocation made the call, as the local runtime names it (FUNCTION_HEADER). */
  readonly functionName?: string;
  /** When the request reached the proxy, and when its answer was sent (performance.now()). */
  readonly sentMs: number;
  answeredMs?: number;
}

/**
 * The round trips `attempts` took one after another, each with the attempts it carried: an attempt
 * sent once an attempt of the current round trip was answered starts a new one (it may have waited
 * for that answer); one sent before any was answered rides with them. What a request's latency grows
 * with on AWS, where each round trip is a few milliseconds of network. With the proxy's delay, calls
 * sent together reach it well within the delay, before any of them is answered.
 *
 * (Counting from the last answer instead merged a call that waited for one read into the round trip
 * of a slower call beside that read: a round trip too few, on a loaded machine.)
 */
export function roundTrips(attempts: readonly Attempt[]): Attempt[][] {
  const trips: Attempt[][] = [];
  let firstAnswerMs = -Infinity;
  for (const attempt of [...attempts].sort((a, b) => a.sentMs - b.sentMs)) {
    if (attempt.sentMs >= firstAnswerMs) {
      trips.push([attempt]);
      firstAnswerMs = attempt.answeredMs ?? Infinity;
    } else {
      trips.at(-1)!.push(attempt);
      firstAnswerMs = Math.min(firstAnswerMs, attempt.answeredMs ?? Infinity);
    }
  }
  return trips;
}

const ERROR_BODIES: Partial<Record<Fault, { status: number; type: string; message: string }>> = {
  ProvisionedThroughputExceededException: {
    status: 400,
    type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message:
      'The level of configured provisioned throughput for the table was exceeded. Consider increasing your provisioning level with the UpdateTable API.',
  },
  ThrottlingException: {
    status: 400,
    type: 'com.amazon.coral.availability#ThrottlingException',
    message: 'Rate of requests exceeds the allowed throughput.',
  },
  InternalServerError: {
    status: 500,
    type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: 'Internal server error',
  },
};

interface ActiveRule extends FaultRule {
  skipped: number;
  failed: number;
  readonly failing: Set<string>;
}

export class DynamoDbFaultProxy {
  /** Every attempt that reached the proxy, in order. */
  readonly attempts: Attempt[] = [];
  private rule: ActiveRule | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly held = new Set<ServerResponse>();

  private constructor(
    private server: Server,
    private readonly port: number,
    private readonly target: URL,
    private readonly delayMs: number,
  ) {}

  /**
   * `delayMs`: every call forwarded is held that long first, as a network round trip would (calls
   * made together then overlap on the wire whatever the local timings).
   */
  static async start(targetEndpoint: string, { delayMs = 0 } = {}): Promise<DynamoDbFaultProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const proxy = new DynamoDbFaultProxy(server, port, new URL(targetEndpoint), delayMs);
    proxy.attach(server);
    return proxy;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Attempts answered with a fault since the proxy started. */
  get faultsInjected(): number {
    return this.attempts.filter((attempt) => attempt.fault).length;
  }

  inject(rule: FaultRule): void {
    this.rule = { ...rule, skipped: 0, failed: 0, failing: new Set() };
  }

  /** Stops injecting; calls left hanging are cut (their clients have given up on them). */
  clear(): void {
    this.rule = undefined;
    for (const response of this.held) response.socket?.destroy();
    this.held.clear();
  }

  /** The endpoint becomes unreachable: the port refuses connections, open ones are closed. */
  async refuseConnections(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** Listens again on the same port. */
  async acceptConnections(): Promise<void> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.server = server;
    this.attach(server);
  }

  async stop(): Promise<void> {
    this.clear();
    if (this.server.listening) await this.refuseConnections();
  }

  private attach(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => this.handle(request, response, Buffer.concat(chunks)));
    });
  }

  /** The fault for this attempt, if the rule aims at it. */
  private faultFor(operation: string, invocation: string): Fault | undefined {
    const rule = this.rule;
    if (!rule || (rule.operations && !rule.operations.includes(operation))) return undefined;
    if (rule.failing.has(invocation)) return rule.fault;
    if (rule.skipped < (rule.skip ?? 0)) {
      rule.skipped += 1;
      return undefined;
    }
    if (rule.invocations !== undefined && rule.failed >= rule.invocations) return undefined;
    rule.failed += 1;
    rule.failing.add(invocation);
    return rule.fault;
  }

  private handle(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1] ?? '?';
    const invocation = String(request.headers['amz-sdk-invocation-id'] ?? randomUUID());
    const attempt = Number(/attempt=(\d+)/.exec(String(request.headers['amz-sdk-request'] ?? ''))?.[1] ?? 1);
    const fault = this.faultFor(operation, invocation);
    const record: Attempt = {
      operation,
      invocation,
      attempt,
      fault,
      body: body.toString('utf8'),
      ...(request.headers[FUNCTION_HEADER] ? { functionName: String(request.headers[FUNCTION_HEADER]) } : {}),
      sentMs: performance.now(),
    };
    this.attempts.push(record);
    response.once('finish', () => (record.answeredMs = performance.now()));

    if (fault === 'hang') {
      this.held.add(response);
      return;
    }
    if (fault === 'reset') {
      request.socket.destroy();
      return;
    }
    const error = fault && ERROR_BODIES[fault];
    if (error) {
      const payload = JSON.stringify({ __type: error.type, message: error.message });
      response.writeHead(error.status, {
        'content-type': 'application/x-amz-json-1.0',
        'x-amzn-requestid': randomUUID(),
        'content-length': Buffer.byteLength(payload),
      });
      response.end(payload);
      return;
    }
    const send = () => {
      const upstream = forward(
        {
          host: this.target.hostname,
          port: this.target.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', () => request.socket.destroy());
      upstream.end(body);
    };
    if (this.delayMs > 0) setTimeout(send, this.delayMs);
    else send();
  }
}
