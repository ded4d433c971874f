/**
 * A route's send to a queue after its commit (functions/after-commit.ts, docs/reliability.md): a
 * failure is logged as a warning and counted, never thrown, so the route answers what it committed;
 * a send after a held transaction (a route's bug, not an outage) still throws. The routes' answers
 * and the sweeper's finishing the work are shown through the local server in
 * test/e2e/stranded-work.test.ts.
 */
import { jest } from '@jest/globals';
import { sentAfterCommit } from '../../functions/after-commit';
import { AfterHeldTransactionError } from '../../shared/data/held-transaction';
import { QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC } from '../../shared/observability/metric-names';
import { metrics } from '../../shared/observability/telemetry';

afterEach(() => jest.restoreAllMocks());

/** What `act` writes to stderr (warnings and errors), parsed, and the metrics it added. */
async function observed(act: () => Promise<unknown>) {
  const lines: string[] = [];
  jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  const added = jest.spyOn(metrics, 'addMetric');
  await act();
  return {
    logged: lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    metrics: added.mock.calls.map(([name, , value]) => [name, value]),
  };
}

it('a failed send is a warning and a count, not an error of the request', async () => {
  const seen = await observed(() =>
    expect(
      sentAfterCommit(
        async () => {
          throw new Error('SendMessage failed: the queue is down');
        },
        'settlement',
        { refund_id: 'r1' },
      ),
    ).resolves.toBeUndefined(),
  );
  expect(seen.logged).toEqual([
    expect.objectContaining({
      level: 'WARN',
      message: 'Not queued after the commit: the sweeper starts the work',
      queue: 'settlement',
      refund_id: 'r1',
    }),
  ]);
  expect(seen.metrics).toEqual([[QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC, 1]]);
});

it('a send that works says nothing; one after a held transaction still throws', async () => {
  let sent = 0;
  const seen = await observed(() => sentAfterCommit(async () => void (sent += 1), 'reports', { report_id: 'x' }));
  expect([sent, seen.logged, seen.metrics]).toEqual([1, [], []]);
  await expect(
    sentAfterCommit(
      async () => {
        throw new AfterHeldTransactionError('A message to the settlement queue');
      },
      'settlement',
      {},
    ),
  ).rejects.toBeInstanceOf(AfterHeldTransactionError);
});
