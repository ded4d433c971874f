/**
 * The functions' own metrics (namespace METRICS_NAMESPACE, shared/runtime/config.ts) that the stack's
 * alarms and dashboard watch (infra/constructs/monitoring.ts): named once here, for the code that
 * publishes them and the alarms that read them, so an alarm cannot watch a name nothing publishes.
 */

/**
 * Requests let through because their tenant's rate-limit counter could not be written: meanwhile no
 * tenant is limited. Published with the request's `route` and `status` class, as every metric of a
 * request (shared/http/observability.ts).
 */
export const RATE_LIMIT_UNAVAILABLE_METRIC = 'TenantRateLimitUnavailable';

/**
 * Directory lookups (resolve-key, validate-key) by outcome, counted by the lookup budget
 * (shared/data/rate-limit-store.ts): the stack alarms when misses are most of them, the sign of a
 * client scanning the directory (docs/keys.md, Anti-scanning).
 */
export const LOOKUP_METRICS = {
  hits: 'DirectoryLookupHits',
  misses: 'DirectoryLookupMisses',
} as const;

/**
 * The webhook sender's attempts, counted by result (functions/send-webhook.ts), with the `service`
 * dimension alone: a delivery that succeeded, one given up (FAILED, alarmed), and an attempt that
 * failed with a retry to come.
 */
export const DELIVERY_METRICS = {
  SUCCEEDED: 'WebhookDeliveriesSucceeded',
  FAILED: 'WebhookDeliveriesFailed',
  RETRYING: 'WebhookAttemptsFailed',
} as const;

/**
 * The sweeper's runs (functions/sweep-stranded-work.ts), with the `service` dimension alone, every run
 * (0 included): how long the oldest stranded item it found had been waiting for its work, how many it
 * restarted, and how many due items it read (the depth of the index past its grace; alarmed).
 */
export const STRANDED_WORK_METRICS = {
  OLDEST_AGE: 'StrandedWorkOldestAge',
  RESTARTED: 'StrandedWorkRestarted',
  DUE_DEPTH: 'DueWorkDepth',
} as const;

/**
 * The work a sweeper's run restarted that had been waiting `minutes` or longer (shared/domain/sweep.ts,
 * STUCK_AGE_MINUTES), published as STRANDED_WORK_METRICS are: how much is stuck, by age (the
 * StrandedWork alarm reads the 15 minutes' count).
 */
export const strandedWorkOverMetric = (minutes: number): string => `StrandedWorkOver${minutes}Minutes`;

/**
 * A restart of a transfer (a payment's or a refund's) in review (docs/network.md, "Review"), counted
 * by the settlement job each time the sweeper restarts it: the stack alarms while any is published,
 * so the alarm ends when the last one is answered, and a new one raises it again.
 */
export const TRANSFERS_IN_REVIEW_METRIC = 'TransfersInReview';

/**
 * The breaks a reconciliation with the sponsor bank found in a day's file (docs/reconciliation.md,
 * "Against the bank"), every client's and those on accounts of none of ours, published by each run
 * that completes a file (0 included): the stack alarms on any.
 */
export const SETTLEMENT_BREAKS_METRIC = 'SettlementBreaks';

/**
 * A reversal of a network credit that left its merchant's account below zero (docs/network.md,
 * "Reversals"), counted by the reversal route: the stack alarms on any, since that money must be
 * recovered from the merchant.
 */
export const NEGATIVE_BALANCES_METRIC = 'NegativeBalances';

/**
 * A route's message to a queue that failed after its commit (functions/after-commit.ts): the request
 * answered the committed state all the same, and the sweeper starts the work. Published with the
 * request's `route` and `status` class; the StrandedWork alarm watches the work itself.
 */
export const QUEUE_SEND_FAILED_AFTER_COMMIT_METRIC = 'QueueSendsFailedAfterCommit';

/**
 * Each request to the sponsor bank's connector (shared/data/network-connector.ts), with the `service`
 * dimension alone: one call; a failure (no answer within the time limit, a refused connection, a 5xx,
 * a 408 or a 429: the connector is not taking our requests); and the milliseconds until its answer or the
 * failure. A connector outage fails no invocation (each message's failure is reported alone), so the
 * stack alarms on these: the share of failures a minute, and the p99 latency.
 */
export const CONNECTOR_METRICS = {
  calls: 'ConnectorCalls',
  failures: 'ConnectorFailures',
  latency: 'ConnectorLatency',
  /**
   * The network's answer time: milliseconds from a transfer's commit (its order sent at once) to the
   * status callback that answered it, published by the status route (functions/apply-transfer-status.ts)
   * for each callback that applied. Alarmed on its p99: answers slowing down, or callbacks lost (the
   * inquiry answers those, minutes late).
   */
  callbackLatency: 'ConnectorCallbackLatency',
} as const;
