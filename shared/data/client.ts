/**
 * One DynamoDB document client per process, created on first use and reused by every invocation
 * (keep-alive connections). The endpoint can point at DynamoDB Local or LocalStack.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { refuseWhileHeld } from './held-transaction';
import { passWriteGate } from './write-gate';
import { runtimeConfig } from '../runtime/config';
import { tracer } from '../observability/telemetry';

let documentClient: DynamoDBDocumentClient | undefined;
const extensions: ((client: DynamoDBDocumentClient) => void)[] = [];

/** The calls that write: each waits for the request's checks (shared/data/write-gate.ts); reads go at once. */
const WRITE_COMMANDS = new Set(
  ['Put', 'Update', 'Delete', 'TransactWrite', 'BatchWrite', 'ExecuteStatement', 'ExecuteTransaction'].flatMap(
    (name) => [`${name}Command`, `${name}ItemCommand`, `${name}ItemsCommand`],
  ),
);

/** Attempts of one DynamoDB call (the first and two retries, with the SDK's backoff). */
export const DYNAMODB_MAX_ATTEMPTS = 3;
const CONNECTION_TIMEOUT_MS = 1_000;

/**
 * `requestTimeoutMs` bounds each attempt of a call, so that a hung connection becomes a retry and
 * then a 503 instead of a function that waits for its own timeout. Table administration (creating
 * the table at start-up) passes none: it may take longer than any request should. Opening a
 * connection may take as long as an attempt may: 1 s in Lambda; DynamoDB Local, given longer, is also
 * slower to accept one on a loaded machine (where a connection timeout of 1 s ended a benchmark with
 * a rejection the SDK left unhandled).
 */
export function createDynamoDbClient(endpoint: string | undefined, requestTimeoutMs?: number): DynamoDBClient {
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    // Bounded retries: a throttled or unreachable table answers 503 quickly instead of hanging.
    maxAttempts: DYNAMODB_MAX_ATTEMPTS,
    ...(requestTimeoutMs
      ? {
          requestHandler: {
            connectionTimeout: Math.max(CONNECTION_TIMEOUT_MS, requestTimeoutMs),
            requestTimeout: requestTimeoutMs,
            // Without this the SDK only logs a warning when an attempt outlives requestTimeout.
            throwOnRequestTimeout: true,
          },
        }
      : {}),
  });
  // In Lambda each DynamoDB call is traced (an X-Ray subsegment today); elsewhere the client stays untouched.
  return tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}

export function createDocumentClient(endpoint: string | undefined, requestTimeoutMs?: number): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoDbClient(endpoint, requestTimeoutMs), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/**
 * The functions' client: every call bounded by the runtime's DynamoDB request timeout, refused once
 * the request's transaction is held (shared/data/held-transaction.ts), and every write held until the
 * request's checks let it through (shared/data/write-gate.ts).
 */
export function dynamo(): DynamoDBDocumentClient {
  if (!documentClient) {
    const { dynamodbEndpoint, dynamodbRequestTimeoutMs } = runtimeConfig();
    documentClient = createDocumentClient(dynamodbEndpoint, dynamodbRequestTimeoutMs);
    documentClient.middlewareStack.add(
      (next, context) => async (args) => {
        refuseWhileHeld(`DynamoDB ${context.commandName ?? 'call'}`);
        if (WRITE_COMMANDS.has(context.commandName ?? '')) await passWriteGate();
        return next(args);
      },
      { step: 'initialize', name: 'refuseWhileHeld' },
    );
    for (const extend of extensions) extend(documentClient);
  }
  return documentClient;
}

/**
 * Extends the functions' client, now or when it is created: the local runtime adds the checks AWS
 * makes (infra/local/granted-actions.ts). Each extension is added once per process.
 */
export function extendDynamo(extend: (client: DynamoDBDocumentClient) => void): void {
  if (extensions.includes(extend)) return;
  extensions.push(extend);
  if (documentClient) extend(documentClient);
}

export const tableName = (): string => runtimeConfig().tableName;
