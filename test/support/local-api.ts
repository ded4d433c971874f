/**
 * The real local server for end-to-end tests: the same runtime `npm start` runs, on a free port,
 * against the test run's DynamoDB Local, in a table of this test file's own. Every answer the client
 * receives is checked against the OpenAPI document (contract.ts): one outside it fails the test.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import { DeleteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from '../../infra/local/runtime';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } from '../../infra/local/dynamodb-local';
import { createDynamoDbClient } from '../../shared/data/client';
import { checkAgainstContract } from './contract';
import { scanTable, type Item } from './dynamo-table';
import { noteTableMade, testDynamoDbEndpoint } from './worker-dynamodb';

export interface ApiAnswer<T = Record<string, any>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  /** Sent as is, instead of JSON. */
  readonly rawBody?: string | Buffer;
  readonly headers?: Record<string, string>;
}

/** A request sent byte for byte: the path as given (no URL normalisation), only the headers given. */
export interface RawRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: Buffer;
}

export interface TestApi {
  readonly runtime: LocalRuntime;
  readonly url: string;
  /** A token from the token endpoint, as a client would get it. */
  token(clientId: string, scope?: string): Promise<string>;
  request<T = Record<string, any>>(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  raw(request: RawRequest): Promise<ApiAnswer>;
  /** Every item of the server's table, read straight from DynamoDB (never through a fault proxy). */
  scan(): Promise<Item[]>;
  /** Deletes items of the server's table behind its back (a test clearing what it no longer needs). */
  deleteItems(keys: readonly { pk: unknown; sk: unknown }[]): Promise<void>;
  /**
   * Runs `work` while the runtime's later work (the dispatcher, the sender, settlement) waits, so that
   * what `work` sees change in the table is its requests' doing alone. Nests: the workers resume when
   * the last of several concurrent calls ends.
   */
  quietly<T>(work: () => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

export interface TestApiOptions extends Pick<
  LocalRuntimeOptions,
  | 'throttling'
  | 'edge'
  | 'tenantRateLimit'
  | 'dynamodbRequestTimeoutMs'
  | 'cloudAssembly'
  | 'sandboxSettlementDelayMs'
  | 'webhookTimeoutMs'
  | 'webhookRetryBaseMs'
  | 'webhookBreakerCoolDownMs'
  | 'webhookDisableAfterMs'
  | 'approvalTimeoutMs'
  | 'queueVisibilityTimeoutMs'
  | 'streamRetryAttempts'
  | 'streamMaxRecordAgeMs'
  | 'routeTimeoutMs'
  | 'sweepIntervalMs'
  | 'sweepGraceMs'
  | 'transferInquiryAfterMs'
  | 'transferReviewAfterMs'
  | 'networkLimits'
  | 'network'
  | 'listShards'
> {
  /** The DynamoDB the server uses (a fault proxy, another DynamoDB Local); the test run's by default. */
  readonly dynamodbEndpoint?: string;
  /** Where scan() reads the table; the server's DynamoDB by default, or the test run's behind a proxy. */
  readonly scanEndpoint?: string;
  /** The table, to start a server again on what an earlier one left; a new one by default. */
  readonly tableName?: string;
}

const parseJson = (text: string): unknown => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

/** The visibility timeout of the test servers' queues (see startTestApi). */
export const TEST_VISIBILITY_TIMEOUT_MS = 1_000;

/** A route's timeout in the tests, where the deployed one is 10 s (ROUTE_TIMEOUT_SECONDS). */
const TEST_ROUTE_TIMEOUT_MS = 30_000;

/** This worker's DynamoDB Local (test/support/dynamo-table.ts). */
export const testEndpoint = testDynamoDbEndpoint;

export async function startTestApi(options: TestApiOptions = {}): Promise<TestApi> {
  const dynamodbEndpoint = options.dynamodbEndpoint ?? testEndpoint();
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: ':memory:',
    dynamodbEndpoint,
    tableName: options.tableName ?? `test-${randomUUID()}`,
    ...(options.throttling ? { throttling: options.throttling } : {}),
    ...(options.network ? { network: options.network } : {}),
    ...(options.edge ? { edge: options.edge } : {}),
    ...(options.tenantRateLimit ? { tenantRateLimit: options.tenantRateLimit } : {}),
    ...(options.listShards ? { listShards: options.listShards } : {}),
    // The suite loads the machine: DynamoDB Local's calls get the tests' bound, unless a test sets one.
    dynamodbRequestTimeoutMs: options.dynamodbRequestTimeoutMs ?? DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS,
    ...(options.cloudAssembly ? { cloudAssembly: options.cloudAssembly } : {}),
    ...(options.sandboxSettlementDelayMs ? { sandboxSettlementDelayMs: options.sandboxSettlementDelayMs } : {}),
    ...(options.webhookTimeoutMs ? { webhookTimeoutMs: options.webhookTimeoutMs } : {}),
    ...(options.webhookRetryBaseMs
      ? {
          webhookRetryBaseMs: options.webhookRetryBaseMs,
          // The retry schedule compressed, the breaker's cool-down with it, in the deployed proportion
          // (30 s to a first retry of up to 60 s): else its 30 s would hold back every retry the test waits for.
          // At least 100 ms: while an endpoint's one trial attempt waits out its timeout, each of its other
          // deliveries is postponed a cool-down at a time, and a few milliseconds made that a storm of
          // writes that slowed a loaded machine into more timeouts.
          webhookBreakerCoolDownMs:
            options.webhookBreakerCoolDownMs ?? Math.max(100, Math.round(options.webhookRetryBaseMs / 2)),
        }
      : {}),
    ...(options.webhookDisableAfterMs ? { webhookDisableAfterMs: options.webhookDisableAfterMs } : {}),
    ...(options.approvalTimeoutMs ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
    // A failed message is handed again after a second, not the deployed minutes: tests wait for
    // retries (a test may choose its own). The receive count, batch sizes and timeouts stay deployed.
    queueVisibilityTimeoutMs: options.queueVisibilityTimeoutMs ?? TEST_VISIBILITY_TIMEOUT_MS,
    ...(options.streamRetryAttempts === undefined ? {} : { streamRetryAttempts: options.streamRetryAttempts }),
    ...(options.streamMaxRecordAgeMs === undefined ? {} : { streamMaxRecordAgeMs: options.streamMaxRecordAgeMs }),
    // Likewise a route's own timeout: on a loaded machine a handler's first call (its modules loaded
    // under two test files' load) outlasted the deployed 10 s, answering 503 to tests of behaviour,
    // not of latency. test/unit/handler-timeouts.test.ts holds the deployed bound.
    routeTimeoutMs: options.routeTimeoutMs ?? TEST_ROUTE_TIMEOUT_MS,
    ...(options.sweepIntervalMs === undefined ? {} : { sweepIntervalMs: options.sweepIntervalMs }),
    ...(options.sweepGraceMs ? { sweepGraceMs: options.sweepGraceMs } : {}),
    ...(options.transferInquiryAfterMs ? { transferInquiryAfterMs: options.transferInquiryAfterMs } : {}),
    ...(options.transferReviewAfterMs ? { transferReviewAfterMs: options.transferReviewAfterMs } : {}),
    ...(options.networkLimits ? { networkLimits: options.networkLimits } : {}),
  });
  // Its table's stream slows the worker's DynamoDB Local down: the pool counts it.
  await noteTableMade();
  const tokens = new Map<string, string>();
  let quiet = 0;
  let pausing: Promise<void> = Promise.resolve();
  const agent = new Agent({ keepAlive: true });
  let documents: DynamoDBDocumentClient | undefined;
  const direct = (): DynamoDBDocumentClient =>
    (documents ??= DynamoDBDocumentClient.from(createDynamoDbClient(options.scanEndpoint ?? dynamodbEndpoint)));

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] ??= `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${runtime.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    checkAgainstContract({ method, path, requestBody: body, status: response.status, contentType, text });
    return { status: response.status, headers: response.headers, body: parseJson(text) as T, text };
  }

  function raw({ method, path, headers = {}, body }: RawRequest): Promise<ApiAnswer> {
    const { hostname, port } = new URL(runtime.url);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest({ agent, host: hostname, port, method, path, headers }, (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('error', reject);
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(incoming.headers)) {
            if (value !== undefined) answerHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
          }
          const status = incoming.statusCode ?? 0;
          try {
            const contentType = answerHeaders.get('content-type');
            checkAgainstContract({ method, path, requestBody: body, status, contentType, text });
          } catch (violation) {
            return reject(violation as Error);
          }
          resolve({ status, headers: answerHeaders, body: parseJson(text) as any, text });
        });
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  return {
    runtime,
    url: runtime.url,
    async token(clientId: string, scope?: string) {
      const cacheKey = `${clientId} ${scope ?? ''}`;
      const cached = tokens.get(cacheKey);
      if (cached) return cached;
      const client = SANDBOX_CLIENTS.find((c) => c.clientId === clientId);
      if (!client) throw new Error(`No sandbox client ${clientId}`);
      const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
      const answer = await fetch(`${runtime.url}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        },
        body: form.toString(),
      });
      if (answer.status !== 200) throw new Error(`Token request failed: ${answer.status} ${await answer.text()}`);
      const { access_token } = (await answer.json()) as { access_token: string };
      tokens.set(cacheKey, access_token);
      return access_token;
    },
    request,
    raw,
    scan: () => scanTable(direct(), runtime.tableName),
    async quietly(work) {
      quiet += 1;
      try {
        if (quiet === 1) pausing = runtime.pauseWorkers();
        await pausing;
        return await work();
      } finally {
        quiet -= 1;
        if (quiet === 0) runtime.resumeWorkers();
      }
    },
    async deleteItems(keys) {
      for (const Key of keys) await direct().send(new DeleteCommand({ TableName: runtime.tableName, Key }));
    },
    async stop() {
      agent.destroy();
      documents?.destroy();
      await runtime.stop();
    },
  };
}
