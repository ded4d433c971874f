/**
 * What the local runtime's sweeper asks of DynamoDB Local, seen on the wire through the recording
 * proxy: the tests that wait for recovery sweep every 300 ms against one DynamoDB Local on a 2-core
 * machine, and 32 Queries a sweep (one a shard of the index of due work) starved their other calls
 * there (issue 31). At that interval the runs share the shards (shared/data/due-work.ts): each
 * queries 8, as every sweep did when the index had 8 shards, after taking its turn (one UpdateItem of
 * the counter), and every 4 runs in a row query each of the 32 once.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DUE_SHARDS, SWEEP_TURN_KEY } from '../../shared/data/due-work';
import { DUE_INDEX } from '../../shared/data/table';
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { startTestApi, testEndpoint, type TestApi } from '../support/local-api';

let proxy: DynamoDbFaultProxy;
let api: TestApi | undefined;
beforeAll(async () => {
  proxy = await DynamoDbFaultProxy.start(testEndpoint());
});
afterAll(async () => {
  await api?.stop();
  await proxy.stop();
});

it('sweeps 300 ms apart query 8 shards each, and every shard within 4 sweeps', async () => {
  api = await startTestApi({
    dynamodbEndpoint: proxy.endpoint,
    scanEndpoint: testEndpoint(),
    sweepIntervalMs: 300,
    sweepGraceMs: 1_000,
  });
  // The first run comes a second after the start; then one every 300 ms. Nothing else calls DynamoDB.
  await sleep(1_000 + 12 * 300);
  await api.stop();
  api = undefined;

  // Calls, not attempts: a call the SDK retried counts once.
  const calls = proxy.attempts
    .filter((attempt) => attempt.attempt === 1)
    .map((attempt) => ({ operation: attempt.operation, body: JSON.parse(attempt.body) }));
  const turns = calls.filter((c) => c.operation === 'UpdateItem' && c.body.Key?.pk?.S === SWEEP_TURN_KEY.pk);
  const queries = calls
    .filter((c) => c.operation === 'Query' && c.body.IndexName === DUE_INDEX)
    .map((c) => Number(String(c.body.ExpressionAttributeValues[':shard'].S).slice('DUE#'.length)));
  // Some 12 runs, each one turn and 8 Queries: not one run reads all 32.
  expect(turns.length).toBeGreaterThanOrEqual(8);
  expect(queries).toHaveLength(8 * turns.length);
  // The turns are consecutive (a new table's counter starts at 0), each reading its quarter of the
  // shards: every shard was queried as often as every other, give or take the last unfinished round.
  const times = Array.from({ length: DUE_SHARDS }, (_, shard) => queries.filter((q) => q === shard).length);
  expect(Math.min(...times)).toBe(Math.floor(turns.length / 4));
  expect(Math.max(...times)).toBe(Math.ceil(turns.length / 4));
}, 60_000);
