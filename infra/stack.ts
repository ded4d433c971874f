/**
 * The whole deployment of one stage: the table, the stage's secrets, who issues tokens (Cognito or
 * an external issuer), the HTTP API with its JWT authorizer, throttling and access logs, one
 * function per route of functions/routes.ts, and the alarms and dashboard. Everything that differs
 * between stages comes from StageSettings; everything a route needs comes from its route entry.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { routes as routeTable, type RouteDefinition } from '../functions/routes';
import { tableDefinition } from '../shared/data/table';
import { ApiFunction } from './constructs/api-function';
import { ApiStage } from './constructs/api-stage';
import { Identity } from './constructs/identity';
import { Monitoring } from './constructs/monitoring';
import { StageSecrets } from './constructs/stage-secrets';
import type { StageSettings } from './stages';

export interface BrebApiStackProps extends StackProps {
  readonly settings: StageSettings;
  /** The routes to deploy: the route table unless a test passes its own. */
  readonly routes?: readonly RouteDefinition[];
}

export class BrebApiStack extends Stack {
  readonly settings: StageSettings;
  readonly table: Table;
  readonly secrets: StageSecrets;
  readonly identity: Identity;
  readonly api: HttpApi;
  readonly apiStage: ApiStage;
  /** The routes this stage serves: sandbox operator routes only where the sandbox is enabled. */
  readonly routes: readonly RouteDefinition[];
  /** Keyed by route name, so tests and tools can find the function of a route. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: BrebApiStackProps) {
    super(scope, id, props);
    const { settings } = props;
    this.settings = settings;
    this.routes = (props.routes ?? routeTable).filter((route) => !route.sandbox || settings.sandboxEnabled);

    this.table = createTable(this, settings);
    this.secrets = new StageSecrets(this, 'Secrets', { settings });
    this.identity = new Identity(this, 'Identity', { settings });

    // Every route sits behind the authorizer by default, so a route cannot be left open by omission;
    // routes only add the scopes they demand.
    this.api = new HttpApi(this, 'HttpApi', {
      description: `Bre-B merchant API (${settings.name})`,
      defaultAuthorizer: this.identity.authorizer,
      // The $default stage is ApiStage's, with throttling and access logs.
      createDefaultStage: false,
    });
    this.apiStage = new ApiStage(this, 'ApiStage', { api: this.api, settings });

    const functions = new Map<string, ApiFunction>();
    for (const route of this.routes) {
      // The construct id is the route name: logical ids stay stable and readable per route.
      const fn = new ApiFunction(this, route.name, {
        route,
        settings,
        table: this.table,
        secrets: this.secrets.byName,
      });
      // One integration per function, shared by all of its paths.
      const integration = new HttpLambdaIntegration(`${route.name}Integration`, fn.function);
      for (const path of route.paths) {
        this.api.addRoutes({
          path,
          methods: [HttpMethod[route.method]],
          integration,
          // Empty scopes mean "any valid token": the default authorizer still applies.
          ...(route.scopes.length > 0 ? { authorizationScopes: [...route.scopes] } : {}),
        });
      }
      functions.set(route.name, fn);
    }
    this.functions = functions;

    this.monitoring = new Monitoring(this, 'Monitoring', { settings, api: this.api, functions, table: this.table });

    this.addOutputs();
  }

  /** What an operator needs after `cdk deploy`: printed by the CLI, under these short names. */
  private addOutputs(): void {
    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('ApiUrl', this.api.apiEndpoint, 'Base URL of the HTTP API');
    output('TableName', this.table.tableName, 'The single DynamoDB table');
    output('QrSigningSecretArn', this.secrets.qrSigning.secretArn, 'The QR signing key (README: rotating it)');
    output('DashboardUrl', this.monitoring.dashboardUrl, 'CloudWatch dashboard of this stage');
    output('AlarmTopicArn', this.monitoring.topic.topicArn, 'SNS topic of every alarm');
    const { userPool, tokenUrl, clients } = this.identity;
    if (userPool && tokenUrl) {
      output('UserPoolId', userPool.userPoolId, 'Cognito user pool of the API clients');
      output('TokenUrl', tokenUrl, 'OAuth2 token endpoint (client credentials)');
    }
    for (const [name, client] of clients) {
      // The secret stays in Cognito: aws cognito-idp describe-user-pool-client --user-pool-id ... --client-id ...
      output(`ClientId${pascalCase(name)}`, client.userPoolClientId, `App client "${name}"`);
    }
  }
}

/** `read-only` -> `ReadOnly`: output ids are alphanumeric. */
const pascalCase = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** The table of shared/data/table.ts, with the stage's data-protection settings. */
function createTable(scope: Construct, settings: StageSettings): Table {
  const key = (name: string) => ({ name, type: AttributeType.STRING });
  const table = new Table(scope, 'Table', {
    partitionKey: key(tableDefinition.partitionKey),
    sortKey: key(tableDefinition.sortKey),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: tableDefinition.ttlAttribute,
    stream: StreamViewType[tableDefinition.streamView],
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // Production data survives both a mistaken delete call and a stack deletion.
    deletionProtection: settings.retainData,
    removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  for (const index of tableDefinition.globalSecondaryIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: key(index.partitionKey),
      sortKey: key(index.sortKey),
      projectionType: ProjectionType[index.projection],
    });
  }
  return table;
}
