/**
 * Assertions on the synthesized CloudFormation of every stage: one function per route, the
 * authorizer and scopes of every route, the table settings, and least-privilege IAM. Bundling is
 * skipped (context `aws:cdk:bundling-stacks` = []) so these run in seconds; one test at the end
 * bundles for real.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { routes, routesFor, type RouteDefinition } from '../../functions/routes';
import { tableDefinition } from '../../shared/data/table';
import { REPO_ROOT } from '../../infra/paths';
import { BrebApiStack } from '../../infra/stack';
import { stages, stageSettings, type StageName } from '../../infra/stages';

/** CloudFormation resources are untyped JSON. */
type Json = any;

/** The feature flags of cdk.json, so the tests see the same template as `cdk synth`. */
const cdkContext: Record<string, unknown> = JSON.parse(
  fs.readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8'),
).context;

/** X-Ray tracing adds these to every function's role; nothing else beyond the route's table actions. */
const TRACING_ACTIONS = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'];

interface SynthOptions {
  /** Really run esbuild, writing the assets (and their metadata) into `outdir`. */
  readonly bundle?: { readonly outdir: string };
  /** Changes the stack before synthesis (an app synthesizes only once). */
  readonly modify?: (stack: BrebApiStack) => void;
}

function synth(stage: StageName, options: SynthOptions = {}) {
  const context = {
    ...cdkContext,
    stage,
    ...(options.bundle ? { 'aws:cdk:enable-asset-metadata': true } : { 'aws:cdk:bundling-stacks': [] }),
  };
  const app = new App({ context, ...(options.bundle ? { outdir: options.bundle.outdir } : {}) });
  const stack = new BrebApiStack(app, `BrebMerchantApi-${stage}`, { settings: stageSettings(stage) });
  options.modify?.(stack);
  return { app, stack, template: Template.fromStack(stack) };
}

type Synth = ReturnType<typeof synth>;

function functionLogicalId({ stack }: Synth, route: RouteDefinition): string {
  const fn = stack.functions.get(route.name);
  if (!fn) throw new Error(`No function for route ${route.name}`);
  return stack.getLogicalId(fn.function.node.defaultChild as CfnFunction);
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Every IAM statement attached to the execution role of a route's function. */
function roleStatements(synthed: Synth, route: RouteDefinition): Json[] {
  const resources = synthed.template.toJSON().Resources as Record<string, Json>;
  const roleArn = resources[functionLogicalId(synthed, route)].Properties.Role;
  const roleId: string = roleArn['Fn::GetAtt'][0];
  return Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => asArray(r.Properties.Roles).some((role: Json) => role.Ref === roleId))
    .flatMap((r) => asArray(r.Properties.PolicyDocument.Statement));
}

/** The actions a route's role may use that the route did not declare. */
function undeclaredActions(statements: Json[], route: RouteDefinition): string[] {
  const allowed = new Set([...route.tableActions.map((action) => `dynamodb:${action}`), ...TRACING_ACTIONS]);
  return statements
    .filter((s) => s.Effect === 'Allow')
    .flatMap((s) => [...asArray<string>(s.Action), ...asArray<string>(s.NotAction).map((a) => `NotAction:${a}`)])
    .filter((action) => action.includes('*') || !allowed.has(action));
}

const stageNames = Object.keys(stages) as StageName[];

describe.each(stageNames)('stage %s', (stage) => {
  const settings = stageSettings(stage);
  const expectedRoutes = routesFor(settings.sandboxEnabled);
  let synthed: Synth;
  let resources: Record<string, Json>;

  beforeAll(() => {
    synthed = synth(stage);
    resources = synthed.template.toJSON().Resources;
  });

  const tableId = () => synthed.stack.getLogicalId(synthed.stack.table.node.defaultChild as CfnTable);

  describe('functions', () => {
    test('exactly one function per deployed route, sandbox routes only where enabled', () => {
      synthed.template.resourceCountIs('AWS::Lambda::Function', expectedRoutes.length);
      expect([...synthed.stack.functions.keys()].sort()).toEqual(expectedRoutes.map((r) => r.name).sort());
      for (const route of routes.filter((r) => r.sandbox)) {
        expect(synthed.stack.functions.has(route.name)).toBe(settings.sandboxEnabled);
      }
    });

    test.each(routes.map((r) => [r.name, r] as const))('%s: runtime settings and environment', (_name, route) => {
      if (!expectedRoutes.includes(route)) return;
      const id = functionLogicalId(synthed, route);
      // Logical ids derive from the route name, so they are stable and readable in CloudFormation.
      expect(id.startsWith(route.name)).toBe(true);
      expect(resources[id].Properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: 10,
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
        Environment: {
          Variables: {
            TABLE_NAME: { Ref: tableId() },
            STAGE: stage,
            SANDBOX_ENABLED: String(settings.sandboxEnabled),
            PARTICIPANT_NAME: settings.participant.name,
            PARTICIPANT_NIT: settings.participant.nit,
            POWERTOOLS_SERVICE_NAME: 'breb-merchant-api',
            POWERTOOLS_LOG_LEVEL: settings.logLevel,
            NODE_OPTIONS: '--enable-source-maps',
          },
        },
      });
    });

    test('log groups keep a month of logs and follow the stage removal policy', () => {
      const logGroups = synthed.template.findResources('AWS::Logs::LogGroup');
      expect(Object.keys(logGroups)).toHaveLength(expectedRoutes.length);
      for (const logGroup of Object.values(logGroups) as Json[]) {
        expect(logGroup.Properties.RetentionInDays).toBe(30);
        expect(logGroup.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
      }
    });
  });

  describe('HTTP API', () => {
    test('the JWT authorizer trusts the stage issuer and audiences', () => {
      synthed.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
      synthed.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
        JwtConfiguration: { Issuer: settings.auth.issuer, Audience: [...settings.auth.audience] },
      });
    });

    test('every path of every deployed route, and nothing else, is routed behind the authorizer', () => {
      const expectedKeys = expectedRoutes.flatMap((r) => r.paths.map((p) => `${r.method} ${p}`));
      const apiRoutes = Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Route')) as Json[];
      expect(apiRoutes.map((r) => r.Properties.RouteKey).sort()).toEqual(expectedKeys.sort());
      const authorizerId = Object.keys(synthed.template.findResources('AWS::ApiGatewayV2::Authorizer'))[0];
      for (const apiRoute of apiRoutes) {
        expect(apiRoute.Properties.AuthorizationType).toBe('JWT');
        expect(apiRoute.Properties.AuthorizerId).toEqual({ Ref: authorizerId });
      }
    });

    test.each(routes.map((r) => [r.name, r] as const))('%s: scopes and integration', (_name, route) => {
      if (!expectedRoutes.includes(route)) return;
      const integrations = synthed.template.findResources('AWS::ApiGatewayV2::Integration', {
        Properties: { IntegrationUri: { 'Fn::GetAtt': [functionLogicalId(synthed, route), 'Arn'] } },
      });
      expect(Object.keys(integrations)).toHaveLength(1);
      for (const path of route.paths) {
        synthed.template.hasResourceProperties('AWS::ApiGatewayV2::Route', {
          RouteKey: `${route.method} ${path}`,
          AuthorizationScopes: route.scopes.length > 0 ? [...route.scopes] : Match.absent(),
          Target: { 'Fn::Join': ['', ['integrations/', { Ref: Object.keys(integrations)[0] }]] },
        });
      }
    });

    test('outputs the API URL and the table name', () => {
      synthed.template.hasOutput('ApiUrl', {});
      synthed.template.hasOutput('TableName', { Value: { Ref: tableId() } });
    });
  });

  describe('table', () => {
    test('keys, indexes, TTL and billing come from the shared table definition', () => {
      synthed.template.resourceCountIs('AWS::DynamoDB::Table', 1);
      const attributeNames = [
        tableDefinition.partitionKey,
        tableDefinition.sortKey,
        ...tableDefinition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
      ];
      synthed.template.hasResourceProperties('AWS::DynamoDB::Table', {
        KeySchema: [
          { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
          { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith(
          attributeNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
        ),
        GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: tableDefinition.ttlAttribute, Enabled: true },
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      });
    });

    test(`data protection: ${settings.retainData ? 'retained and protected' : 'deleted with the stack'}`, () => {
      const [table] = Object.values(synthed.template.findResources('AWS::DynamoDB::Table')) as Json[];
      expect(table.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
      expect(table.UpdateReplacePolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
      expect(table.Properties.DeletionProtectionEnabled ?? false).toBe(settings.retainData);
    });
  });

  describe('least privilege', () => {
    test.each(routes.map((r) => [r.name, r] as const))('%s may use only its declared table actions', (_name, route) => {
      if (!expectedRoutes.includes(route)) return;
      const statements = roleStatements(synthed, route);
      expect(undeclaredActions(statements, route)).toEqual([]);

      // Each declared action is granted, on the table and its indexes only.
      const tableStatements = statements.filter((s) =>
        asArray<string>(s.Action).some((a) => a.startsWith('dynamodb:')),
      );
      const granted = tableStatements.flatMap((s) => asArray<string>(s.Action)).sort();
      expect(granted).toEqual(route.tableActions.map((a) => `dynamodb:${a}`).sort());
      for (const statement of tableStatements) {
        expect(statement.Resource).toEqual([
          { 'Fn::GetAtt': [tableId(), 'Arn'] },
          { 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId(), 'Arn'] }, '/index/*']] },
        ]);
      }
    });

    test('execution roles carry only the basic logging managed policy', () => {
      for (const route of expectedRoutes) {
        const roleId: string = resources[functionLogicalId(synthed, route)].Properties.Role['Fn::GetAtt'][0];
        const managed = asArray(resources[roleId].Properties.ManagedPolicyArns);
        expect(managed).toHaveLength(1);
        expect(JSON.stringify(managed[0])).toContain(':iam::aws:policy/service-role/AWSLambdaBasicExecutionRole');
      }
    });
  });
});

test('prod exposes no sandbox route', () => {
  const { template } = synth('prod');
  const keys = (Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Json[]).map(
    (r) => r.Properties.RouteKey,
  );
  expect(keys.length).toBeGreaterThan(0);
  expect(keys.filter((key: string) => key.includes('/sandbox/'))).toEqual([]);
});

test('the least-privilege check catches a broad grant', () => {
  // Guards the guard: a convenience grant such as grantReadData adds Scan, DescribeTable, ...
  const route = routes[0]!;
  const broadened = synth('dev', {
    modify: (stack) => stack.table.grantReadData(stack.functions.get(route.name)!.function),
  });
  expect(undeclaredActions(roleStatements(broadened, route), route)).toEqual(
    expect.arrayContaining(['dynamodb:Scan', 'dynamodb:DescribeTable']),
  );
});

test('bundles every handler locally as source-mapped ESM', () => {
  // Real esbuild bundling, no Docker: catches handlers or dependencies that do not bundle.
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'breb-cdk-'));
  try {
    const { stack, template } = synth('dev', { bundle: { outdir } });
    const resources = template.toJSON().Resources;
    for (const route of routesFor(stageSettings('dev').sandboxEnabled)) {
      const fn = stack.functions.get(route.name)!.function;
      const metadata = resources[stack.getLogicalId(fn.node.defaultChild as CfnFunction)].Metadata;
      const assetDir = path.join(outdir, metadata['aws:asset:path']);
      const code = fs.readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire } from 'module';")).toBe(true);
      expect(fs.existsSync(path.join(assetDir, 'index.mjs.map'))).toBe(true);
    }
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}, 120_000);
