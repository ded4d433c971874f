/**
 * One Lambda function serving one route of the route table. This is the only place that sets a
 * function's runtime, bundling, logging and rights, so every route gets the same settings and no
 * route can quietly receive more rights than it declares: the execution role starts empty (no
 * managed policy) and receives its own log group, X-Ray, the route's table actions, the route's
 * secrets, and the shared chain's update of its tenant rate-limit counters, nothing else.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../functions/routes';
import { RATE_WINDOW_ATTRIBUTES, RATE_WINDOW_KEY_PREFIX } from '../../shared/data/item-keys';
import { METRICS_NAMESPACE, SECRET_ENV, SERVICE_NAME, type SecretName } from '../../shared/runtime/config';
import { handlerEntry, LOCK_FILE, REPO_ROOT, TSCONFIG } from '../paths';
import { removalPolicyOf, stageEnvironment, type StageSettings } from '../stages';

export { SERVICE_NAME };

/** The stage's secrets, by the names routes use in their `secrets` field. */
export type StageSecretMap = Readonly<Record<SecretName, ISecret>>;

/**
 * esbuild emits ESM, where `require` does not exist; a CommonJS dependency bundled into the output
 * that requires one of Node's modules still calls it, so the banner recreates it (none does today:
 * pngjs did, until the QR functions took qrcode's symbol builder alone).
 */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/**
 * Packages the bundles take from this repository instead: Lambda's credentials are in the environment,
 * so the SDK's default credential chain is replaced by shared/runtime/lambda-credentials.ts (≈100 KB less
 * per bundle; see that file). esbuild resolves the replacement from the project root.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './shared/runtime/lambda-credentials.ts',
};

/**
 * Modules left out of the bundles. The AWS SDK imports its event-stream codec lazily, only for
 * operations that stream events; DynamoDB and Secrets Manager have none, so no function ever loads it
 * (≈15 KB less per bundle).
 */
export const UNBUNDLED_MODULES: readonly string[] = ['@smithy/core/event-streams'];

export interface ApiFunctionProps {
  readonly route: RouteDefinition;
  readonly settings: StageSettings;
  readonly table: ITable;
  readonly secrets: StageSecretMap;
}

/** The stage's variables (shared/runtime/config.ts), plus the Powertools settings. */
export function functionEnvironment(settings: StageSettings, tableName: string): Record<string, string> {
  return {
    ...stageEnvironment(settings, tableName),
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
    POWERTOOLS_METRICS_NAMESPACE: METRICS_NAMESPACE,
    // Stack traces point at the TypeScript sources through the bundled source maps.
    NODE_OPTIONS: '--enable-source-maps',
  };
}

/**
 * The table and its indexes: the only resources a function may touch. Written by hand rather than
 * with table.grantReadData() and friends, which add actions (Scan, DescribeTable, ...) no route asks for.
 */
export function tableAccessStatement(table: ITable, route: RouteDefinition): PolicyStatement {
  return new PolicyStatement({
    actions: route.tableActions.map((action) => `dynamodb:${action}`),
    resources: [table.tableArn, `${table.tableArn}/index/*`],
  });
}

/**
 * The per-tenant rate limit of the shared chain (shared/http/tenant-rate-limit.ts) updates its
 * counters on every request of every route, so every role gets this, and it is as narrow as IAM
 * makes it: UpdateItem only, on the table only (no index), on items whose partition key starts with
 * the counters' prefix only, writing or reading in conditions the counters' attributes only, and
 * returning no item. The route table's `tableActions` stay the route's own work.
 */
export function tenantRateLimitStatement(table: ITable): PolicyStatement {
  return new PolicyStatement({
    actions: ['dynamodb:UpdateItem'],
    resources: [table.tableArn],
    conditions: {
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${RATE_WINDOW_KEY_PREFIX}*`] },
      // The key attributes are listed too: DynamoDB needs them allowed to find the item.
      'ForAllValues:StringEquals': { 'dynamodb:Attributes': [...RATE_WINDOW_ATTRIBUTES] },
      StringEqualsIfExists: { 'dynamodb:ReturnValues': 'NONE' },
    },
  });
}

/** Reading a secret's value, and nothing else (no DescribeSecret, no other secret). */
export function secretReadStatement(secret: ISecret): PolicyStatement {
  return new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] });
}

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { route, settings, table } = props;

    // An explicit log group, so that retention and removal follow the stage instead of "forever".
    this.logGroup = new LogGroup(this, 'Logs', {
      retention: settings.logRetention,
      removalPolicy: removalPolicyOf(settings),
    });

    // Our own role instead of the default one with AWSLambdaBasicExecutionRole, whose logs:* rights
    // reach every log group of the account.
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${route.name} (${route.method} ${route.paths.join(' ')})`,
    });
    this.logGroup.grantWrite(this.role);

    const secretEnvironment = Object.fromEntries(
      (route.secrets ?? []).map((name) => [SECRET_ENV[name], props.secrets[name].secretArn]),
    );

    this.function = new NodejsFunction(this, 'Function', {
      description: `${route.method} ${route.paths.join(' ')}`,
      entry: handlerEntry(route.handler),
      handler: 'handler',
      role: this.role,
      // Explicit, so that synthesis does not depend on the directory it is started from.
      projectRoot: REPO_ROOT,
      depsLockFilePath: LOCK_FILE,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      // 512 MB buys enough CPU for TLS and the first DynamoDB calls on a cold start.
      memorySize: 512,
      // Three DynamoDB attempts with back-off fit well inside; API Gateway gives up at 30 s anyway.
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup: this.logGroup,
      environment: { ...functionEnvironment(settings, table.tableName), ...secretEnvironment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Prefer the ESM build of dependencies that ship both (Middy, jose, Powertools).
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        esbuildArgs: Object.fromEntries(
          Object.entries(BUNDLE_ALIASES).map(([name, replacement]) => [`--alias:${name}`, replacement]),
        ),
        // We pin and bundle our own SDK v3 instead of relying on the version in the Lambda runtime.
        bundleAwsSDK: true,
        externalModules: [...UNBUNDLED_MODULES],
        // The local esbuild (a devDependency) bundles; Docker is never needed.
        forceDockerBundling: false,
        // The root tsconfig (noEmit, moduleResolution Bundler) is only read by esbuild for
        // TypeScript settings; it is passed explicitly so every entry uses the same one.
        tsconfig: TSCONFIG,
      },
    });

    if (route.tableActions.length > 0) this.function.addToRolePolicy(tableAccessStatement(table, route));
    this.function.addToRolePolicy(tenantRateLimitStatement(table));
    for (const name of route.secrets ?? []) this.function.addToRolePolicy(secretReadStatement(props.secrets[name]));

    suppressExpectedFindings(this, table);
  }
}

/** cdk-nag findings that are the design, each with the reason it is accepted. */
function suppressExpectedFindings(fn: ApiFunction, table: ITable): void {
  const tableArn = Stack.of(fn).resolve(table.tableArn) as { 'Fn::GetAtt'?: [string, string] };
  const tableLogicalId = tableArn['Fn::GetAtt']?.[0] ?? 'Table';
  NagSuppressions.addResourceSuppressions(
    fn.role,
    [
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "The route's declared table actions apply to the table's own indexes too: a list picks its index " +
          'at run time, and index ARNs exist only under the table ARN.',
        appliesTo: [`Resource::<${tableLogicalId}.Arn>/index/*`],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions: ' +
          'Resource "*" is the only form AWS accepts (added by Tracing.ACTIVE).',
        appliesTo: ['Resource::*'],
      },
    ],
    true,
  );
  NagSuppressions.addResourceSuppressions(fn.function, [
    {
      id: 'AwsSolutions-L1',
      reason:
        'Node.js 22 is the runtime this service is built, bundled (target node22) and tested for; moving to a ' +
        'newer runtime is a deliberate upgrade, not a drift.',
    },
  ]);
}
