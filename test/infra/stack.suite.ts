/**
 * Assertions on the synthesized CloudFormation of every stage: one function per route, the
 * authorizer and scopes of every route, the table settings, and least-privilege IAM. Identity, the
 * API stage, secrets, the queues and workers, monitoring, cdk-nag and the Lambda bundles have test
 * files of their own beside this one.
 */
import { Match } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { contractRoutes } from '../../functions/contract';
import { routes, routesFor, networkRoutes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { QUEUE_ENV, readTenantRateLimit } from '../../shared/runtime/config';
import { tableDefinition } from '../../shared/data/table';
import { EXAMPLE_BANK_KEYS, EXAMPLE_CONNECTOR_URL, stages, stageSettings, type StageName } from '../../infra/stages';
import {
  grantedQueueActions,
  grantedTableActions,
  managedPolicies,
  permissionProblems,
  secretKeyArnOf,
  tenantRateLimitGrants,
} from './privileges';
import { functionLogicalId, logicalIdOf, resourcesOf, synth, type Json, type Synth, type SynthOptions } from './synth';

const stageNames = Object.keys(stages) as StageName[];

describe.each(stageNames)('stack, stage %s', (stage) => {
  const settings = stageSettings(stage);
  const expectedRoutes = routesFor(settings.sandboxEnabled);
  let synthed: Synth;
  let resources: Record<string, Json>;

  beforeAll(() => {
    synthed = synth(stage);
    resources = resourcesOf(synthed);
  });

  const tableId = () => logicalIdOf(synthed, synthed.stack.table);

  describe('functions', () => {
    test('exactly one function per deployed route and per worker, sandbox routes only where enabled', () => {
      // Ours: the routes', the workers', the description's (test/infra/contract.suite.ts) and, with
      // Cognito, the sign-in trigger's. (CDK's handlers of the dashboard's files are in its nested stack.)
      const ours =
        expectedRoutes.length +
        networkRoutes.length +
        workers.length +
        1 +
        (settings.identity.kind === 'cognito' ? 1 : 0);
      synthed.template.resourceCountIs('AWS::Lambda::Function', ours);
      expect(synthed.stack.serviceFunctions.size).toBe(ours);
      expect([...synthed.stack.workers.keys()].sort()).toEqual(workers.map((w) => w.name).sort());
      expect([...synthed.stack.functions.keys()].sort()).toEqual(expectedRoutes.map((r) => r.name).sort());
      for (const route of routes.filter((r) => r.sandbox)) {
        expect(synthed.stack.functions.has(route.name)).toBe(settings.sandboxEnabled);
      }
    });

    test.each(routes.map((r) => [r.name, r] as const))('%s: runtime settings and environment', (_name, route) => {
      if (!expectedRoutes.includes(route)) return;
      const id = functionLogicalId(synthed, route.name);
      // Logical ids derive from the route name, so they are stable and readable in CloudFormation.
      expect(id.startsWith(route.name)).toBe(true);
      const properties = resources[id].Properties;
      expect(properties).toMatchObject({
        Handler: 'index.handler',
        Runtime: 'nodejs24.x',
        Architectures: ['arm64'],
        MemorySize: 512,
        Timeout: 10,
        TracingConfig: { Mode: 'Active' },
        LoggingConfig: { LogGroup: { Ref: expect.any(String) } },
      });
      expect(properties.Environment.Variables).toEqual({
        TABLE_NAME: { Ref: tableId() },
        STAGE: stage,
        SANDBOX_ENABLED: String(settings.sandboxEnabled),
        ACQUIRER_ID: settings.acquirerId,
        PARTICIPANT_NAME: settings.participant.name,
        PARTICIPANT_NIT: settings.participant.nit,
        TENANT_RATE_LIMIT: expect.any(String),
        // Where the stage's money moves: the simulator, or the connector at its URL (network.suite.ts).
        NETWORK: settings.network.kind,
        MAX_PAYMENT_CENTS: String(settings.maxPaymentCents),
        // How long personal data no law makes us keep is stored (docs/privacy.md).
        PII_RETENTION_DAYS: String(settings.piiRetentionDays),
        // The caps on the network's credits, where the stage sets them (docs/network.md, Limits).
        ...(settings.networkLimits
          ? {
              NETWORK_CREDIT_MAX_CENTS: String(settings.networkLimits.perCreditCents),
              NETWORK_MERCHANT_DAY_MAX_CENTS: String(settings.networkLimits.perMerchantPerDayCents),
            }
          : {}),
        ...(settings.network.kind === 'connector'
          ? { NETWORK_CONNECTOR_URL: `${EXAMPLE_CONNECTOR_URL}/`, NETWORK_BANK_KEYS: EXAMPLE_BANK_KEYS }
          : {}),
        POWERTOOLS_SERVICE_NAME: 'breb-merchant-api',
        POWERTOOLS_LOG_LEVEL: settings.logLevel,
        // A namespace per stage: stages in one account never count each other's metrics.
        POWERTOOLS_METRICS_NAMESPACE: `BrebMerchantApi/${settings.name}`,
        NODE_OPTIONS: '--enable-source-maps',
        // Only the routes that name the signing key learn where it is.
        ...(route.secrets?.includes('qrSigning')
          ? { QR_SIGNING_SECRET_ARN: { Ref: logicalIdOf(synthed, synthed.stack.secrets.qrSigning) } }
          : {}),
        ...(route.secrets?.includes('network')
          ? { NETWORK_SECRET_ARN: { Ref: logicalIdOf(synthed, synthed.stack.secrets.network) } }
          : {}),
        // Only the routes that name a queue learn its URL.
        ...Object.fromEntries(
          (route.queues ?? []).map((name) => [
            QUEUE_ENV[name],
            { Ref: logicalIdOf(synthed, synthed.stack.queues.byName[name]) },
          ]),
        ),
        // Only the routes that seal or open secrets learn which key does it.
        ...(route.sealing?.length ? { SECRET_KEY_ARN: secretKeyArnOf(synthed) } : {}),
        // Only the routes that read the report files learn where they are (reports.suite.ts).
        ...(route.reportFiles?.length || route.settlementFiles?.length
          ? { REPORT_BUCKET_NAME: { Ref: logicalIdOf(synthed, synthed.stack.reportBucket) } }
          : {}),
      });
      // Every function reads the stage's per-tenant limit from it.
      expect(readTenantRateLimit(properties.Environment.Variables)).toEqual(settings.tenantRateLimit);
    });

    test('each function logs to its own log group, kept as the stage says', () => {
      const accessLogsId = logicalIdOf(synthed, synthed.stack.apiStage.accessLogs);
      const logGroups = Object.entries(synthed.template.findResources('AWS::Logs::LogGroup')) as [string, Json][];
      // One per function of ours (routes', workers', the description's, the sign-in trigger's), plus
      // the API's access logs.
      expect(logGroups).toHaveLength(synthed.stack.serviceFunctions.size + 1);
      for (const [id, logGroup] of logGroups) {
        expect(logGroup.Properties.RetentionInDays).toBe(settings.logRetention);
        expect(logGroup.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
        if (id === accessLogsId) continue;
        const users = Object.values(resources).filter(
          (r: Json) => r.Type === 'AWS::Lambda::Function' && r.Properties.LoggingConfig.LogGroup.Ref === id,
        );
        expect(users).toHaveLength(1);
      }
    });

    test("every function logs JSON, filtered by Lambda at the stage's level", () => {
      // Routes', workers', the description's and the sign-in trigger's alike (service-function.ts).
      for (const fn of synthed.stack.serviceFunctions.values()) {
        expect(resources[logicalIdOf(synthed, fn.function)].Properties.LoggingConfig).toEqual({
          LogFormat: 'JSON',
          // The level the logger also reads from POWERTOOLS_LOG_LEVEL (the environment test above).
          ApplicationLogLevel: settings.logLevel,
          // START, END and REPORT.
          SystemLogLevel: 'INFO',
          LogGroup: { Ref: logicalIdOf(synthed, fn.logGroup) },
        });
      }
    });

    test('the stack carries its tags itself, not only its resources', () => {
      // Since @aws-cdk/core:explicitStackTags, Tags.of(stack) no longer tags the stack (cdk.json).
      expect(synthed.stack.tags.tagValues()).toEqual({ service: 'breb-merchant-api', stage });
    });
  });

  describe('HTTP API', () => {
    test('one JWT authorizer, on the Authorization header', () => {
      synthed.template.resourceCountIs('AWS::ApiGatewayV2::Authorizer', 1);
      synthed.template.hasResourceProperties('AWS::ApiGatewayV2::Authorizer', {
        AuthorizerType: 'JWT',
        IdentitySource: ['$request.header.Authorization'],
      });
    });

    test('every path of every deployed route, and nothing else, is routed behind the authorizer', () => {
      const expectedKeys = expectedRoutes.flatMap((r) => r.paths.map((p) => `${r.method} ${p}`));
      // The API's description is routed too, without the authorizer (test/infra/contract.suite.ts).
      // So are the network connector's, without it too (network.suite.ts).
      const apiRoutes = (Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Route')) as Json[]).filter(
        (r) =>
          ![contractRoutes, ...networkRoutes].some((open) =>
            open.paths.some((path) => r.Properties.RouteKey === `${open.method} ${path}`),
          ),
      );
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
        Properties: { IntegrationUri: { 'Fn::GetAtt': [functionLogicalId(synthed, route.name), 'Arn'] } },
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

    test('outputs the API URL, the table name and the QR secret', () => {
      synthed.template.hasOutput('ApiUrl', {});
      synthed.template.hasOutput('TableName', { Value: { Ref: tableId() } });
      synthed.template.hasOutput('QrSigningSecretArn', {});
    });
  });

  describe('table', () => {
    test('keys, indexes, TTL and billing come from the shared table definition', () => {
      synthed.template.resourceCountIs('AWS::DynamoDB::Table', 1);
      // A keys-only twin shares the key attributes of its index: each is declared once.
      const attributeNames = [
        ...new Set([
          tableDefinition.partitionKey,
          tableDefinition.sortKey,
          ...tableDefinition.globalSecondaryIndexes.flatMap((i) => [i.partitionKey, i.sortKey]),
        ]),
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
          Projection: { ProjectionType: index.projection },
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
    test.each(routes.map((r) => [r.name, r] as const))('%s may use only what its route declares', (_name, route) => {
      if (!expectedRoutes.includes(route)) return;
      expect(permissionProblems(synthed, route)).toEqual([]);
      // Each declared table action is granted (on the table and its indexes, checked above).
      expect(grantedTableActions(synthed, route)).toEqual(route.tableActions.map((a) => `dynamodb:${a}`).sort());
      // Beside them, the shared chain's update of its rate-limit counters, once.
      expect(tenantRateLimitGrants(synthed, route)).toHaveLength(1);
    });

    test('execution roles carry no managed policy (AWSLambdaBasicExecutionRole reaches every log group)', () => {
      for (const route of expectedRoutes) expect(managedPolicies(synthed, route)).toEqual([]);
    });

    test('no route reads a secret it does not name', () => {
      for (const route of expectedRoutes.filter((r) => !r.secrets?.length)) {
        const fn = resources[functionLogicalId(synthed, route.name)];
        expect(fn.Properties.Environment.Variables.QR_SIGNING_SECRET_ARN).toBeUndefined();
        expect(JSON.stringify(permissionProblems(synthed, route))).not.toContain('secretsmanager');
      }
    });

    test('a route sends to exactly the queues it names (SendMessage only), and no other route to any', () => {
      // The route table names some: createPayment schedules settlements, a redelivery queues its attempt.
      expect(expectedRoutes.filter((r) => r.queues?.length).map((r) => r.name)).toEqual(
        expect.arrayContaining(['createPayment', 'redeliverWebhookDelivery']),
      );
      for (const route of expectedRoutes) {
        expect({ [route.name]: grantedQueueActions(synthed, route) }).toEqual({
          [route.name]: Object.fromEntries((route.queues ?? []).map((name) => [name, ['sqs:SendMessage']])),
        });
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

describe('the least-privilege check catches', () => {
  // Guards the guard: each of these broadens one role in a way a convenience call would.
  const route = routes[0]!;
  const problemsAfter = (modify: NonNullable<SynthOptions['modify']>) =>
    permissionProblems(synth('dev', { modify }), route);

  test('a convenience grant such as grantReadData (Scan, DescribeTable, ...)', () => {
    const problems = problemsAfter((stack) => stack.table.grantReadData(stack.functions.get(route.name)!.function));
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('dynamodb:Scan'),
        expect.stringContaining('dynamodb:DescribeTable'),
      ]),
    );
  });

  test('a secret the route does not name', () => {
    const problems = problemsAfter((stack) =>
      stack.secrets.qrSigning.grantRead(stack.functions.get(route.name)!.function),
    );
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining('secretsmanager:GetSecretValue')]));
  });

  test("the rate-limit counters' grant without its conditions, or on another key prefix", () => {
    // getCustomer declares GetItem only: UpdateItem is the counters' and nothing else.
    const reader = routes.find((r) => r.name === 'getCustomer')!;
    const synthed = synth('dev', {
      modify: (stack) => {
        const fn = stack.functions.get(reader.name)!.function;
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['dynamodb:UpdateItem'], resources: [stack.table.tableArn] }),
        );
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: ['dynamodb:UpdateItem'],
            resources: [stack.table.tableArn],
            conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['*'] } },
          }),
        );
      },
    });
    const problems = permissionProblems(synthed, reader);
    expect(problems).toHaveLength(2);
    expect(problems).toEqual(Array(2).fill(expect.stringContaining('dynamodb:UpdateItem: not declared by the route')));
  });

  test('a queue the route does not name, and more than sending to one it names', () => {
    const payer = routes.find((r) => r.name === 'createPayment')!;
    expect(payer.queues).toEqual(['settlement', 'creditDecisions']);
    const synthed = synth('dev', {
      modify: (stack) => {
        const fn = stack.functions.get(payer.name)!.function;
        stack.queues.byName.webhookDeliveries.grantSendMessages(fn);
        stack.queues.byName.settlement.grantPurge(fn);
      },
    });
    const deliveriesArn = JSON.stringify([
      { 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.queues.byName.webhookDeliveries), 'Arn'] },
    ]);
    expect(permissionProblems(synthed, payer)).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`sqs:SendMessage on ${deliveriesArn}`),
        expect.stringContaining('sqs:GetQueueAttributes: not declared by the route'),
        expect.stringContaining('sqs:PurgeQueue: not declared by the route'),
      ]),
    );
  });

  test('a wildcard action, and a declared action on another resource', () => {
    const problems = problemsAfter((stack) => {
      const fn = stack.functions.get(route.name)!.function;
      fn.addToRolePolicy(new PolicyStatement({ actions: ['logs:*'], resources: ['*'] }));
      fn.addToRolePolicy(new PolicyStatement({ actions: [`dynamodb:${route.tableActions[0]}`], resources: ['*'] }));
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('logs:*: wildcard action'),
        expect.stringContaining(`dynamodb:${route.tableActions[0]} on ["*"]`),
      ]),
    );
  });
});
