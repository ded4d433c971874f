/**
 * The names of a function's environment variables: the CDK stack sets them from the stage settings
 * (infra/stages.ts), the local runtime from its own options, and shared/runtime/config.ts reads them.
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
  creditDecisionQueueUrl: 'CREDIT_DECISION_QUEUE_URL',
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
  webhookBreakerCoolDownMs: 'WEBHOOK_BREAKER_COOL_DOWN_MS',
  /** How long a client's inbound approval callback has to answer (milliseconds; default 3000). */
  approvalTimeoutMs: 'APPROVAL_TIMEOUT_MS',
  /** Who records the traces: `xray` (the default) or `otel` (docs/tracing.md; set by the stack on an ADOT stage). */
  tracing: 'TRACING',
  /** How long work may be late before the sweeper restarts it (milliseconds; default 120000). */
  sweepGraceMs: 'SWEEP_GRACE_MS',
  /**
   * The visibility timeout of every queue, when the local runtime's differs from the deployed ones
   * (milliseconds; tests wait a second, not minutes): how long the sweeper leaves work it restarted.
   * Unset on AWS, where the worker table gives each queue's (functions/workers.ts).
   */
  queueVisibilityTimeoutMs: 'QUEUE_VISIBILITY_TIMEOUT_MS',
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
  creditDecisions: ENV.creditDecisionQueueUrl,
  webhookDeliveries: ENV.webhookDeliveryQueueUrl,
  streamFailures: ENV.streamFailureQueueUrl,
  reports: ENV.reportQueueUrl,
  reconciliations: ENV.reconciliationQueueUrl,
} as const;

export type QueueName = keyof typeof QUEUE_ENV;
