/**
 * One DynamoDB document client per process, created on first use and reused by every invocation
 * (keep-alive connections). The endpoint can point at DynamoDB Local or LocalStack.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { readRuntimeConfig, type RuntimeConfig } from '../config';
import { tracer } from '../telemetry';

let config: RuntimeConfig | undefined;
let documentClient: DynamoDBDocumentClient | undefined;

export function runtimeConfig(): RuntimeConfig {
  config ??= readRuntimeConfig();
  return config;
}

export function createDynamoDbClient(endpoint: string | undefined): DynamoDBClient {
  const client = new DynamoDBClient({
    ...(endpoint ? { endpoint } : {}),
    // Bounded retries: a throttled or unreachable table answers 503 quickly instead of hanging.
    maxAttempts: 3,
  });
  // In Lambda each DynamoDB call becomes an X-Ray subsegment; elsewhere the client stays untouched.
  return tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
}

export function createDocumentClient(endpoint: string | undefined): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(createDynamoDbClient(endpoint), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

export function dynamo(): DynamoDBDocumentClient {
  documentClient ??= createDocumentClient(runtimeConfig().dynamodbEndpoint);
  return documentClient;
}

export const tableName = (): string => runtimeConfig().tableName;
