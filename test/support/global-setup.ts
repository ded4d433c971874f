/**
 * One DynamoDB Local for the whole test run (in memory). Each test file works in a table of its
 * own, so files run in parallel without seeing each other's data.
 */
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

declare global {
  var dynamoDbLocalForTests: DynamoDbLocal | undefined;
}

export default async function globalSetup(): Promise<void> {
  const dynamoDbLocal = await startDynamoDbLocal();
  globalThis.dynamoDbLocalForTests = dynamoDbLocal;
  // Workers inherit the environment of the process that runs the global setup.
  process.env['TEST_DYNAMODB_ENDPOINT'] = dynamoDbLocal.endpoint;
  // One log line per request would bury the test report; tests that read logs ask for them.
  process.env['POWERTOOLS_LOG_LEVEL'] ??= 'WARN';
}
