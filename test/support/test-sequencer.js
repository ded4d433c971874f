/**
 * The order in which `npm test` starts its files: the slowest first, so that no long file starts last
 * and holds the run's end while the other worker idles. Jest orders by the times of the last run in
 * its cache; a clean clone has no cache, and Jest then orders by file size, which puts small slow files
 * (the fuzz, the races) late. So each file's time comes from the cache when there is one, else from the
 * list below, else it counts as quick. The list: seconds per file of a CI run (jest's PASS lines), the
 * files of 10 s or more; update it when a file becomes slow, or stops being.
 */
import Sequencer from '@jest/test-sequencer';
import path from 'node:path';

/** Seconds, by path from the repository's root. */
const KNOWN_SECONDS = {
  'test/e2e/dashboard.test.ts': 179,
  'test/reliability/faults.test.ts': 163,
  'test/infra/templates.test.ts': 146,
  'test/reliability/fuzz.test.ts': 144,
  'test/e2e/walkthrough.test.ts': 130,
  'test/infra/bundles.test.ts': 100,
  'test/e2e/crash-recovery.test.ts': 91,
  'test/e2e/payments.test.ts': 80,
  'test/e2e/dashboard-spanish.test.ts': 65,
  'test/reliability/concurrency.test.ts': 57,
  'test/e2e/local-runtime.test.ts': 57,
  'test/e2e/network-connector.test.ts': 55,
  'test/e2e/dashboard-reports.test.ts': 55,
  'test/integration/report-runs.test.ts': 55,
  'test/e2e/webhook-delivery.test.ts': 53,
  'test/e2e/restart.test.ts': 46,
  'test/e2e/reports.test.ts': 41,
  'test/e2e/transfer-inquiry.test.ts': 38,
  'test/e2e/dashboard-privacy.test.ts': 37,
  'test/e2e/dashboard-overview.test.ts': 90,
  'test/e2e/dashboard-account.test.ts': 35,
  'test/e2e/dashboard-reconciliation.test.ts': 33,
  'test/e2e/inbound-approval.test.ts': 32,
  'test/e2e/reference-page.test.ts': 30,
  'test/unit/dependencies.test.ts': 29,
  'test/e2e/account-lists.test.ts': 28,
  'test/integration/payments.test.ts': 28,
  'test/integration/balance-invariant.test.ts': 26,
  'test/e2e/dashboard-tab-a-second.test.ts': 65,
  'test/e2e/dashboard-review.test.ts': 16,
  'test/e2e/audit-events.test.ts': 23,
  'test/reliability/dynamodb-restart.test.ts': 21,
  'test/e2e/network-directory.test.ts': 21,
  'test/e2e/stranded-work.test.ts': 21,
  'test/reliability/log-hygiene.test.ts': 21,
  'test/e2e/recipients.test.ts': 19,
  'test/integration/pagination.test.ts': 19,
  'test/integration/ledger.test.ts': 18,
  'test/e2e/link-merchant.test.ts': 18,
  'test/integration/sharded-lists.test.ts': 17,
  'test/integration/event-stream.test.ts': 16,
  'test/reliability/limits.test.ts': 16,
  'test/e2e/refunds.test.ts': 16,
  'test/e2e/webhook-disabling.test.ts': 15,
  'test/integration/audit-chain.test.ts': 15,
  'test/e2e/network-limits.test.ts': 14,
  'test/integration/refunds.test.ts': 14,
  'test/e2e/webhook-limits.test.ts': 14,
  'test/e2e/settlement-reconciliation.test.ts': 14,
  'test/e2e/webhooks.test.ts': 13,
  'test/e2e/network-returns.test.ts': 13,
  'test/e2e/round-trips.test.ts': 13,
  'test/reliability/edge-flood.test.ts': 12,
  'test/integration/qrcodes-repository.test.ts': 12,
  'test/e2e/audit-archive.test.ts': 12,
  'test/integration/xray.test.ts': 12,
  'test/e2e/qrcodes.test.ts': 12,
  'test/reliability/authorization.test.ts': 11,
  'test/integration/accounts-repository.test.ts': 11,
  'test/e2e/sharded-lists.test.ts': 11,
  'test/integration/create-table.test.ts': 11,
  'test/integration/s3-report-files.test.ts': 11,
  'test/integration/due-work.test.ts': 10,
  'test/integration/rate-limit-store.test.ts': 10,
  'test/unit/layers.test.ts': 10,
};

// A CommonJS module: its class is the `default` of what the import gives.
const JestSequencer = Sequencer.default ?? Sequencer;

export default class SlowestFirst extends JestSequencer {
  time(test) {
    const seconds = KNOWN_SECONDS[path.relative(test.context.config.rootDir, test.path).split(path.sep).join('/')];
    return super.time(test) ?? (seconds ?? 1) * 1000;
  }
}
