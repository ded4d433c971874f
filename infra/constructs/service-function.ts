/**
 * One Lambda function of the service: a route's (api-function.ts) or a worker's (worker-function.ts).
 * This is the only place that sets a function's runtime, bundling, logging and rights, so every
 * function gets the same settings and none can quietly receive more rights than its entry in the
 * route or worker table declares: the execution role starts empty (no managed policy) and receives
 * its own log group, X-Ray, the declared table actions, the declared secrets and SendMessage on the
 * declared queues; the two subclasses add what their kind needs, nothing else.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  ApplicationLogLevel,
  Architecture,
  Function as LambdaFunction,
  LayerVersion,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { FunctionDefinition, SealingUse } from '../../functions/routes';
import {
  ENV,
  QUEUE_ENV,
  SECRET_ENV,
  SERVICE_NAME,
  stageMetricsNamespace,
  type QueueName,
  type SecretName,
} from '../../shared/runtime/config';
import { AUDIT_EVENT_KEY_PREFIX, MONEY_KEY_PREFIXES } from '../../shared/data/item-keys';
import { BUNDLE_HANDLER, functionCode, type BundleTracer, type PackageFiles } from './function-bundle';
import { auditArchiveStatement } from './audit-archive-bucket';
import { reportFilesStatement, settlementFilesStatement } from './report-bucket';
import { SEALING_ACTIONS, sealingRolePath } from './secret-key-policy';
import { removalPolicyOf, stageEnvironment, type StageSettings, type TracingSettings } from '../stages';

export { SERVICE_NAME };

/** The stage's secrets, by the names functions use in their `secrets` field. */
export type StageSecretMap = Readonly<Record<SecretName, ISecret>>;

/** The stage's queues, by the names functions use in their `queues` field. */
export type StageQueueMap = Readonly<Record<QueueName, IQueue>>;

export interface ServiceFunctionProps {
  /** The function's entry in the route or worker table. */
  readonly definition: FunctionDefinition;
  /** What the function does, on the function and on its role. */
  readonly description: string;
  /** How long one invocation may run. */
  readonly timeout: Duration;
  readonly settings: StageSettings;
  readonly table: ITable;
  readonly secrets: StageSecretMap;
  readonly queues: StageQueueMap;
  /** The stage's secret key: used only by the functions whose entry declares `sealing`. */
  readonly secretKey: IKey;
  /** The stage's report bucket: given only to the functions whose entry declares `reportFiles`. */
  readonly reportBucket?: IBucket;
  /** The audit events' Object Lock bucket: given only to the functions whose entry declares `auditArchive`. */
  readonly auditArchiveBucket?: IBucket;
  /** Variables of the function's own, beside the stage's and those its entry's rights give. */
  readonly environment?: Readonly<Record<string, string>>;
  /** Package files the function reads at run time, copied beside its bundle. */
  readonly besideBundle?: readonly PackageFiles[];
}

/** The stage's variables (shared/runtime/config.ts), plus the Powertools settings. */
export function functionEnvironment(settings: StageSettings, tableName: string): Record<string, string> {
  return {
    ...stageEnvironment(settings, tableName),
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
    POWERTOOLS_METRICS_NAMESPACE: stageMetricsNamespace(settings.name),
    // Stack traces point at the TypeScript sources through the bundled source maps.
    NODE_OPTIONS: '--enable-source-maps',
  };
}

/**
 * The table and its indexes: the only resources a function may touch. Written by hand rather than
 * with table.grantReadData() and friends, which add actions (Scan, DescribeTable, ...) no function asks for.
 */
export function tableAccessStatement(table: ITable, definition: FunctionDefinition): PolicyStatement {
  return new PolicyStatement({
    actions: definition.tableActions.map((action) => `dynamodb:${action}`),
    resources: [table.tableArn, `${table.tableArn}/index/*`],
  });
}

/** What no function may do to an audit event: change it or remove it, alone, in a transaction or a batch. */
export const AUDIT_EVENT_DENIED_ACTIONS = [
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
] as const;

/**
 * The audit events are written once (docs/audit.md): every function's role is denied updating or
 * deleting an item whose partition key is an event's, whatever else it is granted (an explicit Deny
 * wins over any Allow). IAM checks each item of a TransactWriteItems against its own action, so a
 * transaction's Update or Delete of an event is refused too. A BatchWriteItem request cannot be told
 * apart as a put or a delete by IAM: it is denied on the events whole (they are written in
 * transactions only). What IAM cannot express: a PutItem over an existing event (the insert's
 * condition forbids it, and the hash chain and the Object Lock copy show it).
 */
export function auditEventsImmutable(table: ITable): PolicyStatement {
  return writesDeniedUnder(table, AUDIT_EVENT_DENIED_ACTIONS, [AUDIT_EVENT_KEY_PREFIX]);
}

/** A Deny of `actions` on the table's items whose partition key starts with one of `prefixes`. */
const writesDeniedUnder = (table: ITable, actions: readonly string[], prefixes: readonly string[]) =>
  new PolicyStatement({
    effect: Effect.DENY,
    actions: [...actions],
    resources: [table.tableArn],
    conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': prefixes.map((prefix) => `${prefix}*`) } },
  });

/** The writes no function but the money's may make in a money partition: alone, in a transaction or a batch. */
export const MONEY_WRITE_DENIED_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:PartiQLInsert',
  'dynamodb:PartiQLUpdate',
  'dynamodb:PartiQLDelete',
] as const;

/**
 * Least privilege inside the table (docs/security.md, "Money partitions"): a function whose entry does
 * not declare `writesMoney` is denied every write of an item whose partition key is a money
 * partition's (an account and its ledger, a payment, a refund, a reversal, a credit answer), whatever
 * else it is granted. It may still read them and check them in a transaction (ConditionCheckItem).
 */
export function moneyPartitionsGuarded(table: ITable): PolicyStatement {
  return writesDeniedUnder(table, MONEY_WRITE_DENIED_ACTIONS, MONEY_KEY_PREFIXES);
}

/**
 * Reading a secret's value, and nothing else (no DescribeSecret, no other secret); for a secret under
 * a key of ours, decrypting with that key too, but only as Secrets Manager's caller (kms:ViaService):
 * the function cannot use the key on anything else.
 */
export function secretReadStatements(secret: ISecret): PolicyStatement[] {
  const read = new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] });
  if (!secret.encryptionKey) return [read];
  const decrypt = new PolicyStatement({
    actions: ['kms:Decrypt'],
    resources: [secret.encryptionKey.keyArn],
    conditions: {
      StringEquals: { 'kms:ViaService': `secretsmanager.${Stack.of(secret).region}.${Stack.of(secret).urlSuffix}` },
    },
  });
  return [read, decrypt];
}

export { SEALING_ACTIONS };

/** The declared uses of the secret key, on that key only. */
export function sealingStatement(key: IKey, uses: readonly SealingUse[]): PolicyStatement {
  return new PolicyStatement({ actions: uses.map((use) => SEALING_ACTIONS[use]), resources: [key.keyArn] });
}

/** Sending to a queue, and nothing else (no attributes, no receiving, no other queue). */
export function queueSendStatement(queue: IQueue): PolicyStatement {
  return new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [queue.queueArn] });
}

export class ServiceFunction extends Construct {
  readonly function: LambdaFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    const { definition, settings, table } = props;

    // An explicit log group, so that retention and removal follow the stage instead of "forever".
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: settings.logRetention,
      removalPolicy: removalPolicyOf(settings),
    });

    // Our own role instead of the default one with AWSLambdaBasicExecutionRole, whose logs:* rights
    // reach every log group of the account. A role that declares sealing is under the path by which
    // the secret key's policy knows it (secret-key-policy.ts): the IAM grant alone opens nothing.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${definition.name} (${props.description})`,
      ...(definition.sealing?.length ? { path: sealingRolePath(settings, definition.sealing) } : {}),
    });
    this.logGroup.grantWrite(this.role);

    const secrets = definition.secrets ?? [];
    const queues = definition.queues ?? [];
    const reportFiles = definition.reportFiles ?? [];
    const settlementFiles = definition.settlementFiles ?? [];
    const { reportBucket } = props;
    const reachesBucket = reportFiles.length > 0 || settlementFiles.length > 0;
    if (reachesBucket && !reportBucket)
      throw new Error(`${definition.name} declares reportFiles or settlementFiles: give it the report bucket`);
    const declaredEnvironment = Object.fromEntries([
      ...secrets.map((name) => [SECRET_ENV[name], props.secrets[name].secretArn]),
      ...queues.map((name) => [QUEUE_ENV[name], props.queues[name].queueUrl]),
      ...(definition.sealing?.length ? [[ENV.secretKeyArn, props.secretKey.keyArn]] : []),
      ...(reachesBucket ? [[ENV.reportBucketName, reportBucket!.bucketName]] : []),
      ...(definition.auditArchive ? [[ENV.auditArchiveBucketName, auditArchiveBucketOf(props).bucketName]] : []),
    ]);

    this.function = new LambdaFunction(this, 'Function', {
      description: props.description,
      code: functionCode(definition, bundleTracerOf(settings.tracing), props.besideBundle),
      handler: BUNDLE_HANDLER,
      role: this.role,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      // 512 MB buys enough CPU for TLS and the first DynamoDB calls on a cold start.
      memorySize: 512,
      timeout: props.timeout,
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      // Lambda's JSON log format, so that Lambda filters the application's lines by level and writes
      // its own START/END/REPORT as JSON records (platform.start, platform.report) beside them.
      // Lines that already are JSON objects pass through as written (Lambda does not encode them
      // twice): Powertools Logger's, whose `level` (DEBUG, INFO, WARN, ERROR) and RFC 3339
      // `timestamp` Lambda reads, and Powertools Metrics' EMF lines, which CloudWatch still
      // turns into metrics. An EMF line has no `level`, so Lambda counts it INFO: an application
      // level above INFO would drop every metric, hence StageSettings.logLevel stops at INFO.
      loggingFormat: LoggingFormat.JSON,
      // The stage's level, which Lambda also hands the function as AWS_LAMBDA_LOG_LEVEL (the level
      // Powertools' Logger prefers): the same as POWERTOOLS_LOG_LEVEL, which the local runtime reads.
      applicationLogLevelV2: ApplicationLogLevel[settings.logLevel],
      // START, END and REPORT (duration, memory, cold start's init time) on every stage; DEBUG would
      // add the runtime's and extensions' lifecycle events, which we do not read.
      systemLogLevelV2: SystemLogLevel.INFO,
      environment: { ...functionEnvironment(settings, table.tableName), ...declaredEnvironment, ...props.environment },
    });

    if (definition.tableActions.length > 0) this.function.addToRolePolicy(tableAccessStatement(table, definition));
    // On every role, whatever it declares: a later grant cannot reach the audit events either.
    this.function.addToRolePolicy(auditEventsImmutable(table));
    if (!definition.writesMoney) this.function.addToRolePolicy(moneyPartitionsGuarded(table));
    for (const name of secrets) {
      for (const statement of secretReadStatements(props.secrets[name])) this.function.addToRolePolicy(statement);
    }
    for (const name of queues) this.function.addToRolePolicy(queueSendStatement(props.queues[name]));
    if (definition.sealing?.length)
      this.function.addToRolePolicy(sealingStatement(props.secretKey, definition.sealing));
    if (reportFiles.length) this.function.addToRolePolicy(reportFilesStatement(reportBucket!, reportFiles));
    if (settlementFiles.length) {
      this.function.addToRolePolicy(settlementFilesStatement(reportBucket!, settlementFiles));
    }
    if (definition.auditArchive) this.function.addToRolePolicy(auditArchiveStatement(auditArchiveBucketOf(props)));
    addOpenTelemetryLayer(this.function, settings.tracing);

    suppressExpectedFindings(this, reachesBucket ? reportBucket : undefined, definition.auditArchive === true);
  }
}

function auditArchiveBucketOf(props: ServiceFunctionProps): IBucket {
  if (!props.auditArchiveBucket) throw new Error(`${props.definition.name} declares auditArchive: give it the bucket`);
  return props.auditArchiveBucket;
}

/** What the ADOT layer exports spans with: X-Ray's OTLP endpoint takes no resource either. */
export const XRAY_SPANS_ACTIONS = ['xray:PutSpans', 'xray:PutSpansForIndexing'];

/** The tracer a stage's bundles are built for (function-bundle.ts): OpenTelemetry's under ADOT. */
export const bundleTracerOf = (tracing: TracingSettings): BundleTracer => (tracing.kind === 'adot' ? 'otel' : 'xray');

/**
 * On a stage traced by ADOT (option A of docs/tracing.md): the layer, its wrapper, which registers
 * the OpenTelemetry provider before the handler loads, the functions' OpenTelemetry tracer, and the
 * rights the layer exports spans with.
 */
function addOpenTelemetryLayer(fn: LambdaFunction, tracing: TracingSettings): void {
  if (tracing.kind !== 'adot') return;
  fn.addLayers(LayerVersion.fromLayerVersionArn(fn, 'OpenTelemetryLayer', tracing.layerArn));
  fn.addEnvironment('AWS_LAMBDA_EXEC_WRAPPER', '/opt/otel-instrument');
  fn.addEnvironment(ENV.tracing, 'otel');
  fn.addToRolePolicy(new PolicyStatement({ actions: XRAY_SPANS_ACTIONS, resources: ['*'] }));
}

/** cdk-nag findings that are the design, each with the reason it is accepted. */
function suppressExpectedFindings(fn: ServiceFunction, reportBucket: IBucket | undefined, archives = false): void {
  NagSuppressions.addResourceSuppressions(
    fn.role,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "The function's declared table actions apply to the table's own indexes too: a list picks its " +
          'index at run time, and index ARNs exist only under the table ARN.',
        appliesTo: [nagReference('/index/*')],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions: ' +
          'Resource "*" is the only form AWS accepts (added by Tracing.ACTIVE); nor do PutSpans and ' +
          'PutSpansForIndexing (a stage traced by ADOT, docs/tracing.md). So does DynamoDB ' +
          "ListStreams, which Lambda's poller of the table's stream needs (the stream consumer only).",
        appliesTo: ['Resource::*'],
      },
      ...(reportBucket
        ? [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                'Report files are named by their client and report (reports/<client>/<id>.csv), made at run time: the grant ' +
                'reaches the objects under the reports prefix of the report bucket, and only the actions the entry declares.',
              appliesTo: [nagReference('/reports/*')],
            },
            {
              id: 'AwsSolutions-IAM5',
              reason:
                "The sponsor bank's settlement files are named by their day and version " +
                '(settlement-files/<date>/<id>.ndjson), made at run time: the grant reaches the objects under ' +
                'that prefix of the bucket, and only the actions the entry declares.',
              appliesTo: [nagReference('/settlement-files/*')],
            },
          ]
        : []),
      ...(archives
        ? [
            {
              id: 'AwsSolutions-IAM5',
              reason:
                'Each audit event is copied to an object named by its client and its place in the chain ' +
                '(audit/<client>/<position>-<id>.json), made at run time: the grant is PutObject on that prefix alone.',
              appliesTo: [nagReference('/audit/*')],
            },
          ]
        : []),
    ],
    true,
  );
}

/**
 * A finding's resource: an ARN of the stage's (`<Table.Arn>` where the function is the stage's own,
 * `<referenceto...Arn>`, the parameter it is passed as, in a route family's nested stack) and a path
 * under it. Only the table has `/index/*` and only the report bucket `/reports/*` and
 * `/settlement-files/*` in a role.
 */
const nagReference = (under: string): { regex: string } => ({
  regex: `/^Resource::<[A-Za-z0-9.]+>${under.replace(/[/*]/g, (c) => `\\${c}`)}$/`,
});
