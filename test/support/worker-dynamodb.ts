/**
 * This test file's DynamoDB Local, from the run's pool (test/support/dynamodb-pool.ts). Imports
 * nothing: Jest's setup of every file loads it before the file's own imports, so a module it loaded
 * would read its environment (a log level, a table's name) before the test sets it.
 */

/** This test file's DynamoDB Local, which the setup of every file asks the run's pool for (useFreshDynamoDb). */
export function testDynamoDbEndpoint(): string {
  const endpoint = process.env['TEST_DYNAMODB_ENDPOINT'];
  if (!endpoint) throw new Error('TEST_DYNAMODB_ENDPOINT is not set: run the tests through jest (its setup files)');
  return endpoint;
}

/** Asks the run's pool of DynamoDB Locals (test/support/dynamodb-pool.ts), for this Jest worker. */
async function askPool(action: 'fresh' | 'tables'): Promise<string> {
  const pool = process.env['TEST_DYNAMODB_POOL'];
  if (!pool) throw new Error('TEST_DYNAMODB_POOL is not set: run the tests through jest (global setup)');
  const answer = await fetch(`${pool}/${action}/${process.env['JEST_WORKER_ID'] ?? '1'}`, { method: 'POST' });
  if (answer.status !== 200)
    throw new Error(`The DynamoDB Local pool answered ${answer.status}: ${await answer.text()}`);
  return answer.text();
}

/** Run before each file's tests: the worker's DynamoDB Local, new when its last one served enough tables. */
export async function useFreshDynamoDb(): Promise<void> {
  process.env['TEST_DYNAMODB_ENDPOINT'] = await askPool('fresh');
}

/** Counts a table (and its stream) made in this file's DynamoDB Local: the pool renews it after a few. */
export async function noteTableMade(): Promise<void> {
  await askPool('tables');
}
