/**
 * `npm start`: the API on http://127.0.0.1:3000 with DynamoDB Local, no AWS account, no network.
 * Settings: PORT, DATA_DIR (default .data; ':memory:' keeps nothing), TABLE_NAME,
 * DYNAMODB_ENDPOINT / AWS_ENDPOINT_URL (use that DynamoDB instead of starting DynamoDB Local),
 * THROTTLING (default: the edge's per-IP limit and its refusal of tokenless API requests, then the
 * local stage's API Gateway throttling, one bucket for every client, and its per-tenant limit in the
 * functions; `off` turns all three off for load tests),
 * LOCAL_SECRET_KEY (default: generated once into DATA_DIR/secret-key; the key that seals webhook and
 * approval secrets), DYNAMODB_REQUEST_TIMEOUT_MS (default 1000, Lambda's: a slow call fails as deployed), SANDBOX_SETTLEMENT_DELAY_MS (default 1000: how long a
 * payment to another participant stays PENDING), WEBHOOK_TIMEOUT_MS (default 5000), WEBHOOK_RETRY_BASE_MS
 * (default 60000) and WEBHOOK_DISABLE_AFTER_MS (default 259200000, 3 days) of the webhook sender, NETWORK_SECRET (the sandbox simulator's whsec_ secret; a new one each start when unset),
 * NETWORK_SIGNING_KEY (our Ed25519 key for the connector, JSON {"kid", "private_key_pem"}; a new one each start when unset),
 * NETWORK, NETWORK_CONNECTOR_URL and NETWORK_BANK_KEYS (`connector`, its base URL and the bank's JWKS: production's
 * network adapters, e.g. against `npm run fake-bank`),
 * APPROVAL_TIMEOUT_MS (default 3000: how long an inbound approval
 * callback has to answer), SWEEP_INTERVAL_MS (default 60000: how often the sweeper restarts stranded work; 0
 * or off: never) and SWEEP_GRACE_MS (default 120000: how late work must be to count as stranded),
 * LIST_SHARDS (the clients whose payment and delivery lists are sharded: shared/data/list-shards.ts),
 * the test-only fault switches of infra/local/faults.ts, CLOUD_ASSEMBLY (run the Lambda bundles of this
 * synthesized cloud assembly, e.g. dist/cdk.out after `npm run build`, instead of the TypeScript sources).
 */
import { DOCUMENT_PATH, REFERENCE_PATH } from '../../shared/http/contract-pages';
import { ENV, readNetwork, readNetworkLimits } from '../../shared/runtime/config';
import { parseListShards } from '../../shared/data/list-shards';
import { SANDBOX_CLIENTS } from './oauth';
import { DASHBOARD_PATH, SANDBOX_PEOPLE } from './people';
import { SANDBOX_MERCHANT } from './sandbox-fixtures';
import { parseSweepInterval } from './local-schedule';
import { startLocalRuntime } from './runtime';
import { loggable } from '../../shared/observability/loggable-error';

const env = process.env;
const dynamodbEndpoint = env[ENV.dynamodbEndpoint] || env[ENV.awsEndpoint];
const dataDir = env['DATA_DIR'] ?? '.data';
const sweepIntervalMs = parseSweepInterval(env['SWEEP_INTERVAL_MS']);

const runtime = await startLocalRuntime({
  port: Number(env['PORT'] ?? 3000),
  dataDir,
  ...(env[ENV.tableName] ? { tableName: env[ENV.tableName] } : {}),
  ...(dynamodbEndpoint ? { dynamodbEndpoint } : {}),
  ...(env['THROTTLING'] === 'off'
    ? {}
    : { edge: 'stage' as const, throttling: 'stage' as const, tenantRateLimit: 'stage' as const }),
  ...(env[ENV.dynamodbRequestTimeoutMs] ? { dynamodbRequestTimeoutMs: Number(env[ENV.dynamodbRequestTimeoutMs]) } : {}),
  ...(env[ENV.sandboxSettlementDelayMs] ? { sandboxSettlementDelayMs: Number(env[ENV.sandboxSettlementDelayMs]) } : {}),
  ...(env[ENV.webhookTimeoutMs] ? { webhookTimeoutMs: Number(env[ENV.webhookTimeoutMs]) } : {}),
  ...(env[ENV.webhookRetryBaseMs] ? { webhookRetryBaseMs: Number(env[ENV.webhookRetryBaseMs]) } : {}),
  ...(env[ENV.webhookDisableAfterMs] ? { webhookDisableAfterMs: Number(env[ENV.webhookDisableAfterMs]) } : {}),
  ...(env[ENV.approvalTimeoutMs] ? { approvalTimeoutMs: Number(env[ENV.approvalTimeoutMs]) } : {}),
  ...(sweepIntervalMs === undefined ? {} : { sweepIntervalMs }),
  ...(env[ENV.sweepGraceMs] ? { sweepGraceMs: Number(env[ENV.sweepGraceMs]) } : {}),
  ...(env[ENV.transferInquiryAfterMs] ? { transferInquiryAfterMs: Number(env[ENV.transferInquiryAfterMs]) } : {}),
  ...(env[ENV.transferReviewAfterMs] ? { transferReviewAfterMs: Number(env[ENV.transferReviewAfterMs]) } : {}),
  ...(env[ENV.listShards] ? { listShards: parseListShards(env[ENV.listShards]) } : {}),
  // NETWORK_CREDIT_MAX_CENTS, NETWORK_MERCHANT_DAY_MAX_CENTS: a production stage's networkLimits.
  networkLimits: readNetworkLimits(env),
  ...(env['CLOUD_ASSEMBLY'] ? { cloudAssembly: env['CLOUD_ASSEMBLY'] } : {}),
  // NETWORK=connector with NETWORK_CONNECTOR_URL: production's network adapters, against a connector
  // such as `npm run fake-bank`'s; unset, the sandbox simulator.
  ...(env[ENV.network] ? { network: readNetwork(env) } : {}),
});

const client = SANDBOX_CLIENTS[0]!;
console.log(`Bre-B merchant API listening on ${runtime.url}
  DynamoDB: ${runtime.dynamodbEndpoint} (table ${runtime.tableName}; data: ${dynamodbEndpoint ? 'external' : dataDir})
  Functions: ${env['CLOUD_ASSEMBLY'] ? `the Lambda bundles of ${env['CLOUD_ASSEMBLY']}` : 'the TypeScript sources'}
  The API's description, without a token: ${runtime.url}${DOCUMENT_PATH} (OpenAPI 3.1), ${runtime.url}${REFERENCE_PATH} (reference page)
  Network: ${env[ENV.network] === 'connector' ? `the connector at ${env[ENV.networkConnectorUrl]}, the bank's keys from NETWORK_BANK_KEYS` : 'the sandbox simulator'}
  Our signing keys for the network (NETWORK_SIGNING_KEY): ${runtime.url}/network/v1/keys
  The simulator's secret (NETWORK_SECRET; signs its in-process calls): ${runtime.networkSecret ?? 'from NETWORK_SECRET_ARN'}
  Sandbox clients: ${SANDBOX_CLIENTS.map((c) => `${c.clientId}/${c.clientSecret}`).join(', ')}
  Approved sandbox merchant: NIT ${SANDBOX_MERCHANT.identification_number}, accounts ${SANDBOX_MERCHANT.accounts.join(', ')}
  Merchant dashboard: ${runtime.url}${DASHBOARD_PATH}
    sign in as ${SANDBOX_PEOPLE.map((p) => `${p.username}/${p.password}`).join(', ')}
  Get a token:
    curl -s -u ${client.clientId}:${client.clientSecret} -d grant_type=client_credentials ${runtime.url}/oauth2/token
Press Ctrl-C to stop.`);

let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping the API and DynamoDB Local`);
  runtime.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(loggable(error));
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
