/**
 * Runtime settings of a function, read from its environment. The CDK stack sets these variables
 * from the stage settings (infra/stages.ts); the local runtime sets them from its own options.
 */
export const ENV = {
  tableName: 'TABLE_NAME',
  stage: 'STAGE',
  sandboxEnabled: 'SANDBOX_ENABLED',
  /** The acquirer network the merchants' payments are routed through (e.g. 'RBM'). */
  acquirerId: 'ACQUIRER_ID',
  participantName: 'PARTICIPANT_NAME',
  participantNit: 'PARTICIPANT_NIT',
  /** Secrets Manager ARN of the QR signing key; set only on the functions of routes that use it. */
  qrSigningSecretArn: 'QR_SIGNING_SECRET_ARN',
  /**
   * The QR signing keys themselves, as the secret's JSON: set by the local runtime only (it has no
   * Secrets Manager), never by the stack.
   */
  qrSigningSecret: 'QR_SIGNING_SECRET',
  /** `sandbox` (the simulator answers transfer orders) or `connector` (docs/network.md); unset: sandbox. */
  network: 'NETWORK',
  /** The base URL of a `connector` stage's connector: its transfer orders and directory lookups go under it. */
  networkConnectorUrl: 'NETWORK_CONNECTOR_URL',
  /** Secrets Manager ARN of the network connector's signing secrets; set on the functions that sign or verify. */
  networkSecretArn: 'NETWORK_SECRET_ARN',
  /** The connector's signing secret itself (a `whsec_` value): set by the local runtime only. */
  networkSecret: 'NETWORK_SECRET',
  /**
   * Our Ed25519 signing key for the connector, JSON `{"kid", "private_key_pem"}`: set by the local
   * runtime only (deployed, it is the network secret's `signing_keys`).
   */
  networkSigningKey: 'NETWORK_SIGNING_KEY',
  /** The sponsor bank's public keys, a JWKS as JSON: what a connector stage verifies the bank's requests with. */
  networkBankKeys: 'NETWORK_BANK_KEYS',
  /**
   * The customer-managed KMS key that seals webhook, approval and connector secrets: set by the stack
   * only on the functions whose entry declares `sealing` (shared/data/secret-sealing.ts).
   */
  secretKeyArn: 'SECRET_KEY_ARN',
  /**
   * The local stand-in of that key (32 bytes, Base64): set by the local runtime only, which has no
   * KMS, never by the stack.
   */
  localSecretKey: 'LOCAL_SECRET_KEY',
  /** Overrides the DynamoDB endpoint: DynamoDB Local, LocalStack (http://localhost:4566). */
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  awsEndpoint: 'AWS_ENDPOINT_URL',
  /** How long one DynamoDB call may take before the SDK abandons it (and retries); see shared/data/client.ts. */
  dynamodbRequestTimeoutMs: 'DYNAMODB_REQUEST_TIMEOUT_MS',
  /**
   * Each tenant's request limit, as JSON `{"requestsPerSecond":n,"burst":m}` (formatTenantRateLimit);
   * unset: no limit (the local runtime leaves it unset unless asked, so tests run unthrottled).
   */
  tenantRateLimit: 'TENANT_RATE_LIMIT',
  /**
   * The clients whose payment and delivery lists are split in shards, and from when (JSON; unset: none):
   * shared/data/list-shards.ts.
   */
  listShards: 'LIST_SHARDS',
  /** The most one payment may move, in cents (the stage's maxPaymentCents); above it 400 AMOUNT_ABOVE_LIMIT. */
  maxPaymentCents: 'MAX_PAYMENT_CENTS',
  /**
   * The stage's networkLimits (docs/network.md, "Limits"): the most one credit from the network may
   * carry, and the most the network may credit one merchant in a Bogotá day, in cents. Unset: no cap
   * but MAX_PAYMENT_CENTS.
   */
  networkCreditMaxCents: 'NETWORK_CREDIT_MAX_CENTS',
  networkMerchantDayMaxCents: 'NETWORK_MERCHANT_DAY_MAX_CENTS',
  /** How many days after its creation an INBOUND payment may be refunded (docs/refunds.md; default 90). */
  refundWindowDays: 'REFUND_WINDOW_DAYS',
  /** How long the sandbox network takes to settle a payment to another participant (milliseconds). */
  sandboxSettlementDelayMs: 'SANDBOX_SETTLEMENT_DELAY_MS',
  /** URL of the SQS queue of settlement jobs (set by the stack on the functions that send to it). */
  settlementQueueUrl: 'SETTLEMENT_QUEUE_URL',
  /** URL of the SQS queue of webhook deliveries and their retries. */
  webhookDeliveryQueueUrl: 'WEBHOOK_DELIVERY_QUEUE_URL',
  /**
   * URL of the SQS queue of the stream batches the dispatcher's event source gave up on (its on-failure
   * destination, which Lambda writes to): read by the re-drive worker, sent to by no function of ours.
   */
  streamFailureQueueUrl: 'STREAM_FAILURE_QUEUE_URL',
  /** How long a webhook receiver has to answer 2xx (milliseconds; default 5000). */
  webhookTimeoutMs: 'WEBHOOK_TIMEOUT_MS',
  /**
   * The first retry's longest delay of a RETRY webhook; the n-th waits between half and all of
   * base × 2^(n-1), at most a day (milliseconds; default 60000).
   */
  webhookRetryBaseMs: 'WEBHOOK_RETRY_BASE_MS',
  /**
   * How long every delivery attempt of a webhook must have failed before it is disabled
   * (milliseconds; default 259200000, 3 days; docs/webhooks.md, "Disabled webhooks").
   */
  webhookDisableAfterMs: 'WEBHOOK_DISABLE_AFTER_MS',
  /** How long a client's inbound approval callback has to answer (milliseconds; default 3000). */
  approvalTimeoutMs: 'APPROVAL_TIMEOUT_MS',
  /** Who records the traces: `xray` (the default) or `otel` (docs/tracing.md; set by the stack on an ADOT stage). */
  tracing: 'TRACING',
  /** How long work may be late before the sweeper restarts it (milliseconds; default 120000). */
  sweepGraceMs: 'SWEEP_GRACE_MS',
  /**
   * How long a transfer may wait for the network's answer before we ask the connector for it instead
   * of sending its order again (milliseconds; default 120000).
   */
  transferInquiryAfterMs: 'TRANSFER_INQUIRY_AFTER_MS',
  /** How long a transfer may wait for the network's answer before it goes to review (milliseconds; default 3600000). */
  transferReviewAfterMs: 'TRANSFER_REVIEW_AFTER_MS',
  /**
   * How often the sweeper runs (milliseconds; default 60000, the deployed schedule, which the stack
   * leaves it at): set by the local runtime, whose sweeps may come far more often. The sweeper shares
   * the due index's shards among the runs of a minute by it (shared/data/due-work.ts).
   */
  sweepIntervalMs: 'SWEEP_INTERVAL_MS',
  /** URL of the SQS queue of report runs (docs/reconciliation.md, "Reports"). */
  reportQueueUrl: 'REPORT_QUEUE_URL',
  /** URL of the SQS queue of settlement file reconciliations (docs/reconciliation.md, "Against the bank"). */
  reconciliationQueueUrl: 'RECONCILIATION_QUEUE_URL',
  /**
   * The S3 bucket of the report files: set by the stack only on the functions whose entry declares
   * `reportFiles` (shared/data/report-files.ts).
   */
  reportBucketName: 'REPORT_BUCKET_NAME',
  /** The folder of the report files on a developer's machine: set by the local runtime only, never by the stack. */
  reportFilesDir: 'REPORT_FILES_DIR',
  /** The local server's base URL of report downloads (`<server>/local-files`): set by the local runtime only. */
  localFilesUrl: 'LOCAL_FILES_URL',
  /**
   * How many days personal data no law makes us keep is stored (docs/privacy.md): a resolution's
   * owner data and an idempotency record's stored answer expire by the table's TTL (default 30).
   */
  piiRetentionDays: 'PII_RETENTION_DAYS',
  /**
   * The audit events' Object Lock bucket (docs/audit.md, "The Object Lock copy"): set by the stack on
   * the audit archiver only (shared/data/audit-archive.ts).
   */
  auditArchiveBucketName: 'AUDIT_ARCHIVE_BUCKET_NAME',
  /** Its stand-in on a developer's machine, a folder: set by the local runtime only, never by the stack. */
  auditArchiveDir: 'AUDIT_ARCHIVE_DIR',
} as const;

/**
 * The secrets a route may ask for in the route table (`secrets: ['qrSigning']`), each with the
 * variable that carries its ARN. The stack grants read access only to the routes that name it.
 */
export const SECRET_ENV = {
  qrSigning: ENV.qrSigningSecretArn,
  network: ENV.networkSecretArn,
} as const;

export type SecretName = keyof typeof SECRET_ENV;

/**
 * The queues of the later work (shared/data/queues.ts), each with the variable that carries its URL
 * on AWS. The route and worker tables name the queues a function sends to (`queues: [...]`); the
 * stack sets the URL and grants SendMessage only on those.
 */
export const QUEUE_ENV = {
  settlement: ENV.settlementQueueUrl,
  webhookDeliveries: ENV.webhookDeliveryQueueUrl,
  streamFailures: ENV.streamFailureQueueUrl,
  reports: ENV.reportQueueUrl,
  reconciliations: ENV.reconciliationQueueUrl,
} as const;

export type QueueName = keyof typeof QUEUE_ENV;

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

/**
 * WEBHOOK_DISABLE_AFTER_MS, read at each batch of the sender rather than once, as the settings
 * below: tests sharing one local runtime may each shorten it for a moment.
 */
export const readWebhookDisableAfterMs = (env: NodeJS.ProcessEnv = process.env): number =>
  positiveInteger(env, ENV.webhookDisableAfterMs, DEFAULT_WEBHOOK_DISABLE_AFTER_MS);

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
