/**
 * Runtime settings of a function, read from its environment (the variables are named in env-names.ts).
 * The CDK stack sets them from the stage settings (infra/stages.ts); the local runtime from its own options.
 */
import { ENV } from './env-names';

export { ENV, QUEUE_ENV, SECRET_ENV, type QueueName, type SecretName } from './env-names';

export const DEFAULT_ACQUIRER_ID = 'RBM';

/**
 * The stage `npm start` runs on a developer's machine (infra/stages.ts): the only one whose webhooks
 * may call back to this machine's loopback (shared/domain/webhook-urls.ts).
 */
export const LOCAL_STAGE = 'local';

/** The `service` of every log line, metric and trace (POWERTOOLS_SERVICE_NAME in Lambda). */
export const SERVICE_NAME = 'breb-merchant-api';

/** CloudWatch namespace of the functions' own metrics when none is set (outside a stage's stack). */
export const METRICS_NAMESPACE = 'BrebMerchantApi';

/**
 * The namespace of a stage's own metrics (POWERTOOLS_METRICS_NAMESPACE in Lambda): one per stage, so
 * that stages deployed to one account and region never count each other's metrics in their alarms.
 */
export const stageMetricsNamespace = (stage: string): string => `${METRICS_NAMESPACE}/${stage}`;

/**
 * What one tenant (client id) may send, across every function and instance: a window of
 * `burst / requestsPerSecond` seconds admits `burst` requests (shared/http/tenant-rate-limit.ts).
 */
export interface TenantRateLimitSettings {
  /** The sustained rate a tenant may keep up. */
  readonly requestsPerSecond: number;
  /** The most requests of a tenant at once (at least requestsPerSecond: windows of one second or more). */
  readonly burst: number;
}

/** The value of TENANT_RATE_LIMIT for these settings. */
export const formatTenantRateLimit = ({ requestsPerSecond, burst }: TenantRateLimitSettings): string =>
  JSON.stringify({ requestsPerSecond, burst });

/**
 * The limit TENANT_RATE_LIMIT sets, or undefined for none. Read apart from RuntimeConfig: the shared
 * chain applies it to every function, whatever else the function needs.
 */
export function readTenantRateLimit(env: NodeJS.ProcessEnv = process.env): TenantRateLimitSettings | undefined {
  const value = env[ENV.tenantRateLimit];
  if (value === undefined || value === '') return undefined;
  const wrong = new Error(
    `Environment variable ${ENV.tenantRateLimit} must be {"requestsPerSecond":n,"burst":m} with integers 1 <= n <= m`,
  );
  let settings: { requestsPerSecond?: unknown; burst?: unknown };
  try {
    settings = JSON.parse(value) ?? {};
  } catch {
    throw wrong;
  }
  const { requestsPerSecond, burst } = settings;
  if (typeof requestsPerSecond !== 'number' || typeof burst !== 'number') throw wrong;
  if (
    !Number.isInteger(requestsPerSecond) ||
    !Number.isInteger(burst) ||
    requestsPerSecond < 1 ||
    burst < requestsPerSecond
  ) {
    throw wrong;
  }
  return { requestsPerSecond, burst };
}

export type RuntimeNetwork =
  { readonly kind: 'sandbox' } | { readonly kind: 'connector'; readonly url: string; readonly bankKeys: string };

/**
 * NETWORK, NETWORK_CONNECTOR_URL and NETWORK_BANK_KEYS: a connector without its URL or the bank's keys
 * is a broken deployment, never the simulator.
 */
export function readNetwork(env: NodeJS.ProcessEnv): RuntimeNetwork {
  const kind = env[ENV.network] || 'sandbox';
  if (kind === 'sandbox') return { kind };
  if (kind !== 'connector') throw new Error(`Environment variable ${ENV.network} must be sandbox or connector`);
  return { kind, url: required(env, ENV.networkConnectorUrl), bankKeys: required(env, ENV.networkBankKeys) };
}

export interface RuntimeConfig {
  readonly tableName: string;
  /** Unset means a deployed stage as far as any rule goes: only an explicit `local` relaxes one. */
  readonly stage: string | undefined;
  readonly sandboxEnabled: boolean;
  /** Where transfer orders and directory lookups go: the simulator and our table, or the sponsor bank's connector. */
  readonly network: RuntimeNetwork;
  readonly acquirerId: string;
  readonly participant: { readonly name: string; readonly nit: string };
  /** Undefined on functions whose route does not declare the `qrSigning` secret. */
  readonly qrSigningSecretArn: string | undefined;
  readonly dynamodbEndpoint: string | undefined;
  readonly dynamodbRequestTimeoutMs: number;
  readonly sandboxSettlementDelayMs: number;
  readonly maxPaymentCents: number;
  readonly refundWindowDays: number;
  readonly webhookTimeoutMs: number;
  readonly webhookRetryBaseMs: number;
  readonly approvalTimeoutMs: number;
  readonly sweepGraceMs: number;
}

/** The caps on credits from the network (networkLimits), in cents; each absent when the stage sets none. */
export interface NetworkLimits {
  readonly perCreditCents?: number;
  readonly perMerchantPerDayCents?: number;
}

const optionalPositiveInteger = (env: NodeJS.ProcessEnv, name: string): number | undefined =>
  env[name] ? positiveInteger(env, name, 0) : undefined;

/** NETWORK_CREDIT_MAX_CENTS and NETWORK_MERCHANT_DAY_MAX_CENTS, read at each use (as the grace below). */
export const readNetworkLimits = (env: NodeJS.ProcessEnv = process.env): NetworkLimits => {
  const perCredit = optionalPositiveInteger(env, ENV.networkCreditMaxCents);
  const perDay = optionalPositiveInteger(env, ENV.networkMerchantDayMaxCents);
  return {
    ...(perCredit === undefined ? {} : { perCreditCents: perCredit }),
    ...(perDay === undefined ? {} : { perMerchantPerDayCents: perDay }),
  };
};

/** DynamoDB answers in milliseconds: a call still unanswered after a second is retried or given up. */
export const DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS = 1_000;

/** A network answers in about a second: long enough that clients see PENDING and must wait for it. */
export const DEFAULT_SANDBOX_SETTLEMENT_DELAY_MS = 1_000;

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0)
    throw new Error(`Environment variable ${name} must be a positive integer`);
  return parsed;
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Environment variable ${name} is not set`);
  return value;
}

/** Our sponsor bank, as PARTICIPANT_NAME and PARTICIPANT_NIT name it. */
export const readParticipant = (env: NodeJS.ProcessEnv): RuntimeConfig['participant'] => ({
  name: env[ENV.participantName] ?? 'Banco Patrocinador Sandbox',
  nit: env[ENV.participantNit] ?? '860000001',
});

export function readRuntimeConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  return {
    tableName: required(env, ENV.tableName),
    stage: env[ENV.stage] || undefined,
    sandboxEnabled: env[ENV.sandboxEnabled] === 'true',
    network: readNetwork(env),
    acquirerId: env[ENV.acquirerId] || DEFAULT_ACQUIRER_ID,
    participant: readParticipant(env),
    qrSigningSecretArn: env[ENV.qrSigningSecretArn] || undefined,
    dynamodbEndpoint: env[ENV.dynamodbEndpoint] || env[ENV.awsEndpoint] || undefined,
    dynamodbRequestTimeoutMs: positiveInteger(env, ENV.dynamodbRequestTimeoutMs, DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS),
    sandboxSettlementDelayMs: positiveInteger(env, ENV.sandboxSettlementDelayMs, DEFAULT_SANDBOX_SETTLEMENT_DELAY_MS),
    maxPaymentCents: positiveInteger(env, ENV.maxPaymentCents, DEFAULT_MAX_PAYMENT_CENTS),
    refundWindowDays: positiveInteger(env, ENV.refundWindowDays, DEFAULT_REFUND_WINDOW_DAYS),
    webhookTimeoutMs: positiveInteger(env, ENV.webhookTimeoutMs, DEFAULT_WEBHOOK_TIMEOUT_MS),
    webhookRetryBaseMs: positiveInteger(env, ENV.webhookRetryBaseMs, DEFAULT_WEBHOOK_RETRY_BASE_MS),
    approvalTimeoutMs: positiveInteger(env, ENV.approvalTimeoutMs, DEFAULT_APPROVAL_TIMEOUT_MS),
    sweepGraceMs: readSweepGraceMs(env),
  };
}

/**
 * SWEEP_GRACE_MS, read at each run of the sweeper rather than once: the local runtime's runs in one
 * process (tests that start it again on the same table) may each have their own.
 */
export const readSweepGraceMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.sweepGraceMs, DEFAULT_SWEEP_GRACE_MS);

/** QUEUE_VISIBILITY_TIMEOUT_MS, read at each run of the sweeper (as the grace): undefined, the deployed ones. */
export const readQueueVisibilityTimeoutMs = (env: NodeJS.ProcessEnv = process.env): number | undefined =>
  env[ENV.queueVisibilityTimeoutMs] ? positiveInteger(env, ENV.queueVisibilityTimeoutMs, 0) : undefined;

/**
 * WEBHOOK_DISABLE_AFTER_MS, read at each batch of the sender rather than once, as the settings
 * below: tests sharing one local runtime may each shorten it for a moment.
 */
export const readWebhookDisableAfterMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.webhookDisableAfterMs, DEFAULT_WEBHOOK_DISABLE_AFTER_MS);

/**
 * How long the sender holds back an endpoint that failed its last attempts (WEBHOOK_BREAKER_COOL_DOWN_MS;
 * shared/domain/endpoint-breaker.ts): 30 s unless set (tests set a short one).
 */
export const readWebhookBreakerCoolDownMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.webhookBreakerCoolDownMs, DEFAULT_WEBHOOK_BREAKER_COOL_DOWN_MS);

export const DEFAULT_WEBHOOK_BREAKER_COOL_DOWN_MS = 30_000;

/** A webhook whose every delivery failed for 3 days is disabled (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

export const DEFAULT_TRANSFER_INQUIRY_AFTER_MS = 120_000;

export const DEFAULT_TRANSFER_REVIEW_AFTER_MS = 3_600_000;

/** TRANSFER_REVIEW_AFTER_MS, read at each use. */
export const readTransferReviewAfterMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.transferReviewAfterMs, DEFAULT_TRANSFER_REVIEW_AFTER_MS);

/** TRANSFER_INQUIRY_AFTER_MS, read at each use (as the grace above). */
export const readTransferInquiryAfterMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.transferInquiryAfterMs, DEFAULT_TRANSFER_INQUIRY_AFTER_MS);

/**
 * SWEEP_INTERVAL_MS as the sweeper reads it, at each run (as the grace above): unset on AWS, where
 * EventBridge runs it every minute (functions/workers.ts).
 */
export const readSweepIntervalMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.sweepIntervalMs, DEFAULT_SWEEP_INTERVAL_MS);

/** The sweeper's deployed schedule, `rate(1 minute)` in the worker table: every minute. */
export const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/** Without a stage's setting: COP 10,000,000.00 a payment (infra/stages.ts sets every stage's). */
export const DEFAULT_MAX_PAYMENT_CENTS = 1_000_000_000;

/** Personal data no law makes us keep is stored 30 days (docs/privacy.md, "Retention"). */
export const DEFAULT_PII_RETENTION_DAYS = 30;

/**
 * PII_RETENTION_DAYS, read at each use (as the grace above): a whole number of days, at least one,
 * so that the idempotency records' own 24 hours are never longer.
 */
export const readPiiRetentionDays = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.piiRetentionDays, DEFAULT_PII_RETENTION_DAYS);

/** A payment may be refunded for 90 days after its creation (docs/refunds.md). */
export const DEFAULT_REFUND_WINDOW_DAYS = 90;

/** A receiver has five seconds to answer 2xx (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

/** RETRY waits up to a minute before its first retry, the ceiling doubling each time (docs/webhooks.md). */
export const DEFAULT_WEBHOOK_RETRY_BASE_MS = 60_000;

/** An approval callback has three seconds to answer (docs/inbound-approval.md). */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 3_000;

/**
 * Work is stranded once this late: longer than a message takes to be handled (a settlement job, a
 * sender batch with its receivers' timeouts), so the sweeper rarely restarts work that was only slow.
 */
export const DEFAULT_SWEEP_GRACE_MS = 120_000;

let processConfig: RuntimeConfig | undefined;

/** The settings of this process, read once on first use (a function's environment never changes). */
export function runtimeConfig(): RuntimeConfig {
  processConfig ??= readRuntimeConfig();
  return processConfig;
}
