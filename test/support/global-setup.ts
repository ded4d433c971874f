/**
 * One DynamoDB Local for the whole test run (in memory). Each test file works in a table of its
 * own, so files run in parallel without seeing each other's data.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

declare global {
  var dynamoDbLocalForTests: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  const dynamoDbLocal = await startDynamoDbLocal();
  globalThis.dynamoDbLocalForTests = dynamoDbLocal;
  // Workers inherit the environment of the process that runs the global setup.
  process.env['TEST_DYNAMODB_ENDPOINT'] = dynamoDbLocal.endpoint;
  // Where each worker counts the contract checks it made (test/support/contract.ts).
  process.env['CONTRACT_REPORT_DIR'] = mkdtempSync(path.join(tmpdir(), 'breb-contract-'));
  // One log line per request would bury the test report; tests that read logs ask for them.
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
}
