/** The functions' runtime settings, read from the variables the CDK stack sets (shared/runtime/config.ts). */
import {
  DEFAULT_ACQUIRER_ID,
  DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS,
  DEFAULT_PII_RETENTION_DAYS,
  DEFAULT_SANDBOX_SETTLEMENT_DELAY_MS,
  ENV,
  formatTenantRateLimit,
  readPiiRetentionDays,
  readRuntimeConfig,
  readTenantRateLimit,
  readWebhookDisableAfterMs,
  SECRET_ENV,
} from '../../shared/runtime/config';

const base = { [ENV.tableName]: 'breb-test' };

test('reads every setting the stack passes', () => {
  const config = readRuntimeConfig({
    ...base,
    [ENV.stage]: 'prod',
    [ENV.sandboxEnabled]: 'false',
    [ENV.acquirerId]: 'ACH',
    [ENV.participantName]: 'Banco X',
    [ENV.participantNit]: '900000001',
    [ENV.qrSigningSecretArn]: 'arn:aws:secretsmanager:us-east-1:1:secret:qr',
    [ENV.network]: 'connector',
    [ENV.networkConnectorUrl]: 'https://connector.example.com/',
    [ENV.networkBankKeys]: '{"keys":[]}',
  });
  expect(config).toEqual({
    tableName: 'breb-test',
    stage: 'prod',
    sandboxEnabled: false,
    network: { kind: 'connector', url: 'https://connector.example.com/', bankKeys: '{"keys":[]}' },
    acquirerId: 'ACH',
    participant: { name: 'Banco X', nit: '900000001' },
    qrSigningSecretArn: 'arn:aws:secretsmanager:us-east-1:1:secret:qr',
    dynamodbEndpoint: undefined,
    dynamodbRequestTimeoutMs: 1000,
    sandboxSettlementDelayMs: 1000,
    maxPaymentCents: 1_000_000_000,
    refundWindowDays: 90,
    webhookTimeoutMs: 5000,
    webhookRetryBaseMs: 60_000,
    approvalTimeoutMs: 3000,
    sweepGraceMs: 120_000,
  });
});

test('the sweeper restarts work two minutes late unless told otherwise', () => {
  expect(readRuntimeConfig({ ...base, [ENV.sweepGraceMs]: '500' }).sweepGraceMs).toBe(500);
  expect(() => readRuntimeConfig({ ...base, [ENV.sweepGraceMs]: '0' })).toThrow('SWEEP_GRACE_MS');
});

test('a payment may be refunded for 90 days unless told otherwise', () => {
  expect(readRuntimeConfig(base).refundWindowDays).toBe(90);
  expect(readRuntimeConfig({ ...base, [ENV.refundWindowDays]: '7' }).refundWindowDays).toBe(7);
  expect(() => readRuntimeConfig({ ...base, [ENV.refundWindowDays]: '0' })).toThrow('REFUND_WINDOW_DAYS');
});

test('an approval callback gets 3 s to answer unless told otherwise', () => {
  expect(readRuntimeConfig(base).approvalTimeoutMs).toBe(3000);
  expect(readRuntimeConfig({ ...base, [ENV.approvalTimeoutMs]: '250' }).approvalTimeoutMs).toBe(250);
  expect(() => readRuntimeConfig({ ...base, [ENV.approvalTimeoutMs]: '-1' })).toThrow('APPROVAL_TIMEOUT_MS');
});

test('webhooks get 5 s to answer and retry from a minute unless told otherwise', () => {
  expect(readRuntimeConfig(base)).toMatchObject({ webhookTimeoutMs: 5000, webhookRetryBaseMs: 60_000 });
  const set = readRuntimeConfig({ ...base, [ENV.webhookTimeoutMs]: '300', [ENV.webhookRetryBaseMs]: '5' });
  expect(set).toMatchObject({ webhookTimeoutMs: 300, webhookRetryBaseMs: 5 });
  expect(() => readRuntimeConfig({ ...base, [ENV.webhookRetryBaseMs]: '0' })).toThrow('WEBHOOK_RETRY_BASE_MS');
});

test('a webhook failing every attempt is disabled after 3 days unless told otherwise, read at each use', () => {
  expect(readWebhookDisableAfterMs({})).toBe(3 * 24 * 60 * 60 * 1000);
  expect(readWebhookDisableAfterMs({ [ENV.webhookDisableAfterMs]: '2000' })).toBe(2000);
  expect(() => readWebhookDisableAfterMs({ [ENV.webhookDisableAfterMs]: '0' })).toThrow('WEBHOOK_DISABLE_AFTER_MS');
});

test('the sandbox network settles after 1 s unless told otherwise, and refuses a delay that is not one', () => {
  expect(readRuntimeConfig(base).sandboxSettlementDelayMs).toBe(DEFAULT_SANDBOX_SETTLEMENT_DELAY_MS);
  expect(DEFAULT_SANDBOX_SETTLEMENT_DELAY_MS).toBe(1000);
  expect(readRuntimeConfig({ ...base, [ENV.sandboxSettlementDelayMs]: '50' }).sandboxSettlementDelayMs).toBe(50);
  for (const wrong of ['0', '-5', '1.5', 'soon']) {
    expect(() => readRuntimeConfig({ ...base, [ENV.sandboxSettlementDelayMs]: wrong })).toThrow(
      'SANDBOX_SETTLEMENT_DELAY_MS',
    );
  }
});

test('bounds each DynamoDB call at 1 s unless told otherwise, and refuses a bound that is not one', () => {
  expect(readRuntimeConfig(base).dynamodbRequestTimeoutMs).toBe(DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS);
  expect(DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS).toBe(1000);
  expect(readRuntimeConfig({ ...base, [ENV.dynamodbRequestTimeoutMs]: '250' }).dynamodbRequestTimeoutMs).toBe(250);
  for (const wrong of ['0', '-5', '1.5', 'soon']) {
    expect(() => readRuntimeConfig({ ...base, [ENV.dynamodbRequestTimeoutMs]: wrong })).toThrow(
      'DYNAMODB_REQUEST_TIMEOUT_MS',
    );
  }
});

test('defaults: the RBM acquirer network, no QR secret (only QR routes get one)', () => {
  const config = readRuntimeConfig(base);
  expect(config.acquirerId).toBe(DEFAULT_ACQUIRER_ID);
  expect(DEFAULT_ACQUIRER_ID).toBe('RBM');
  expect(config.qrSigningSecretArn).toBeUndefined();
});

test('without STAGE no stage is assumed, so no rule of the local stage applies (webhook URLs on loopback)', () => {
  expect(readRuntimeConfig(base).stage).toBeUndefined();
  expect(readRuntimeConfig({ ...base, [ENV.stage]: '' }).stage).toBeUndefined();
  expect(readRuntimeConfig({ ...base, [ENV.stage]: 'local' }).stage).toBe('local');
});

test('the table name is required, from the environment given', () => {
  expect(() => readRuntimeConfig({})).toThrow('TABLE_NAME');
});

test('each secret a route can name has the variable that carries its ARN', () => {
  expect(SECRET_ENV).toEqual({ qrSigning: 'QR_SIGNING_SECRET_ARN', network: 'NETWORK_SECRET_ARN' });
});

test("the sandbox network unless told otherwise; a connector is never without its URL or the bank's keys", () => {
  expect(readRuntimeConfig(base).network).toEqual({ kind: 'sandbox' });
  expect(() => readRuntimeConfig({ ...base, [ENV.network]: 'connector' })).toThrow('NETWORK_CONNECTOR_URL');
  expect(() =>
    readRuntimeConfig({ ...base, [ENV.network]: 'connector', [ENV.networkConnectorUrl]: 'https://bank.example/' }),
  ).toThrow('NETWORK_BANK_KEYS');
  expect(() => readRuntimeConfig({ ...base, [ENV.network]: 'pix' })).toThrow('NETWORK');
});

test("each tenant's rate limit: none unless set, as the stack writes it, and nothing malformed", () => {
  expect(readTenantRateLimit(base)).toBeUndefined();
  const settings = { requestsPerSecond: 10, burst: 20 };
  const variable = formatTenantRateLimit(settings);
  expect(variable).toBe('{"requestsPerSecond":10,"burst":20}');
  expect(readTenantRateLimit({ [ENV.tenantRateLimit]: variable })).toEqual(settings);
  for (const wrong of [
    '10/20',
    'null',
    '{"requestsPerSecond":10}',
    '{"requestsPerSecond":0,"burst":5}',
    '{"requestsPerSecond":10,"burst":5}',
    '{"requestsPerSecond":1.5,"burst":5}',
    '{"requestsPerSecond":"10","burst":"20"}',
  ]) {
    expect(() => readTenantRateLimit({ [ENV.tenantRateLimit]: wrong })).toThrow('TENANT_RATE_LIMIT');
  }
});

test('personal data no law makes us keep is kept 30 days unless told otherwise, at least a day', () => {
  expect(readPiiRetentionDays({})).toBe(DEFAULT_PII_RETENTION_DAYS);
  expect(DEFAULT_PII_RETENTION_DAYS).toBe(30);
  expect(readPiiRetentionDays({ [ENV.piiRetentionDays]: '7' })).toBe(7);
  expect(() => readPiiRetentionDays({ [ENV.piiRetentionDays]: '0' })).toThrow('PII_RETENTION_DAYS');
  expect(() => readPiiRetentionDays({ [ENV.piiRetentionDays]: '1.5' })).toThrow('PII_RETENTION_DAYS');
});
