/**
 * The test run's DynamoDB Locals (in memory): one for each Jest worker at a time, made new every few
 * tables (test/support/dynamodb-pool.ts). Each test file works in a table of its own, so files never
 * see each other's data. DynamoDB Local serialises its transactions: with one for all workers, a
 * file's burst of 25 concurrent payments waited behind another file's work until the SDK gave up.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultAwsEnvironment } from '../../infra/local/dynamodb-local';
import { DynamoDbPool } from './dynamodb-pool';

declare global {
  var dynamoDbPoolForTests: DynamoDbPool | undefined;
}

export default async function globalSetup(globalConfig: { readonly maxWorkers: number }): Promise<void> {
  defaultAwsEnvironment();
  // Every Java the run starts (the pool's DynamoDB Locals, and the workers' own, who inherit it) with
  // the first compiler only: a test DynamoDB Local lives for a few tables, and the optimising
  // compiler's work never paid back. Measured on one life of three tables (600 writes): 14-16 s of
  // CPU, 9-11 s with it, the writes as fast (docs/testing.md).
  process.env['JDK_JAVA_OPTIONS'] = [process.env['JDK_JAVA_OPTIONS'], '-XX:TieredStopAtLevel=1']
    .filter(Boolean)
    .join(' ');
  const pool = new DynamoDbPool();
  globalThis.dynamoDbPoolForTests = pool;
  // Workers inherit the environment of the process that runs the global setup.
  process.env['TEST_DYNAMODB_POOL'] = await pool.listen();
  // Workers are numbered from 1; a run in band is worker 1.
  await Promise.all(Array.from({ length: Math.max(1, globalConfig.maxWorkers) }, (_, i) => pool.start(i + 1)));
  // Where each worker counts the contract checks it made (test/support/contract.ts).
  process.env['CONTRACT_REPORT_DIR'] = mkdtempSync(path.join(tmpdir(), 'breb-contract-'));
  // One log line per request would bury the test report; tests that read logs ask for them.
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
}
