/**
 * The whole local runtime in one call: DynamoDB Local (or another endpoint), the table, the sandbox
 * fixtures, the token issuer, the queues of later work (settlement, webhook deliveries), the reader
 * of the table's stream that feeds the webhook dispatcher, the sweeper on its schedule, and the API
 * server. `npm start` and the
 * end-to-end tests both use it.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { auditArchiver, scheduledWorkers, streamConsumer } from '../../functions/workers';
import {
  DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS,
  DEFAULT_SWEEP_INTERVAL_MS,
  ENV,
  formatTenantRateLimit,
  QUEUE_ENV,
  type QueueName,
  type RuntimeNetwork,
  type TenantRateLimitSettings,
} from '../../shared/runtime/config';
import { createDynamoDbClient, extendDynamo } from '../../shared/data/client';
import { enforceGrants, nameCallsByFunction } from './granted-actions';
import { stopAtTimeout } from './lambda-context';
import { dynamoSponsorBank } from '../../shared/data/sponsor-bank-repository';
import { systemClock } from '../../shared/domain/clock';
import { generateSigningKey } from '../../shared/domain/message-signatures';
import { stageEnvironment, stages } from '../stages';
import { formatListShards, type ListShardSettings } from '../../shared/data/list-shards';
import { bundleLoader } from './bundles';
import { ensureTable } from './create-table';
import { defaultAwsEnvironment, startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local';
import { loadDashboardAssets, localDashboardConfig } from './dashboard-assets';
import { LocalIssuer } from './oauth';
import { dashboardClient } from './people';
import type { ThrottlingSettings } from './rate-limiter';
import type { EdgeLimits } from './edge-guard';
import { localSecretKey } from './secret-key';
import { localQrSigningSecret } from './qr-signing-secret';
import { seedSandbox } from './sandbox-fixtures';
import { dynamoDirectory } from '../../shared/data/directory-repository';
import { installCrashPoints } from '../../shared/data/crash-points';
import { installQueue } from '../../shared/data/queues';
import { filePositions, LocalEventStream, memoryPositions, type StreamHandler } from './event-stream';
import { crashUnderFaults, eventStreamOn, underFaults } from './faults';
import { startLocalQueue, type LocalQueue } from './local-queue';
import { startLocalSchedule, type LocalSchedule } from './local-schedule';
import { LOCAL_FILES_PATH } from './report-downloads';
import { createLocalApi, listen, type LocalServerOptions } from './server';

export const IN_MEMORY = ':memory:';

export interface LocalRuntimeOptions {
  readonly port?: number;
  readonly host?: string;
  /** Folder that keeps the data across restarts, or ':memory:' to keep nothing. */
  readonly dataDir?: string;
  readonly tableName?: string;
  /** Use this DynamoDB (LocalStack, AWS, a running DynamoDB Local) instead of starting one. */
  readonly dynamodbEndpoint?: string;
  /** Token issuer (`iss`); defaults to the server's own URL. */
  readonly issuer?: string;
  /**
   * The stage's throttling, one bucket for every caller: 'stage' applies the local stage's API
   * Gateway settings (infra/stages.ts), as `npm start` does; other settings override them. Off by
   * default, so that tests and benchmarks driving the server at full speed are not throttled.
   */
  readonly throttling?: ThrottlingSettings | 'stage';
  /**
   * The edge in front of the stage (infra/local/edge-guard.ts, the web ACL's model): 'stage' applies
   * the local stage's per-IP limit, as `npm start` does. Off by default, as throttling.
   */
  readonly edge?: EdgeLimits | 'stage';
  /**
   * Each tenant's limit, enforced by the functions (TENANT_RATE_LIMIT, as the stack sets it): 'stage'
   * applies the local stage's `tenantRateLimit`, as `npm start` does. Off by default, as throttling.
   */
  readonly tenantRateLimit?: TenantRateLimitSettings | 'stage';
  /** Clients whose payment and delivery lists are sharded (LIST_SHARDS; default: the local stage's, none). */
  readonly listShards?: ListShardSettings;
  /** How the server loads each route's handler (see LocalServerOptions). */
  readonly loadHandler?: LocalServerOptions['loadHandler'];
  /**
   * A synthesized cloud assembly (dist/cdk.out after `npm run build`): each route runs its Lambda
   * bundle from there (infra/local/bundles.ts) instead of its TypeScript source, unless loadHandler
   * is given.
   */
  readonly cloudAssembly?: string;
  /**
   * Bound of one DynamoDB call of the functions (DYNAMODB_REQUEST_TIMEOUT_MS; default Lambda's 1 s:
   * a call DynamoDB is slow to answer fails here as there). The tests on a loaded machine give more
   * (DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS).
   */
  readonly dynamodbRequestTimeoutMs?: number;
  /** How long the sandbox network takes to settle a payment (SANDBOX_SETTLEMENT_DELAY_MS; default 1000). */
  readonly sandboxSettlementDelayMs?: number;
  /** How long a webhook receiver has to answer (WEBHOOK_TIMEOUT_MS; default 5000). */
  readonly webhookTimeoutMs?: number;
  /** The first retry's longest delay of a RETRY webhook (WEBHOOK_RETRY_BASE_MS; default 60000). */
  readonly webhookRetryBaseMs?: number;
  /** How long a webhook's attempts all fail before it is disabled (WEBHOOK_DISABLE_AFTER_MS; default 3 days). */
  readonly webhookDisableAfterMs?: number;
  /** How long the sender holds back an endpoint failing every attempt (WEBHOOK_BREAKER_COOL_DOWN_MS; default 30000). */
  readonly webhookBreakerCoolDownMs?: number;
  /** How long an inbound approval callback has to answer (APPROVAL_TIMEOUT_MS; default 3000). */
  readonly approvalTimeoutMs?: number;
  /**
   * How long a failed message waits before its queue hands it again. By default each queue's deployed
   * visibility timeout (minutes: functions/workers.ts), as `npm start` runs; a test that waits for a
   * retry sets a shorter one here, explicitly.
   */
  readonly queueVisibilityTimeoutMs?: number;
  /** Retries of a failing stream batch before it is given up to the re-drive (default: the deployed). */
  readonly streamRetryAttempts?: number;
  /** Age of a failing stream record past which its batch is given up (default: the deployed). */
  readonly streamMaxRecordAgeMs?: number;
  /** Each route's timeout (default: the deployed ROUTE_TIMEOUT_SECONDS); past it the request answers 503. */
  readonly routeTimeoutMs?: number;
  /**
   * How often the sweeper runs (SWEEP_INTERVAL_MS; default 60000, every minute as on AWS); 0 runs it
   * never (a test showing what would be lost without it). At 30 s or less its runs share the due
   * index's shards in turns, so that frequent runs query 8 partitions, not 32 (shared/data/due-work.ts).
   */
  readonly sweepIntervalMs?: number;
  /** How late work must be before the sweeper restarts it (SWEEP_GRACE_MS; default 120000). */
  readonly sweepGraceMs?: number;
  /** How long a transfer waits before the connector is asked for it (TRANSFER_INQUIRY_AFTER_MS; default 120000). */
  readonly transferInquiryAfterMs?: number;
  /** How long a transfer waits before it goes to review (TRANSFER_REVIEW_AFTER_MS; default 3600000). */
  readonly transferReviewAfterMs?: number;
  /** Caps on the network's credits, as a stage's networkLimits (none by default, as the sandbox stages). */
  readonly networkLimits?: { readonly perCreditCents?: number; readonly perMerchantPerDayCents?: number };
  /**
   * The network the local stage settles through: the sandbox simulator by default, or a connector at
   * `url` (a fake bank of a contract test; docs/network.md), the adapter production runs.
   */
  readonly network?: RuntimeNetwork;
}

/** The queues the runtime runs, each feeding its consumer of the worker table, as its event source does on AWS. */
const QUEUES = Object.keys(QUEUE_ENV) as QueueName[];

/** Sets `name` to `value`, or removes it when there is none (the default applies). */
function setOrClear(name: string, value: number | string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = String(value);
}

/** The sweeper's schedule on AWS: every minute (functions/workers.ts). */
export { DEFAULT_SWEEP_INTERVAL_MS };

/** The functions' bound of one DynamoDB call: the option, or Lambda's (DYNAMODB_REQUEST_TIMEOUT_MS). */
export const dynamodbRequestTimeoutOf = (options: Pick<LocalRuntimeOptions, 'dynamodbRequestTimeoutMs'>): number =>
  options.dynamodbRequestTimeoutMs ?? DEFAULT_DYNAMODB_REQUEST_TIMEOUT_MS;

export interface LocalRuntime {
  readonly url: string;
  readonly issuer: LocalIssuer;
  readonly tableName: string;
  readonly dynamodbEndpoint: string;
  readonly server: Server;
  /** The network connector's `whsec_` secret locally (NETWORK_SECRET), unless a LocalStack ARN gives it. */
  readonly networkSecret: string | undefined;
  /**
   * Holds the later work (the stream reader and the dispatcher, the queues and their functions)
   * once what runs has finished: from then until resumeWorkers() nothing but requests touches the
   * table. For tests that compare the table around one request.
   */
  pauseWorkers(): Promise<void>;
  resumeWorkers(): void;
  stop(): Promise<void>;
}

export async function startLocalRuntime(options: LocalRuntimeOptions = {}): Promise<LocalRuntime> {
  defaultAwsEnvironment();
  const settings = stages.local;
  const dataDir = options.dataDir && options.dataDir !== IN_MEMORY ? resolve(options.dataDir) : undefined;
  if (dataDir) mkdirSync(dataDir, { recursive: true });

  // The port first: a port in use fails the start before DynamoDB Local is started for nothing, and
  // from here on every request is answered (503 with Retry-After until the API is served below).
  const { server, url, serve } = await listen(options.port ?? 3000, options.host ?? '127.0.0.1');
  const reportFilesDir = dataDir ? join(dataDir, 'report-files') : mkdtempSync(join(tmpdir(), 'breb-report-files-'));
  // The audit events' copy (docs/audit.md, "The Object Lock copy"): a folder standing in for the bucket.
  const auditArchiveDir = dataDir ? join(dataDir, 'audit-archive') : mkdtempSync(join(tmpdir(), 'breb-audit-archive-'));
  const removeReportFiles = () => {
    if (!dataDir) rmSync(reportFilesDir, { recursive: true, force: true });
    if (!dataDir) rmSync(auditArchiveDir, { recursive: true, force: true });
  };
  let dynamoDbLocal: DynamoDbLocal | undefined;
  let eventStream: LocalEventStream | undefined;
  let auditStream: LocalEventStream | undefined;
  const queues: LocalQueue[] = [];
  const schedules: LocalSchedule[] = [];
  // The schedules and the stream first (their work in progress finished, nothing more started), then
  // the queues' running work, then their table.
  const stopWorkers = async () => {
    await Promise.all(schedules.map((schedule) => schedule.stop()));
    await eventStream?.pause();
    await eventStream?.stop();
    await auditStream?.pause();
    await auditStream?.stop();
    for (const name of QUEUES) installQueue(name, undefined);
    installCrashPoints(undefined);
    await Promise.all(queues.map((queue) => queue.stop()));
  };
  try {
    const endpoint =
      options.dynamodbEndpoint ??
      (dynamoDbLocal = await startDynamoDbLocal({ ...(dataDir ? { dataDir } : {}) })).endpoint;
    const tableName = options.tableName ?? 'breb-local';

    // The functions read their settings from the environment, as they do in Lambda.
    Object.assign(process.env, stageEnvironment(settings, tableName), {
      [ENV.dynamodbEndpoint]: endpoint,
      [ENV.dynamodbRequestTimeoutMs]: String(dynamodbRequestTimeoutOf(options)),
    });
    // Each function's calls are held to its declared table actions, as its role holds them on AWS.
    extendDynamo(enforceGrants);
    extendDynamo(nameCallsByFunction);
    // A function past its timeout commits nothing more, as Lambda stops it (infra/local/lambda-context.ts).
    extendDynamo(stopAtTimeout);
    setOrClear(ENV.sandboxSettlementDelayMs, options.sandboxSettlementDelayMs);
    setOrClear(ENV.webhookTimeoutMs, options.webhookTimeoutMs);
    setOrClear(ENV.webhookRetryBaseMs, options.webhookRetryBaseMs);
    setOrClear(ENV.webhookDisableAfterMs, options.webhookDisableAfterMs);
    setOrClear(ENV.webhookBreakerCoolDownMs, options.webhookBreakerCoolDownMs);
    setOrClear(ENV.approvalTimeoutMs, options.approvalTimeoutMs);
    setOrClear(ENV.sweepGraceMs, options.sweepGraceMs);
    // The sweeper leaves restarted work for its queue's visibility timeout: these queues' own.
    setOrClear(ENV.queueVisibilityTimeoutMs, options.queueVisibilityTimeoutMs);
    setOrClear(ENV.transferInquiryAfterMs, options.transferInquiryAfterMs);
    setOrClear(ENV.transferReviewAfterMs, options.transferReviewAfterMs);
    setOrClear(ENV.networkCreditMaxCents, options.networkLimits?.perCreditCents);
    setOrClear(ENV.networkMerchantDayMaxCents, options.networkLimits?.perMerchantPerDayCents);
    // The sweeper shares the due index's shards among the runs of a minute by its interval
    // (shared/data/due-work.ts): it reads the interval its schedule runs it at, as the grace.
    const sweepInterval = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    setOrClear(ENV.sweepIntervalMs, sweepInterval > 0 ? sweepInterval : undefined);
    const network = options.network ?? settings.network;
    process.env[ENV.network] = network.kind;
    setOrClear(ENV.networkConnectorUrl, network.kind === 'connector' ? network.url : undefined);
    setOrClear(
      ENV.networkBankKeys,
      network.kind === 'connector' && 'bankKeys' in network ? network.bankKeys : undefined,
    );
    const tenantRateLimit = options.tenantRateLimit === 'stage' ? settings.tenantRateLimit : options.tenantRateLimit;
    if (tenantRateLimit) process.env[ENV.tenantRateLimit] = formatTenantRateLimit(tenantRateLimit);
    else delete process.env[ENV.tenantRateLimit];
    const listShards = options.listShards ?? settings.listShards;
    if (listShards) process.env[ENV.listShards] = formatListShards(listShards);
    else delete process.env[ENV.listShards];
    // The network connector's secret: NETWORK_SECRET when set (a whsec_ value the caller's fake bank or
    // simulator shares), else a fresh one for this run, which `npm start` prints.
    if (!process.env[ENV.networkSecretArn] && !process.env[ENV.networkSecret]) {
      process.env[ENV.networkSecret] = `whsec_${randomBytes(32).toString('base64')}`;
    }
    // Our Ed25519 key for the connector (RFC 9421): NETWORK_SIGNING_KEY when set, else a fresh one for
    // this run; its public half is served at GET /network/v1/keys, where the bank reads it.
    if (!process.env[ENV.networkSecretArn] && !process.env[ENV.networkSigningKey]) {
      const key = generateSigningKey(`local-${randomBytes(4).toString('hex')}`);
      process.env[ENV.networkSigningKey] = JSON.stringify({ kid: key.kid, private_key_pem: key.privateKeyPem });
    }
    // The QR routes' signing key: a LocalStack secret when its ARN is given, else a local one.
    if (!process.env[ENV.qrSigningSecretArn]) {
      process.env[ENV.qrSigningSecret] = localQrSigningSecret(dataDir && join(dataDir, 'qr-signing-secret.json'));
    }
    // The key that seals webhook and approval secrets: a LocalStack KMS key when its ARN is given, the
    // local key already set (a run before this one on the same table, in this process or its parent),
    // else the data folder's, made once.
    if (!process.env[ENV.secretKeyArn] && !process.env[ENV.localSecretKey]) {
      process.env[ENV.localSecretKey] = localSecretKey(dataDir && join(dataDir, 'secret-key'));
    }
    // The report files: in the data folder, else in a folder of this run's, removed when it stops.
    process.env[ENV.reportFilesDir] = reportFilesDir;
    process.env[ENV.localFilesUrl] = `${url}${LOCAL_FILES_PATH}`;
    delete process.env[ENV.reportBucketName];
    process.env[ENV.auditArchiveDir] = auditArchiveDir;
    delete process.env[ENV.auditArchiveBucketName];

    const client = createDynamoDbClient(endpoint);
    try {
      await ensureTable(client, tableName);
      if (settings.sandboxEnabled) await seedSandbox(dynamoSponsorBank, dynamoDirectory, systemClock.now());

      // The later work runs in this process, started before the API can take a payment: the queues
      // with their functions, and the dispatcher reading the stream from where it last stopped.
      const byName = {} as Record<QueueName, LocalQueue>;
      for (const name of QUEUES) {
        byName[name] = await startLocalQueue(name, {
          // The local stage's cap on the batches its consumer runs at once, as its event source's.
          maxConcurrency: settings.queueConsumerConcurrency[name],
          ...(options.queueVisibilityTimeoutMs === undefined
            ? {}
            : { visibilityTimeoutMs: options.queueVisibilityTimeoutMs }),
        });
        queues.push(byName[name]);
        installQueue(name, underFaults(name, byName[name]));
      }
      // The crash points act only under FAULT_CRASH_AFTER, read when one is reached.
      installCrashPoints(crashUnderFaults);
      if (eventStreamOn()) {
        const dispatcherFile = streamConsumer().handler;
        const dispatcher = (await import(`../../functions/${dispatcherFile}.ts`)) as { handler: StreamHandler };
        const positions = dataDir ? filePositions(join(dataDir, 'event-stream-position.json')) : memoryPositions();
        eventStream = await LocalEventStream.start(client, endpoint, tableName, dispatcher.handler, positions, {
          // A batch given up goes where the deployed mapping sends it: the re-drive worker's queue.
          onFailure: (failure) => byName.streamFailures.send(failure, 0),
          ...(options.streamRetryAttempts === undefined ? {} : { retryAttempts: options.streamRetryAttempts }),
          ...(options.streamMaxRecordAgeMs === undefined ? {} : { maxRecordAgeMs: options.streamMaxRecordAgeMs }),
        });
        // The audit archiver, on a reader of its own, as its own event source mapping on AWS.
        const archiver = auditArchiver();
        const archive = (await import(`../../functions/${archiver.handler}.ts`)) as { handler: StreamHandler };
        const archived = dataDir ? filePositions(join(dataDir, 'audit-stream-position.json')) : memoryPositions();
        auditStream = await LocalEventStream.start(client, endpoint, tableName, archive.handler, archived, {
          consumer: archiver,
        });
      }
      // The sweeper, as on AWS, is what finds the work a previous run (or a failed send) left due:
      // the old process's queued messages died with it.
      const sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
      if (sweepIntervalMs > 0) {
        for (const worker of scheduledWorkers()) {
          const timeoutMs = worker.timeoutSeconds * 1000;
          schedules.push(await startLocalSchedule(worker.name, worker.handler, sweepIntervalMs, timeoutMs));
        }
      }
    } finally {
      client.destroy();
    }

    const issuer = await LocalIssuer.create({
      issuer: options.issuer ?? url,
      // The dashboard this server serves signs people in here, and comes back here.
      publicClients: [dashboardClient(url)],
      ...(dataDir ? { keyFile: join(dataDir, 'token-signing-key.json') } : {}),
    });
    const throttling = options.throttling === 'stage' ? settings.throttling : options.throttling;
    const edge = options.edge === 'stage' ? settings.edge : options.edge;
    const loadHandler =
      options.loadHandler ?? (options.cloudAssembly ? bundleLoader(options.cloudAssembly) : undefined);
    serve(
      await createLocalApi({
        issuer,
        sandboxEnabled: settings.sandboxEnabled,
        dashboard: loadDashboardAssets(localDashboardConfig(settings.sandboxEnabled)),
        ...(throttling ? { throttling } : {}),
        ...(throttling ? { networkThrottling: settings.networkThrottling } : {}),
        ...(edge ? { edge: { requestsPerIpPer5Minutes: edge.requestsPerIpPer5Minutes } } : {}),
        ...(loadHandler ? { loadHandler } : {}),
        ...(options.routeTimeoutMs === undefined ? {} : { routeTimeoutMs: options.routeTimeoutMs }),
      }),
    );

    return {
      url,
      issuer,
      tableName,
      dynamodbEndpoint: endpoint,
      server,
      networkSecret: process.env[ENV.networkSecret],
      async pauseWorkers() {
        await Promise.all(schedules.map((schedule) => schedule.pause()));
        await eventStream?.pause();
        await auditStream?.pause();
        await Promise.all(queues.map((queue) => queue.pause()));
      },
      resumeWorkers() {
        for (const schedule of schedules) schedule.resume();
        eventStream?.resume();
        auditStream?.resume();
        for (const queue of queues) queue.resume();
      },
      async stop() {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
        // The work still running finishes before its table goes away.
        await stopWorkers();
        await dynamoDbLocal?.stop();
        removeReportFiles();
      },
    };
  } catch (error) {
    server.closeAllConnections();
    server.close();
    await stopWorkers();
    await dynamoDbLocal?.stop();
    removeReportFiles();
    throw error;
  }
}
