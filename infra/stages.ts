/**
 * Stage settings in one typed place. `cdk deploy -c stage=<name>` picks one; `local` targets
 * LocalStack. Every difference between environments lives here, nowhere else.
 */
import { parseJwks } from '../shared/domain/message-signatures';
import { RemovalPolicy } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Access } from '../functions/routes';
import { DASHBOARD_CLIENT_ID } from './local/people';
import {
  DEFAULT_PII_RETENTION_DAYS,
  ENV,
  formatTenantRateLimit,
  type QueueName,
  type TenantRateLimitSettings,
} from '../shared/runtime/config';
import { formatListShards, type ListShardSettings } from '../shared/data/list-shards';

export type StageName = 'local' | 'dev' | 'staging' | 'prod';

/** An OAuth2 client-credentials app client. Its client id is the tenant of what it creates. */
export interface AppClientSettings {
  /** Name of the client in Cognito, e.g. the platform it is issued to. */
  readonly name: string;
  /** `full`: every scope of the route table; `read`: only the `.read` scopes. */
  readonly access: Access;
}

/** Tokens come from this stack's own Cognito user pool (client-credentials flow). */
export interface CognitoIdentitySettings {
  readonly kind: 'cognito';
  /**
   * Prefix of the hosted domain that serves the token endpoint,
   * https://<prefix>.auth.<region>.amazoncognito.com/oauth2/token. Unique per region across AWS.
   */
  readonly domainPrefix: string;
  readonly clients: readonly AppClientSettings[];
  /**
   * Cognito's Plus tier with threat protection enforcing, and the people's refresh tokens rotated at
   * each use: production, where real staff sign in.
   */
  readonly threatProtection: boolean;
}

/** Tokens come from an identity provider outside the stack. */
export interface ExternalIdentitySettings {
  readonly kind: 'external';
  /** The tokens' `iss`; API Gateway reads its OIDC discovery document and JWKS. */
  readonly issuer: string;
  /** Accepted `aud` (or, for Cognito-style access tokens, `client_id`) values. */
  readonly audience: readonly string[];
  /** Where clients get the tokens: the OpenAPI document's client-credentials flow names it. */
  readonly tokenUrl: string;
}

export type IdentitySettings = CognitoIdentitySettings | ExternalIdentitySettings;

/**
 * Who records the functions' traces (docs/tracing.md). `xray`: our X-Ray writer
 * (shared/observability/xray.ts). `adot`: OpenTelemetry (shared/observability/otel.ts), whose spans
 * the AWS Distro for OpenTelemetry layer at `layerArn` exports (the AWSOpenTelemetryDistroJs layer
 * of the stage's region, for arm64). Lambda's active tracing stays on in both.
 */
export type TracingSettings = { readonly kind: 'xray' } | { readonly kind: 'adot'; readonly layerArn: string };

/**
 * Where payments to other participants go, and credits come from (docs/network.md). `sandbox`: the
 * simulator answers transfer orders itself (SANDBOX_SETTLEMENT_DELAY_MS, amounts ending in .99
 * rejected). `connector`: signed transfer orders are POSTed to the sponsor bank's connector at `url`,
 * which may instead come from the context value `networkConnectorUrl` (resolveNetwork).
 */
export type NetworkSettings =
  | { readonly kind: 'sandbox' }
  | {
      readonly kind: 'connector';
      readonly url?: string;
      /** The bank's public keys, a JWKS as JSON (or the context value `networkBankKeys`). */
      readonly bankKeys?: string;
      /**
       * Where the bank reaches the `/network/` routes: a regional custom domain of their own with mutual
       * TLS, not CloudFront, which passes no client certificate (or the context values
       * `networkDomainName`, `networkCertificateArn`, `networkTruststoreUri`).
       */
      readonly domain?: Partial<NetworkDomainSettings>;
    };

/**
 * The network's own custom domain (docs/network.md, "How the bank reaches us"): API Gateway asks every
 * caller for a client certificate issued under the truststore's CAs, so only the bank connects.
 */
export interface NetworkDomainSettings {
  /** The name the bank calls, e.g. network.api.example.com: a CNAME to the NetworkDomainTarget output. */
  readonly domainName: string;
  /** The ACM certificate of domainName, in the stage's region (a regional domain). */
  readonly certificateArn: string;
  /** The CA bundle (PEM) the bank's client certificates chain to: `s3://<bucket>/<key>`. */
  readonly truststoreUri: string;
  /**
   * The S3 version of the bundle (context value `networkTruststoreVersion`, optional): a new version
   * given here is what makes API Gateway read the bundle again (docs/network.md, rotating it).
   */
  readonly truststoreVersion?: string;
}

/** The context value (`cdk synth -c networkConnectorUrl=https://...`) that gives a stage its connector's URL. */
export const NETWORK_CONNECTOR_URL_CONTEXT = 'networkConnectorUrl';
/** The context value (`-c networkBankKeys='{"keys":[...]}'`) that gives a connector stage the bank's public keys. */
export const NETWORK_BANK_KEYS_CONTEXT = 'networkBankKeys';

/**
 * The context values (`-c networkDomainName=...`) of the network's own domain, each the field of
 * NetworkDomainSettings it gives. The version is optional; a connector stage needs the other three.
 */
export const NETWORK_DOMAIN_CONTEXT = {
  domainName: 'networkDomainName',
  certificateArn: 'networkCertificateArn',
  truststoreUri: 'networkTruststoreUri',
  truststoreVersion: 'networkTruststoreVersion',
} as const satisfies Record<keyof NetworkDomainSettings, string>;

/** The connector URL of the documentation, which synthesis checks use (never deployed). */
export const EXAMPLE_CONNECTOR_URL = 'https://connector.example.com';
/** The bank's keys of the documentation (RFC 9421's test key), which synthesis checks use (never deployed). */
export const EXAMPLE_BANK_KEYS = JSON.stringify({
  keys: [{ kty: 'OKP', crv: 'Ed25519', kid: 'test-key-ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }],
});

/** The network domain of the documentation, which synthesis checks use (never deployed). */
export const EXAMPLE_NETWORK_DOMAIN: NetworkDomainSettings = {
  domainName: 'network.api.merchants.example.com',
  certificateArn: 'arn:aws:acm:us-east-2:111122223333:certificate/2b3c4d5e-6f70-8192-a3b4-c5d6e7f8091a',
  truststoreUri: 's3://breb-merchant-api-prod-truststore/network/bank-ca.pem',
};

/**
 * The edge of a stage (docs/operations.md, "The edge"): CloudFront, with the WAF web ACL of the
 * us-east-1 edge stack (infra/edge-stack.ts), in front of the API and the dashboard, the API's own
 * execute-api endpoint disabled. Its names, certificates and the web ACL exist outside this stack, so
 * they come from the CDK context (`edge` → `<stage>` → these fields), read by infra/edge.ts.
 */
export interface EdgeSettings {
  /** The public name of the API and the dashboard (CloudFront's alternate domain), e.g. api.example.com. */
  readonly domainName: string;
  /** The ACM certificate of domainName, in us-east-1 (where CloudFront takes its certificates). */
  readonly certificateArn: string;
  /**
   * The API's own custom domain, CloudFront's origin, e.g. origin.api.example.com: a CNAME to the
   * API's regional domain name (the ApiOriginTarget output). Callers never use it.
   */
  readonly originDomainName: string;
  /** The ACM certificate of originDomainName, in the stage's region. */
  readonly originCertificateArn: string;
  /** The web ACL of the stage's edge stack (its WebAclArn output), scope CLOUDFRONT, in us-east-1. */
  readonly webAclArn: string;
}

/** What the stage asks of its edge, and the web ACL's limits (infra/edge-stack.ts). */
export interface EdgePolicy {
  /** A stage without its edge settings fails to synthesize; elsewhere the edge is optional. */
  readonly required: boolean;
  /**
   * Requests one client IP may send in any 5 minutes before the web ACL blocks it (WAF's rate-based
   * rule): above a tenant's own limit over that time, so the API's machines are never cut off by it,
   * and a flood from a few addresses stops at the edge.
   */
  readonly requestsPerIpPer5Minutes: number;
}

export interface StageSettings {
  readonly name: StageName;
  /** The acquirer network merchants' payments go through (ACQUIRER_ID of the functions). */
  readonly acquirerId: string;
  /** The sponsor bank: the participant that holds our merchants' accounts. */
  readonly participant: { readonly name: string; readonly nit: string };
  /** Who issues the access tokens that the JWT authorizer accepts. */
  readonly identity: IdentitySettings;
  /** Sandbox operator routes (/sandbox/...) are deployed only where this is true. */
  readonly sandboxEnabled: boolean;
  /** The network the stage's money moves through: never the simulator where the sandbox is off. */
  readonly network: NetworkSettings;
  /**
   * The functions' application log level (Lambda's filter, and their logger's). No higher than INFO:
   * Lambda counts the metrics' EMF lines, which carry no level, as INFO (service-function.ts).
   */
  readonly logLevel: 'DEBUG' | 'INFO';
  /**
   * Requests per second (steady rate) and burst for the whole API stage: API Gateway's one token
   * bucket, shared by every caller. Kept well above tenantRateLimit (a test checks by how much), so
   * that a tenant within its limit leaves most of the stage to the others.
   */
  readonly throttling: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * Requests per second and burst of each route the network connector calls (/network/...): a bucket
   * of its own, apart from the clients' routes, sized for the network's traffic to us.
   */
  readonly networkThrottling: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * What one tenant may send, enforced by the functions across all their instances (DynamoDB
   * counters; shared/http/tenant-rate-limit.ts): past it, 429 RATE_LIMITED with Retry-After.
   */
  readonly tenantRateLimit: TenantRateLimitSettings;
  /**
   * The most one payment may move, in cents, out or in (MAX_PAYMENT_CENTS): above it, 400
   * AMOUNT_ABOVE_LIMIT. The sponsor bank's limit per transfer bounds production's.
   */
  readonly maxPaymentCents: number;
  /**
   * How many days a resolution's owner data and an idempotency record's answer are kept before the
   * table's TTL removes them (PII_RETENTION_DAYS; docs/privacy.md, "Retention").
   */
  readonly piiRetentionDays: number;
  /**
   * Caps on credits from the network, in cents (NETWORK_CREDIT_MAX_CENTS,
   * NETWORK_MERCHANT_DAY_MAX_CENTS; docs/network.md, "Limits"): the most one credit may carry, and
   * the most the network may credit one merchant in a Bogotá day. Past either, the credit is REJECTED
   * with nothing written. Absent: no cap but maxPaymentCents.
   */
  readonly networkLimits?: { readonly perCreditCents: number; readonly perMerchantPerDayCents: number };
  /**
   * The clients (app client ids) whose payment and delivery lists are split in shards, each with its
   * layouts from a time on (LIST_SHARDS; shared/data/list-shards.ts, docs/scale.md). For a client above
   * some 150 payments a second; a layout is added, never removed, and dated after its deploy.
   */
  readonly listShards?: ListShardSettings;
  readonly edge: EdgePolicy;
  /**
   * The most instances of each queue's consumer at once (the SQS event source's maximum concurrency,
   * at least 2). Their sum stays a small share of the account's Lambda concurrency, so that a burst of
   * later work (deliveries to slow receivers) never takes what the API routes need
   * (docs/operations.md, "Concurrency").
   */
  readonly queueConsumerConcurrency: Readonly<Record<QueueName, number>>;
  /** How long function, access and alarm logs are kept. */
  readonly logRetention: RetentionDays;
  /**
   * How long each audit event's copy in the Object Lock bucket is locked, in compliance mode
   * (docs/audit.md, "The Object Lock copy"): five years where data is kept, a day on throwaway stages.
   * Compliance mode cannot be shortened, nor an object deleted, before it ends.
   */
  readonly auditArchiveRetentionDays: number;
  readonly tracing: TracingSettings;
  /**
   * Production data (table, user pool, QR secret, logs) survives stack deletion and mistakes;
   * elsewhere `cdk destroy` removes everything.
   */
  readonly retainData: boolean;
  readonly alarms: {
    /**
     * Subscribed to the alarm topic when set (the address must confirm the subscription); the context
     * value `alarmEmail` gives it too (resolveAlarms).
     */
    readonly email?: string;
    /**
     * An SNS topic that already reaches someone (an on-call tool's, a chat's): every alarm publishes to
     * it too. The context value `alarmTopicArn` gives it too.
     */
    readonly topicArn?: string;
    /** API answers slower than this at p99 over 5 minutes raise an alarm. */
    readonly latencyP99Ms: number;
    /** More than this share (%) of 5xx answers over 5 minutes raises an alarm. */
    readonly serverErrorRatePercent: number;
    /** This many 401s, 403s or 429s (each counted apart) in 5 minutes: a surge of refusals, an alarm. */
    readonly refusalsPer5Minutes: number;
    /**
     * This many 401s on the `/network/` routes in 5 minutes raise an alarm of their own: the bank signs
     * every request, so a few are a key rotated on one side only, or someone forging the bank.
     */
    readonly network401Per5Minutes: number;
  };
}

/** Every stage routes through the same acquirer network and sponsor bank (the participant). */
const network = {
  acquirerId: 'RBM',
  participant: { name: 'Banco Patrocinador S.A.', nit: '860000001' },
  // COP 10,000,000.00 a payment: well below the 13 integer digits an amount may carry.
  maxPaymentCents: 1_000_000_000,
} as const;

/** X-Ray on every stage until one is switched to ADOT (docs/tracing.md, "Switching a stage"). */
const xray: TracingSettings = { kind: 'xray' };

/** One client with every scope and one that can only read, as the local sandbox offers. */
const defaultClients: readonly AppClientSettings[] = [
  { name: 'full-access', access: 'full' },
  { name: 'read-only', access: 'read' },
];

const cognito = (stage: StageName): CognitoIdentitySettings => ({
  kind: 'cognito',
  domainPrefix: `breb-merchant-api-${stage}`,
  clients: defaultClients,
  threatProtection: stage === 'prod',
});

/** What the two throwaway stages share: the sandbox on, verbose logs, small limits, nothing kept. */
const throwaway = {
  ...network,
  tracing: xray,
  piiRetentionDays: DEFAULT_PII_RETENTION_DAYS,
  sandboxEnabled: true,
  network: { kind: 'sandbox' },
  logLevel: 'DEBUG',
  throttling: { rateLimit: 50, burstLimit: 100 },
  networkThrottling: { rateLimit: 20, burstLimit: 40 },
  tenantRateLimit: { requestsPerSecond: 10, burst: 20 },
  queueConsumerConcurrency: {
    settlement: 5,
    creditDecisions: 2,
    webhookDeliveries: 10,
    streamFailures: 2,
    reports: 2,
    reconciliations: 2,
  },
  retainData: false,
  auditArchiveRetentionDays: 1,
  // Optional: a throwaway stage may be deployed behind an edge when its context names one.
  edge: { required: false, requestsPerIpPer5Minutes: 3_600 },
  alarms: { latencyP99Ms: 3000, serverErrorRatePercent: 5, refusalsPer5Minutes: 500, network401Per5Minutes: 20 },
} as const;

/** What the two stages that keep their data share: quieter logs and tighter alarms. */
const kept = {
  ...network,
  tracing: xray,
  piiRetentionDays: DEFAULT_PII_RETENTION_DAYS,
  logLevel: 'INFO',
  retainData: true,
  // Five years: Colombia's financial records' keeping, for who changed what.
  auditArchiveRetentionDays: 5 * 365,
  alarms: { latencyP99Ms: 2000, serverErrorRatePercent: 1, refusalsPer5Minutes: 1_000, network401Per5Minutes: 5 },
} as const;

export const stages: Readonly<Record<StageName, StageSettings>> = {
  local: {
    name: 'local',
    ...throwaway,
    // LocalStack's community edition has no Cognito: tokens come from the local issuer of
    // `npm start`, with its sandbox clients and the dashboard its people sign in through.
    identity: {
      kind: 'external',
      issuer: 'http://127.0.0.1:3000',
      audience: ['sandbox-client-a', 'sandbox-client-b', 'sandbox-client-readonly', DASHBOARD_CLIENT_ID],
      tokenUrl: 'http://127.0.0.1:3000/oauth2/token',
    },
    logRetention: RetentionDays.ONE_WEEK,
  },
  dev: { name: 'dev', ...throwaway, identity: cognito('dev'), logRetention: RetentionDays.TWO_WEEKS },
  staging: {
    name: 'staging',
    ...kept,
    identity: cognito('staging'),
    sandboxEnabled: true,
    network: { kind: 'sandbox' },
    throttling: { rateLimit: 100, burstLimit: 200 },
    networkThrottling: { rateLimit: 50, burstLimit: 100 },
    tenantRateLimit: { requestsPerSecond: 20, burst: 40 },
    edge: { required: false, requestsPerIpPer5Minutes: 7_500 },
    queueConsumerConcurrency: {
      settlement: 5,
      creditDecisions: 2,
      webhookDeliveries: 10,
      streamFailures: 2,
      reports: 2,
      reconciliations: 2,
    },
    logRetention: RetentionDays.THREE_MONTHS,
  },
  prod: {
    name: 'prod',
    ...kept,
    identity: cognito('prod'),
    // Sandbox operator tools would let any client invent approved merchants and balances.
    sandboxEnabled: false,
    // Real money: the sponsor bank's connector, whose URL the deployment gives (networkConnectorUrl).
    network: { kind: 'connector' },
    // COP 10M a credit, COP 50M a merchant a day: whoever could sign as the bank still cannot drain
    // more than this into one merchant before the day's reconciliation shows it.
    networkLimits: { perCreditCents: 1_000_000_000, perMerchantPerDayCents: 5_000_000_000 },
    throttling: { rateLimit: 500, burstLimit: 1000 },
    networkThrottling: { rateLimit: 200, burstLimit: 400 },
    tenantRateLimit: { requestsPerSecond: 50, burst: 100 },
    // Production is reached only through its edge: CloudFront, the web ACL, execute-api disabled.
    edge: { required: true, requestsPerIpPer5Minutes: 18_000 },
    // At most 69 instances of the queues' consumers (and the dispatcher's one per stream shard): the
    // API keeps over 900 of the account's default 1000.
    queueConsumerConcurrency: {
      // The payees' credit decisions have their own queue: a few of the settlement queue's consumers moved there.
      settlement: 17,
      creditDecisions: 3,
      webhookDeliveries: 40,
      streamFailures: 2,
      reports: 5,
      reconciliations: 2,
    },
    // Payment records are audited: a year of request logs.
    logRetention: RetentionDays.ONE_YEAR,
  },
};

export function stageSettings(name: string | undefined): StageSettings {
  const stage = stages[(name ?? 'dev') as StageName];
  if (!stage) throw new Error(`Unknown stage "${name}": use one of ${Object.keys(stages).join(', ')}`);
  return stage;
}

/** A context value given as a non-empty string (`-c name=value`, or cdk.context.json). */
const givenText = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * The stage's settings with its network resolved: a connector's URL, the bank's keys and the network's
 * own domain (name, certificate, truststore) from the context values `networkConnectorUrl`,
 * `networkBankKeys`, `networkDomainName`, `networkCertificateArn`, `networkTruststoreUri` (and the
 * optional `networkTruststoreVersion`), else from the stage settings. Throws, naming the context
 * value, when a connector stage lacks one or has one malformed (keys that are no JWKS of Ed25519
 * public keys, a truststore that is no S3 object), and when a stage without the sandbox would settle
 * through the simulator (a production stage must move real money or none). A sandbox stage takes no
 * request from a bank: it has no network domain, whatever the context says.
 */
export function resolveNetwork(settings: StageSettings, context: (name: string) => unknown): StageSettings {
  const { network, name } = settings;
  if (network.kind === 'sandbox') {
    if (!settings.sandboxEnabled) {
      throw new Error(
        `Stage ${name} has no sandbox but would settle through the sandbox simulator: give it network ` +
          `{ kind: 'connector' } and its URL (-c ${NETWORK_CONNECTOR_URL_CONTEXT}=https://...)`,
      );
    }
    return settings;
  }
  const url = givenText(context(NETWORK_CONNECTOR_URL_CONTEXT)) ?? network.url;
  if (!url) {
    throw new Error(
      `Stage ${name} settles through the network connector and has no URL for it: ` +
        `cdk synth -c stage=${name} -c ${NETWORK_CONNECTOR_URL_CONTEXT}=https://<connector> (or network.url in infra/stages.ts)`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${NETWORK_CONNECTOR_URL_CONTEXT} "${url}" of stage ${name} is not a URL`);
  }
  // Transfer orders carry money: never in clear text.
  if (parsed.protocol !== 'https:') throw new Error(`${NETWORK_CONNECTOR_URL_CONTEXT} of stage ${name} must be https`);
  const bankKeys = givenText(context(NETWORK_BANK_KEYS_CONTEXT)) ?? network.bankKeys;
  if (!bankKeys) {
    throw new Error(
      `Stage ${name} takes the network's requests and has none of the bank's public keys to verify them: ` +
        `cdk synth -c stage=${name} -c ${NETWORK_BANK_KEYS_CONTEXT}='{"keys":[...]}' (a JWKS of Ed25519 keys)`,
    );
  }
  try {
    parseJwks(bankKeys);
  } catch (error) {
    throw new Error(`${NETWORK_BANK_KEYS_CONTEXT} of stage ${name}: ${(error as Error).message}`, { cause: error });
  }
  const domain = resolveNetworkDomain(name, network.domain ?? {}, context);
  return { ...settings, network: { kind: 'connector', url: parsed.toString(), bankKeys, domain } };
}

const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const ACM_CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/;
/** `s3://<bucket>/<key>`, the form API Gateway takes for a truststore (bucket names as S3 allows them). */
const S3_URI = /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]\/\S+$/;

const DOMAIN_FORMS: Readonly<Record<keyof NetworkDomainSettings, { pattern: RegExp; what: string }>> = {
  domainName: { pattern: HOST_NAME, what: 'a lowercase host name' },
  certificateArn: { pattern: ACM_CERTIFICATE_ARN, what: 'an ACM certificate ARN' },
  truststoreUri: { pattern: S3_URI, what: 'an S3 object as s3://<bucket>/<key>' },
  truststoreVersion: { pattern: /^\S+$/, what: "an S3 object's version id" },
};

/** The network's own domain of a connector stage: each field from its context value, else the settings. */
function resolveNetworkDomain(
  name: StageName,
  configured: Partial<NetworkDomainSettings>,
  context: (name: string) => unknown,
): NetworkDomainSettings {
  const fields = Object.keys(NETWORK_DOMAIN_CONTEXT) as (keyof NetworkDomainSettings)[];
  const given = Object.fromEntries(
    fields.flatMap((field) => {
      const value = givenText(context(NETWORK_DOMAIN_CONTEXT[field])) ?? configured[field];
      return value === undefined ? [] : [[field, value]];
    }),
  ) as Partial<NetworkDomainSettings>;
  const missing = fields.filter((field) => field !== 'truststoreVersion' && given[field] === undefined);
  if (missing.length > 0) {
    const names = missing.map((field) => NETWORK_DOMAIN_CONTEXT[field]);
    throw new Error(
      `Stage ${name} takes the bank's requests on a domain of its own with mutual TLS (CloudFront passes no ` +
        `client certificate) and is missing ${names.join(', ')}: cdk synth -c stage=${name} ` +
        names.map((context) => `-c ${context}=...`).join(' ') +
        ' (docs/network.md, "How the bank reaches us")',
    );
  }
  for (const field of fields) {
    const value = given[field];
    if (value !== undefined && !DOMAIN_FORMS[field].pattern.test(value)) {
      throw new Error(
        `${NETWORK_DOMAIN_CONTEXT[field]} "${value}" of stage ${name} is not ${DOMAIN_FORMS[field].what}`,
      );
    }
  }
  return given as NetworkDomainSettings;
}

/** The network's own domain of a resolved connector stage (resolveNetwork); none on a sandbox stage. */
export const networkDomainOf = (settings: StageSettings): NetworkDomainSettings | undefined => {
  const { network } = settings;
  if (network.kind !== 'connector' || !network.domain) return undefined;
  const { domainName, certificateArn, truststoreUri } = network.domain;
  return domainName && certificateArn && truststoreUri ? (network.domain as NetworkDomainSettings) : undefined;
};

/** The context values (`cdk synth -c alarmEmail=...`) that say who the stage's alarms reach. */
export const ALARM_EMAIL_CONTEXT = 'alarmEmail';
export const ALARM_TOPIC_CONTEXT = 'alarmTopicArn';
/** What `npm run synth:all` and the template tests pass where no address is given, only to check the templates. */
export const EXAMPLE_ALARM_EMAIL = 'oncall@example.com';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const SNS_TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;

/**
 * The stage's settings with who its alarms reach resolved: an e-mail address and an existing topic,
 * each from its context value, else from the stage settings. A stage that keeps its data (staging,
 * prod) does not synthesize without one of them: an alarm nobody reads is no alarm.
 */
export function resolveAlarms(settings: StageSettings, contextEmail: unknown, contextTopicArn: unknown): StageSettings {
  const { name } = settings;
  const email = givenText(contextEmail) ?? settings.alarms.email;
  const topicArn = givenText(contextTopicArn) ?? settings.alarms.topicArn;
  if (email !== undefined && !EMAIL.test(email)) {
    throw new Error(`${ALARM_EMAIL_CONTEXT} "${email}" of stage ${name} is not an e-mail address`);
  }
  if (topicArn !== undefined && !SNS_TOPIC_ARN.test(topicArn)) {
    throw new Error(`${ALARM_TOPIC_CONTEXT} "${topicArn}" of stage ${name} is not an SNS topic ARN`);
  }
  if (settings.retainData && email === undefined && topicArn === undefined) {
    throw new Error(
      `Stage ${name} keeps its data, so its alarms must reach someone: cdk synth -c stage=${name} ` +
        `-c ${ALARM_EMAIL_CONTEXT}=oncall@yourcompany.example (or -c ${ALARM_TOPIC_CONTEXT}=arn:aws:sns:..., ` +
        'or alarms.email in infra/stages.ts)',
    );
  }
  return {
    ...settings,
    alarms: {
      ...settings.alarms,
      ...(email === undefined ? {} : { email }),
      ...(topicArn === undefined ? {} : { topicArn }),
    },
  };
}

/** RETAIN for stages that keep their data, DESTROY elsewhere. */
export const removalPolicyOf = (settings: StageSettings): RemovalPolicy =>
  settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

/**
 * The variables shared/runtime/config.ts reads that come from a stage's settings: the stack sets them
 * on every function and the local runtime on its own process, so both run the handlers alike.
 */
export function stageEnvironment(settings: StageSettings, tableName: string): Record<string, string> {
  return {
    [ENV.tableName]: tableName,
    [ENV.stage]: settings.name,
    [ENV.sandboxEnabled]: String(settings.sandboxEnabled),
    [ENV.acquirerId]: settings.acquirerId,
    [ENV.participantName]: settings.participant.name,
    [ENV.participantNit]: settings.participant.nit,
    [ENV.tenantRateLimit]: formatTenantRateLimit(settings.tenantRateLimit),
    [ENV.network]: settings.network.kind,
    [ENV.maxPaymentCents]: String(settings.maxPaymentCents),
    [ENV.piiRetentionDays]: String(settings.piiRetentionDays),
    ...(settings.networkLimits
      ? {
          [ENV.networkCreditMaxCents]: String(settings.networkLimits.perCreditCents),
          [ENV.networkMerchantDayMaxCents]: String(settings.networkLimits.perMerchantPerDayCents),
        }
      : {}),
    ...(settings.listShards ? { [ENV.listShards]: formatListShards(settings.listShards) } : {}),
    ...(settings.network.kind === 'connector' && settings.network.url
      ? { [ENV.networkConnectorUrl]: settings.network.url }
      : {}),
    ...(settings.network.kind === 'connector' && settings.network.bankKeys
      ? { [ENV.networkBankKeys]: settings.network.bankKeys }
      : {}),
  };
}
