/** The local table is created from the one table definition the CDK stack deploys. */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DeleteTableCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { ensureTable } from '../../infra/local/create-table';
import { defaultAwsEnvironment, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { createDynamoDbClient } from '../../shared/data/client';
import { tableDefinition } from '../../shared/data/table';
import { testDynamoDbEndpoint, uniqueTableName } from '../support/dynamo-table';

const tableName = uniqueTableName('create-table');
let client: DynamoDBClient;
let firstAnswer: string;

beforeAll(async () => {
  defaultAwsEnvironment();
  client = createDynamoDbClient(testDynamoDbEndpoint());
  firstAnswer = await ensureTable(client, tableName);
});
afterAll(async () => {
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
});

const describeTable = async () => (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table!;

test("the first call creates the table, the second answers 'existing'", async () => {
  expect(firstAnswer).toBe('created');
  await expect(ensureTable(client, tableName)).resolves.toBe('existing');
});

test('the key schema is the shared definition: pk (HASH) and sk (RANGE), strings', async () => {
  const table = await describeTable();
  expect(table.TableStatus).toBe('ACTIVE');
  expect(table.KeySchema).toEqual([
    { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
    { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
  ]);
  expect(tableDefinition.partitionKey).toBe('pk');
  expect(tableDefinition.sortKey).toBe('sk');
});

test('every key attribute of the table and its indexes is declared as a string, and nothing else', async () => {
  const table = await describeTable();
  const expected = new Set([
    tableDefinition.partitionKey,
    tableDefinition.sortKey,
    ...tableDefinition.globalSecondaryIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ]);
  expect(
    [...(table.AttributeDefinitions ?? [])].sort((a, b) => a.AttributeName!.localeCompare(b.AttributeName!)),
  ).toEqual([...expected].sort().map((AttributeName) => ({ AttributeName, AttributeType: 'S' })));
});

test('the list indexes, their keys-only twins (gsi4 has none) and the index of due work exist with their keys and projections', async () => {
  const table = await describeTable();
  const byName = new Map((table.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index]));
  expect(tableDefinition.globalSecondaryIndexes.map((i) => `${i.indexName}:${i.projection}`)).toEqual([
    'gsi1:ALL',
    'gsi2:ALL',
    'gsi3:ALL',
    'gsi4:ALL',
    'gsi1keys:KEYS_ONLY',
    'gsi2keys:KEYS_ONLY',
    'gsi3keys:KEYS_ONLY',
    'due:KEYS_ONLY',
  ]);
  expect(byName.size).toBe(tableDefinition.globalSecondaryIndexes.length);
  for (const definition of tableDefinition.globalSecondaryIndexes) {
    expect(byName.get(definition.indexName)).toMatchObject({
      IndexName: definition.indexName,
      KeySchema: [
        { AttributeName: definition.partitionKey, KeyType: 'HASH' },
        { AttributeName: definition.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: definition.projection },
    });
  }
});

test('a table kept from a version with fewer indexes gets the missing ones added', async () => {
  // An older table with every index but the last two: DynamoDB adds indexes one at a time, so
  // two are enough to show the loop without spending minutes on a slow machine. It gets a DynamoDB
  // Local of its own: in one that holds the other test files' tables, DynamoDB Local can leave a new
  // index CREATING for minutes (seen with 60 tables of 250 items), which says nothing of ensureTable.
  const database = await startDynamoDbLocal();
  const ownClient = createDynamoDbClient(database.endpoint);
  const olderTable = 'create-table-older';
  const kept = tableDefinition.globalSecondaryIndexes.slice(0, -2);
  try {
    await ownClient.send(
      new CreateTableCommand({
        TableName: olderTable,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...new Set(['pk', 'sk', ...kept.flatMap((i) => [i.partitionKey, i.sortKey])])].map(
          (AttributeName) => ({ AttributeName, AttributeType: 'S' }),
        ),
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: kept.map((i) => ({
          IndexName: i.indexName,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: i.projection },
        })),
      }),
    );
    await expect(ensureTable(ownClient, olderTable)).resolves.toBe('updated');
    const { Table } = await ownClient.send(new DescribeTableCommand({ TableName: olderTable }));
    expect((Table?.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName).sort()).toEqual(
      tableDefinition.globalSecondaryIndexes.map((i) => i.indexName).sort(),
    );
    await expect(ensureTable(ownClient, olderTable)).resolves.toBe('existing');
  } finally {
    ownClient.destroy();
    await database.stop();
  }
}, 120_000);

test('billing is on demand', async () => {
  const table = await describeTable();
  expect(table.BillingModeSummary?.BillingMode).toBe('PAY_PER_REQUEST');
});

test('TTL is enabled on expires_at', async () => {
  const { TimeToLiveDescription } = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
  expect(TimeToLiveDescription).toEqual({ TimeToLiveStatus: 'ENABLED', AttributeName: tableDefinition.ttlAttribute });
  expect(tableDefinition.ttlAttribute).toBe('expires_at');
});
