/**
 * The table of a benchmark that calls the repositories and handlers in its own process
 * (bench:pagination, bench:statements): a DynamoDB Local of its own, in memory, and a table in it.
 * The functions read their settings from the environment on first use, as in Lambda: this module
 * sets what they share before any of them is imported, and the table's name and endpoint before
 * the benchmark's run.
 */
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';

process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
const { startDynamoDbLocal } = await import('../infra/local/dynamodb-local');
const { ensureTable } = await import('../infra/local/create-table');
const { ENV } = await import('../shared/runtime/config');
const { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } = await import('../infra/local/dynamodb-local');
// DynamoDB Local under a benchmark's load answers slower than DynamoDB: the tests' bound.
process.env[ENV.dynamodbRequestTimeoutMs] ??= String(DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS);
const { createDynamoDbClient, dynamo } = await import('../shared/data/client');

/** The name of the benchmark's table (set once withBenchTable has made it). */
export const benchTableName = (): string => process.env[ENV.tableName]!;

/** Runs `run` against a new table in a new DynamoDB Local, then stops both (and the functions' client). */
export async function withBenchTable<T>(run: () => Promise<T>): Promise<T> {
  const database = await startDynamoDbLocal();
  try {
    const tableName = `bench-${randomUUID()}`;
    process.env[ENV.tableName] = tableName;
    process.env[ENV.dynamodbEndpoint] = database.endpoint;
    const client = createDynamoDbClient(database.endpoint);
    await ensureTable(client, tableName);
    client.destroy();
    const result = await run();
    dynamo().destroy();
    return result;
  } finally {
    await database.stop();
  }
}

/** BatchWriteItem calls at once while seeding: DynamoDB Local serialises them anyway. */
const CONCURRENCY = 8;

/** Puts `items` into the benchmark's table, 25 a call, as seeding needs (no transaction, no counters). */
export async function batchPut(items: readonly Record<string, unknown>[]): Promise<void> {
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += 25) batches.push(items.slice(i, i + 25));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      let pending = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const output = await dynamo().send(new BatchWriteCommand({ RequestItems: { [benchTableName()]: pending } }));
        pending = (output.UnprocessedItems?.[benchTableName()] ?? []) as typeof pending;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}
