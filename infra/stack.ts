/**
 * The whole deployment of one stage: the table, the HTTP API with its JWT authorizer, and one
 * function per route of functions/routes.ts. Everything that differs between stages comes from
 * StageSettings; everything a route needs comes from its entry in the route table.
 */
import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { routesFor } from '../functions/routes';
import { tableDefinition } from '../shared/data/table';
import { ApiFunction } from './constructs/api-function';
import type { StageSettings } from './stages';

export interface BrebApiStackProps extends StackProps {
  readonly settings: StageSettings;
}

export class BrebApiStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  /** Keyed by route name, so tests and tools can find the function of a route. */
  readonly functions: ReadonlyMap<string, ApiFunction>;

  constructor(scope: Construct, id: string, props: BrebApiStackProps) {
    super(scope, id, props);
    const { settings } = props;

    this.table = createTable(this, settings);

    // Every route sits behind the authorizer by default, so a route cannot be left open by omission;
    // routes only add the scopes they demand.
    this.api = new HttpApi(this, 'HttpApi', {
      description: `Bre-B merchant API (${settings.name})`,
      defaultAuthorizer: new HttpJwtAuthorizer('JwtAuthorizer', settings.auth.issuer, {
        jwtAudience: [...settings.auth.audience],
      }),
    });

    const functions = new Map<string, ApiFunction>();
    for (const route of routesFor(settings.sandboxEnabled)) {
      // The construct id is the route name: logical ids stay stable and readable per route.
      const fn = new ApiFunction(this, route.name, { route, settings, table: this.table });
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

    new CfnOutput(this, 'ApiUrl', { value: this.api.apiEndpoint, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}

/** The table of shared/data/table.ts, with the stage's data-protection settings. */
function createTable(scope: Construct, settings: StageSettings): Table {
  const key = (name: string) => ({ name, type: AttributeType.STRING });
  const table = new Table(scope, 'Table', {
    partitionKey: key(tableDefinition.partitionKey),
    sortKey: key(tableDefinition.sortKey),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: tableDefinition.ttlAttribute,
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
      projectionType: ProjectionType.ALL,
    });
  }
  return table;
}
