/**
 * A table of the test file's own in the test run's DynamoDB Local, with the environment the
 * repositories read on first use (TABLE_NAME, DYNAMODB_ENDPOINT, DYNAMODB_REQUEST_TIMEOUT_MS).
 * Create it before importing the repositories dynamically; drop it in afterAll.
 */
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable } from '../../infra/local/create-table';
import { defaultAwsEnvironment, DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } from '../../infra/local/dynamodb-local';
import { ENV } from '../../shared/runtime/config';
import { createDynamoDbClient } from '../../shared/data/client';
import { noteTableMade, testDynamoDbEndpoint } from './worker-dynamodb';

export { testDynamoDbEndpoint };

export type Item = Record<string, any>;

export interface TestTable {
  readonly tableName: string;
  readonly endpoint: string;
  readonly client: DynamoDBClient;
  /** A document client of the test's own, to write or read items behind the repositories' back. */
  readonly documents: DynamoDBDocumentClient;
  /** Every item of the table (consistent read), optionally only those `keep` selects. */
  scan(keep?: (item: Item) => boolean): Promise<Item[]>;
  /** Drops the table and closes the test's clients and the repositories' shared one. */
  drop(): Promise<void>;
}

/** Every item of a table (consistent read), optionally only those `keep` selects. */
export async function scanTable(
  documents: DynamoDBDocumentClient,
  tableName: string,
  keep: (item: Item) => boolean = () => true,
): Promise<Item[]> {
  const items: Item[] = [];
  let ExclusiveStartKey: Item | undefined;
  do {
    const page = await documents.send(
      new ScanCommand({ TableName: tableName, ConsistentRead: true, ExclusiveStartKey }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items.filter(keep);
}

/** A unique table name for one test file: letters, digits and dashes, as DynamoDB allows. */
export const uniqueTableName = (label: string): string => `test-${label}-${randomUUID()}`;

export async function createTestTable(label: string): Promise<TestTable> {
  defaultAwsEnvironment();
  const endpoint = testDynamoDbEndpoint();
  const tableName = uniqueTableName(label);
  process.env[ENV.tableName] = tableName;
  process.env[ENV.dynamodbEndpoint] = endpoint;
  // The repositories talk to DynamoDB Local on a machine the suite loads: the tests' bound.
  process.env[ENV.dynamodbRequestTimeoutMs] = String(DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS);

  const client = createDynamoDbClient(endpoint);
  await ensureTable(client, tableName);
  await noteTableMade();
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

  return {
    tableName,
    endpoint,
    client,
    documents,
    scan: (keep) => scanTable(documents, tableName, keep),
    async drop() {
      await client.send(new DeleteTableCommand({ TableName: tableName }));
      client.destroy();
      // The repositories' process-wide client (created lazily from the same environment).
      const { dynamo } = await import('../../shared/data/client');
      dynamo().destroy();
    },
  };
}
