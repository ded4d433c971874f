/**
 * Creates the table from the shared definition (the same one the CDK stack deploys), if missing. A
 * table kept from an older version (`.data/`) gets the indexes added since, one at a time as
 * DynamoDB requires, and its stream. An index retired since (gsi4keys, issue 31) is left in place:
 * nothing reads it, and DynamoDB Local, asked to drop it, keeps it DELETING for minutes.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeDefinition,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { tableDefinition, type IndexDefinition } from '../../shared/data/table';

const attributeDefinitions = (names: readonly string[]): AttributeDefinition[] =>
  [...new Set(names)].map((AttributeName) => ({ AttributeName, AttributeType: 'S' }));

const globalSecondaryIndex = (index: IndexDefinition): GlobalSecondaryIndex => ({
  IndexName: index.indexName,
  KeySchema: [
    { AttributeName: index.partitionKey, KeyType: 'HASH' },
    { AttributeName: index.sortKey, KeyType: 'RANGE' },
  ],
  Projection: { ProjectionType: index.projection },
});

async function describe(client: DynamoDBClient, tableName: string): Promise<TableDescription | undefined> {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return undefined;
    throw error;
  }
}

async function waitUntilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const table = await describe(client, tableName);
    const busy =
      table?.TableStatus !== 'ACTIVE' || (table.GlobalSecondaryIndexes ?? []).some((i) => i.IndexStatus !== 'ACTIVE');
    if (!busy) return;
    if (Date.now() > deadline) throw new Error(`Table ${tableName} did not become ACTIVE`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Adds the indexes of the definition that an existing table lacks; answers how many. */
async function addMissingIndexes(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<number> {
  const present = new Set((table.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const missing = tableDefinition.globalSecondaryIndexes.filter((i) => !present.has(i.indexName));
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: attributeDefinitions([index.partitionKey, index.sortKey]),
        GlobalSecondaryIndexUpdates: [{ Create: globalSecondaryIndex(index) }],
      }),
    );
    await waitUntilActive(client, tableName);
  }
  return missing.length;
}

const streamSpecification = { StreamEnabled: true, StreamViewType: tableDefinition.streamView } as const;

/** Turns on the stream of a table made before it existed; answers whether it had to. */
async function enableStream(client: DynamoDBClient, tableName: string, table: TableDescription): Promise<boolean> {
  if (table.StreamSpecification?.StreamEnabled) return false;
  await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: streamSpecification }));
  await waitUntilActive(client, tableName);
  return true;
}

export async function ensureTable(
  client: DynamoDBClient,
  tableName: string,
): Promise<'created' | 'existing' | 'updated'> {
  const existing = await describe(client, tableName);
  if (existing) {
    const indexes = await addMissingIndexes(client, tableName, existing);
    const stream = await enableStream(client, tableName, existing);
    return indexes > 0 || stream ? 'updated' : 'existing';
  }

  const { partitionKey, sortKey, globalSecondaryIndexes } = tableDefinition;
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: attributeDefinitions([
        partitionKey,
        sortKey,
        ...globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
      ]),
      KeySchema: [
        { AttributeName: partitionKey, KeyType: 'HASH' },
        { AttributeName: sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: globalSecondaryIndexes.map(globalSecondaryIndex),
      StreamSpecification: streamSpecification,
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
    }),
  );
  return 'created';
}
