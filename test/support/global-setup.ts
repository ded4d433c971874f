/**
 * One DynamoDB Local (in memory) for each Jest worker, for the whole test run. Each test file works
 * in a table of its own, so files never see each other's data. DynamoDB Local serialises its
 * transactions: with one for all, a file's burst of 25 concurrent payments waited behind another
 * file's work until the SDK gave up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

declare global {
  var dynamoDbLocalsForTests: readonly DynamoDbLocal[] | undefined;
}

export default async function globalSetup(globalConfig: { readonly maxWorkers: number }): Promise<void> {
  const started = await Promise.all(
    Array.from({ length: Math.max(1, globalConfig.maxWorkers) }, () => startDynamoDbLocal()),
  );
  globalThis.dynamoDbLocalsForTests = started;
  // Workers inherit the environment of the process that runs the global setup.
  process.env['TEST_DYNAMODB_ENDPOINTS'] = started.map((local) => local.endpoint).join(',');
  // Where each worker counts the contract checks it made (test/support/contract.ts).
  process.env['CONTRACT_REPORT_DIR'] = mkdtempSync(path.join(tmpdir(), 'breb-contract-'));
  // One log line per request would bury the test report; tests that read logs ask for them.
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
}
