/**
 * One Lambda function serving one route of the route table. This is the only place that sets a
 * function's runtime, bundling, logging and table access, so every route gets the same settings and
 * no route can quietly receive more rights than it declares.
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../functions/routes';
import { ENV } from '../../shared/config';
import { handlerEntry, LOCK_FILE, REPO_ROOT, TSCONFIG } from '../paths';
import type { StageSettings } from '../stages';

export const SERVICE_NAME = 'breb-merchant-api';

/**
 * esbuild emits ESM, where `require` does not exist; CommonJS dependencies bundled into the output
 * still call it, so the banner recreates it from the module's own URL.
 */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

export interface ApiFunctionProps {
  readonly route: RouteDefinition;
  readonly settings: StageSettings;
  readonly table: ITable;
}

/** The variables shared/config.ts reads, plus the Powertools logger settings. */
export function functionEnvironment(settings: StageSettings, tableName: string): Record<string, string> {
  return {
    [ENV.tableName]: tableName,
    [ENV.stage]: settings.name,
    [ENV.sandboxEnabled]: String(settings.sandboxEnabled),
    [ENV.participantName]: settings.participant.name,
    [ENV.participantNit]: settings.participant.nit,
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_LOG_LEVEL: settings.logLevel,
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

export class ApiFunction extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    const { route, settings, table } = props;
    const removalPolicy = settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

    // An explicit log group, so that retention and removal follow the stage instead of "forever".
    const logGroup = new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH, removalPolicy });

    this.function = new NodejsFunction(this, 'Function', {
      description: `${route.method} ${route.paths.join(' ')}`,
      entry: handlerEntry(route.handler),
      handler: 'handler',
      // Explicit, so that synthesis does not depend on the directory it is started from.
      projectRoot: REPO_ROOT,
      depsLockFilePath: LOCK_FILE,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: 512,
      timeout: Duration.seconds(10),
      tracing: Tracing.ACTIVE,
      logGroup,
      environment: functionEnvironment(settings, table.tableName),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        // Prefer the ESM build of dependencies that ship both (Middy, jose, Powertools).
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // We pin and bundle our own SDK v3 instead of relying on the version in the Lambda runtime.
        bundleAwsSDK: true,
        // The local esbuild (a devDependency) bundles; Docker is never needed.
        forceDockerBundling: false,
        // The root tsconfig (noEmit, moduleResolution Bundler) is only read by esbuild for
        // TypeScript settings; it is passed explicitly so every entry uses the same one.
        tsconfig: TSCONFIG,
      },
    });

    if (route.tableActions.length > 0) this.function.addToRolePolicy(tableAccessStatement(table, route));
  }
}
