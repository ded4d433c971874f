/**
 * The local runtime's IAM for the table (infra/local/granted-actions.ts), against DynamoDB Local: a
 * call inside a function's invocation is sent only when the function's entry declares its action (a
 * transaction's items each); the rate-limit counters are every route's; a money partition is written
 * only by a function that declares `writesMoney`, as its role's Deny says on AWS; calls outside any
 * invocation are not checked; and each call made inside an invocation names its function for the
 * recording proxy.
 */
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { asFunction, enforceGrants, nameCallsByFunction } from '../../infra/local/granted-actions';
import { itemKeys } from '../../shared/data/item-keys';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let client: DynamoDBDocumentClient;
beforeAll(async () => {
  table = await createTestTable('granted-actions');
  client = DynamoDBDocumentClient.from(table.client);
  enforceGrants(client);
});
afterAll(() => table.drop());

const get = () => new GetCommand({ TableName: table.tableName, Key: itemKeys.customer('c-1') });
const query = () =>
  new QueryCommand({
    TableName: table.tableName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': itemKeys.customer('c-1').pk },
  });
const countRequest = () =>
  new UpdateCommand({
    TableName: table.tableName,
    Key: itemKeys.rateWindow('tenant-a', 1),
    UpdateExpression: 'ADD requests :one',
    ExpressionAttributeValues: { ':one': 1 },
  });

it('a function may make the calls its entry declares, and no other: AccessDeniedException, as on AWS', async () => {
  // getCustomer declares GetItem alone.
  await expect(asFunction('getCustomer', () => client.send(get()))).resolves.toBeDefined();
  await expect(asFunction('getCustomer', () => client.send(query()))).rejects.toMatchObject({
    name: 'AccessDeniedException',
    message: expect.stringContaining('dynamodb:Query'),
  });
});

it("a transaction needs each of its items' actions", async () => {
  const transaction = new TransactWriteCommand({
    TransactItems: [
      { Put: { TableName: table.tableName, Item: { ...itemKeys.customer('c-2'), entity: 'TEST' } } },
      {
        ConditionCheck: {
          TableName: table.tableName,
          Key: itemKeys.customer('c-1'),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ],
  });
  // The sweeper declares PutItem but not ConditionCheckItem.
  await expect(asFunction('sweepStrandedWork', () => client.send(transaction))).rejects.toMatchObject({
    name: 'AccessDeniedException',
    message: expect.stringContaining('dynamodb:ConditionCheckItem'),
  });
  // Nothing was sent: the item is not there.
  expect((await client.send(get())).Item).toBeUndefined();
});

it("a route may count its tenant's requests (the shared chain's rate limit), and update nothing else undeclared", async () => {
  // getCustomer declares no UpdateItem: the rate-limit counters are granted to every route apart.
  await expect(asFunction('getCustomer', () => client.send(countRequest()))).resolves.toBeDefined();
  const other = new UpdateCommand({
    TableName: table.tableName,
    Key: itemKeys.customer('c-1'),
    UpdateExpression: 'ADD requests :one',
    ExpressionAttributeValues: { ':one': 1 },
  });
  await expect(asFunction('getCustomer', () => client.send(other))).rejects.toMatchObject({
    name: 'AccessDeniedException',
  });
});

it('a money partition is written only by a function that writes money, even one granted the action', async () => {
  const balanceWrite = (id: string) =>
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: table.tableName, Item: { ...itemKeys.qrCode(`q-${id}`), entity: 'TEST' } } },
        {
          Update: {
            TableName: table.tableName,
            Key: itemKeys.accountBalance(`a-${id}`),
            UpdateExpression: 'ADD available_balance_cents :much',
            ExpressionAttributeValues: { ':much': 1_000_000 },
          },
        },
      ],
    });
  // createQrCode declares PutItem and UpdateItem, and no money: its transaction is refused whole.
  await expect(asFunction('createQrCode', () => client.send(balanceWrite('1')))).rejects.toMatchObject({
    name: 'AccessDeniedException',
    message: expect.stringContaining('ACCOUNT#a-1 is a money partition'),
  });
  expect(
    (await client.send(new GetCommand({ TableName: table.tableName, Key: itemKeys.accountBalance('a-1') }))).Item,
  ).toBeUndefined();
  // It may still read one.
  await expect(
    asFunction('createQrCode', () =>
      client.send(new GetCommand({ TableName: table.tableName, Key: itemKeys.accountBalance('a-1') })),
    ),
  ).resolves.toBeDefined();
  // createPayment writes money.
  await expect(asFunction('createPayment', () => client.send(balanceWrite('2')))).resolves.toBeDefined();
});

it('calls outside any invocation (the runtime, the tests) are not checked', async () => {
  await expect(client.send(query())).resolves.toBeDefined();
});

it("names the function making each call for the benchmarks' recording proxy, and no other call", async () => {
  const { DynamoDbMeter } = await import('../../bench/functions/dynamodb-meter');
  const { createDynamoDbClient } = await import('../../shared/data/client');
  const meter = await DynamoDbMeter.start(table.endpoint, { detail: true });
  try {
    const named = DynamoDBDocumentClient.from(createDynamoDbClient(meter.endpoint));
    nameCallsByFunction(named);
    await asFunction('getCustomer', () => named.send(get()));
    await named.send(get());
    expect(meter.log.map((call) => [call.operation, call.function])).toEqual([
      ['GetItem', 'getCustomer'],
      ['GetItem', undefined],
    ]);
  } finally {
    await meter.stop();
  }
});
