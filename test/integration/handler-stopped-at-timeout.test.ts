/**
 * The local runtime stops a function at its timeout as Lambda does (infra/local/lambda-context.ts):
 * against DynamoDB Local, a handler still working when its timeout passes commits nothing after it,
 * while one that answers in time commits as usual; a call outside any invocation is untouched.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { invokeWithin, LambdaTimeout, stopAtTimeout } from '../../infra/local/lambda-context';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let client: DynamoDBDocumentClient;
beforeAll(async () => {
  table = await createTestTable('handler-timeout');
  client = DynamoDBDocumentClient.from(table.client);
  stopAtTimeout(client);
});
afterAll(() => table.drop());

const key = (id: string) => ({ pk: `TIMEOUT#${id}`, sk: 'ITEM' });
const put = (id: string) => client.send(new PutCommand({ TableName: table.tableName, Item: key(id) }));
const stored = async (id: string) =>
  (await client.send(new GetCommand({ TableName: table.tableName, Key: key(id), ConsistentRead: true }))).Item;

test('a handler past its timeout: the invocation fails with LambdaTimeout, and its late write is refused, never committed', async () => {
  let lateWrite: Promise<unknown> | undefined;
  const answer = invokeWithin(
    async () => {
      await sleep(300, undefined, { ref: false });
      lateWrite = put('late');
      await lateWrite;
      return 'late';
    },
    {},
    'worker',
    50,
  );
  await expect(answer).rejects.toBeInstanceOf(LambdaTimeout);
  await sleep(400);
  await expect(lateWrite).rejects.toBeInstanceOf(LambdaTimeout);
  expect(await stored('late')).toBeUndefined();
});

test('a handler that writes within its timeout commits; the same client outside an invocation too', async () => {
  await expect(invokeWithin(async () => (await put('on-time'), 'on time'), {}, 'worker', 5_000)).resolves.toBe(
    'on time',
  );
  expect(await stored('on-time')).toBeDefined();
  await put('outside');
  expect(await stored('outside')).toBeDefined();
});
