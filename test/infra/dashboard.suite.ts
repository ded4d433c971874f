/**
 * The merchant dashboard on AWS, in the synthesized templates (the stage's, and the dashboard's
 * nested stack's, which the stage's passes what it names): its files in a private bucket that
 * only the distribution reads (origin access control), the API's paths behind the same distribution
 * (uncached, Authorization passed on), the page's security headers, the people's sign-in (a public
 * app client with the code flow back to the dashboard only, the pre-token-generation trigger with
 * its rights, the authorizer accepting the dashboard's tokens), and the upload of the built files
 * with their config.json. The distribution's viewer-request function is run here on sample requests.
 */
import { contractRoutes } from '../../functions/contract';
import { networkRoutes, routesFor } from '../../functions/routes';
import { PERSON_ATTRIBUTES, personClaimsTrigger } from '../../functions/triggers';
import { apiPathPatterns } from '../../infra/constructs/dashboard-site';
import { ACCESS_LOG_FIELDS, WITHHELD_ACCESS_LOG_FIELDS } from '../../infra/constructs/cloudfront-access-logs';
import { dashboardContentSecurityPolicy } from '../../infra/dashboard-policy';
import { stages, type StageName } from '../../infra/stages';
import { permissionProblems } from './privileges';
import type { Template } from 'aws-cdk-lib/assertions';
import { logicalIdOf, nestedOf, synth, type Json, type Nested, type Synth } from './synth';

/** CloudFront's managed policies, by the ids AWS gives them. */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

const hostingStages = (Object.keys(stages) as StageName[]).filter((s) => stages[s].identity.kind === 'cognito');

const onlyResource = (template: Template, type: string): [string, Json] => {
  const found = Object.entries(template.findResources(type)) as [string, Json][];
  expect(found).toHaveLength(1);
  return found[0]!;
};

/** A template's string with its region reference filled in (Fn::Join of text and { Ref: 'AWS::Region' }). */
function resolved(value: Json, region: string): string {
  if (typeof value === 'string') return value;
  const [separator, parts] = value['Fn::Join'] as [string, Json[]];
  return parts
    .map((part) => (typeof part === 'string' ? part : part.Ref === 'AWS::Region' ? region : '?'))
    .join(separator);
}

/** A CloudFront path pattern (`*` any characters) as a test of a path. */
const matches = (pattern: string, path: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(path);

describe.each(hostingStages)('merchant dashboard, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  /** The dashboard's nested stack. */
  let nested: Nested;
  let distribution: Json;
  let distributionId: string;
  beforeAll(() => {
    synthed = synth(stage);
    nested = nestedOf(synthed, synthed.stack.dashboard!);
    [distributionId, distribution] = onlyResource(nested.template, 'AWS::CloudFront::Distribution');
    distribution = distribution.Properties.DistributionConfig;
  });
  const dashboard = () => synthed.stack.dashboard!;
  test("the files' bucket is private: public access blocked, TLS only, read by this distribution alone", () => {
    const bucketId = logicalIdOf(synthed, dashboard().bucket);
    const bucket = nested.resources()[bucketId];
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(synthed, dashboard().logBucket) } },
    });
    expect(bucket.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
    const policy = Object.values(nested.resources()).find(
      (r: Json) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === bucketId,
    ).Properties.PolicyDocument.Statement as Json[];
    const allows = policy.filter((s) => s.Effect === 'Allow');
    // CloudFront reads objects for this distribution only; anything else allowed is CDK's own
    // emptying of the bucket when a stage that keeps nothing is deleted.
    expect(allows.filter((s) => s.Principal.Service)).toEqual([
      {
        Action: 's3:GetObject',
        Condition: {
          StringEquals: {
            'AWS:SourceArn': {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':cloudfront::',
                  { Ref: 'AWS::AccountId' },
                  ':distribution/',
                  { Ref: distributionId },
                ],
              ],
            },
          },
        },
        Effect: 'Allow',
        Principal: { Service: 'cloudfront.amazonaws.com' },
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] },
      },
    ]);
    for (const statement of allows.filter((s) => !s.Principal.Service)) {
      expect(statement.Principal.AWS['Fn::GetAtt'][0]).toMatch(/^CustomS3AutoDeleteObjects/);
    }
    expect(policy).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
  });

  test("the log bucket takes the files' bucket's access logs by its policy, not by a canned ACL", () => {
    // @aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy (cdk.json): S3's log delivery is granted by the
    // bucket policy, for the files' bucket of this account alone, instead of the LogDeliveryWrite ACL
    // that let the whole log-delivery group write anywhere in the bucket.
    const logsId = logicalIdOf(synthed, dashboard().logBucket);
    const filesId = logicalIdOf(synthed, dashboard().bucket);
    const logs = nested.resources()[logsId];
    expect(logs.Properties.AccessControl).toBeUndefined();
    // No ACLs at all: CloudFront's vended logs are granted by the policy too.
    expect(logs.Properties.OwnershipControls).toEqual({ Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] });
    const policy = Object.values(nested.resources()).find(
      (r: Json) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === logsId,
    ).Properties.PolicyDocument.Statement as Json[];
    expect(policy.filter((s) => s.Principal?.Service === 'logging.s3.amazonaws.com')).toEqual([
      {
        Action: 's3:PutObject',
        Condition: {
          ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [filesId, 'Arn'] } },
          StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
        },
        Effect: 'Allow',
        Principal: { Service: 'logging.s3.amazonaws.com' },
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logsId, 'Arn'] }, '/s3/*']] },
      },
    ]);
  });

  test('the default behaviour serves the bucket through origin access control, with the page’s headers', () => {
    const [controlId, control] = onlyResource(nested.template, 'AWS::CloudFront::OriginAccessControl');
    expect(control.Properties.OriginAccessControlConfig).toMatchObject({
      OriginAccessControlOriginType: 's3',
      SigningBehavior: 'always',
      SigningProtocol: 'sigv4',
    });
    const s3Origin = distribution.Origins.find((o: Json) => o.S3OriginConfig);
    expect(s3Origin.OriginAccessControlId).toEqual({ 'Fn::GetAtt': [controlId, 'Id'] });
    expect(distribution.DefaultCacheBehavior).toMatchObject({
      TargetOriginId: s3Origin.Id,
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CACHING_OPTIMIZED,
      FunctionAssociations: [{ EventType: 'viewer-request' }],
    });
    const headers = nested.resources()[distribution.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref];
    const security = headers.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig;
    // The page may fetch from itself and from Cognito's token endpoint, nothing else.
    const region = 'sa-east-1';
    const cognito = `https://${(settings.identity as { domainPrefix: string }).domainPrefix}.auth.${region}.amazoncognito.com`;
    expect(security.ContentSecurityPolicy.Override).toBe(true);
    expect(resolved(security.ContentSecurityPolicy.ContentSecurityPolicy, region)).toBe(
      dashboardContentSecurityPolicy(cognito),
    );
    expect(security).toMatchObject({
      FrameOptions: { FrameOption: 'DENY' },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer' },
      ContentTypeOptions: { Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: 31536000 },
    });
    // No legacy logs: they always keep the query string.
    expect(distribution.Logging).toBeUndefined();
  });

  test("the distribution's access logs go to the log bucket through us-east-1's vended logs, without query strings or cookies", () => {
    // Each call is a JSON text joined with references: read back with every reference as its logical id.
    const callOf = (create: Json): Json => {
      const parts = create['Fn::Join'][1] as (string | Json)[];
      const text = parts
        .map((part) => (typeof part === 'string' ? part : (part.Ref ?? part['Fn::GetAtt'][0])))
        .join('');
      return JSON.parse(text);
    };
    const calls = new Map<string, Json>(
      Object.values(nested.template.findResources('Custom::AWS')).map((r: Json) => {
        const call = callOf(r.Properties.Create);
        return [call.action as string, call];
      }),
    );
    expect([...calls.keys()].sort()).toEqual(['createDelivery', 'putDeliveryDestination', 'putDeliverySource']);
    for (const call of calls.values()) expect(call).toMatchObject({ service: 'CloudWatchLogs', region: 'us-east-1' });
    const distributionId = logicalIdOf(synthed, dashboard().distribution);
    expect(calls.get('putDeliverySource')!.parameters).toEqual({
      name: `breb-merchant-api-${stage}-cloudfront`,
      resourceArn: `arn:AWS::Partition:cloudfront::AWS::AccountId:distribution/${distributionId}`,
      logType: 'ACCESS_LOGS',
    });
    const logsId = logicalIdOf(synthed, dashboard().logBucket);
    expect(calls.get('putDeliveryDestination')!.parameters.deliveryDestinationConfiguration).toEqual({
      destinationResourceArn: `${logsId}/cloudfront/`,
    });
    const fields = calls.get('createDelivery')!.parameters.recordFields as string[];
    expect(fields).toEqual([...ACCESS_LOG_FIELDS]);
    for (const withheld of WITHHELD_ACCESS_LOG_FIELDS) expect(fields).not.toContain(withheld);
    expect(fields).toEqual(expect.arrayContaining(['date', 'time', 'c-ip', 'cs-method', 'cs-uri-stem', 'sc-status']));
    const policy = Object.values(nested.resources()).find(
      (r: Json) => r.Type === 'AWS::S3::BucketPolicy' && r.Properties.Bucket.Ref === logsId,
    ).Properties.PolicyDocument.Statement as Json[];
    expect(policy.filter((s) => s.Principal?.Service === 'delivery.logs.amazonaws.com')).toEqual([
      expect.objectContaining({
        Action: 's3:PutObject',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [logsId, 'Arn'] }, '/cloudfront/*']] },
      }),
    ]);
  });

  test("every route's path, and the description's, reaches the API through the distribution, uncached, with Authorization", () => {
    const apiOrigin = distribution.Origins.find((o: Json) => o.CustomOriginConfig);
    expect(apiOrigin.CustomOriginConfig).toEqual({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
    if (synthed.stack.edge) {
      // Behind the edge, through the API's custom domain (edge.suite.ts).
      expect(apiOrigin.DomainName).toBe(synthed.stack.edge.originDomainName);
    } else {
      const [separator, [apiId, ...domain]] = apiOrigin.DomainName['Fn::Join'];
      expect([separator, ...domain]).toEqual([
        '',
        '.execute-api.',
        { Ref: 'AWS::Region' },
        '.',
        { Ref: 'AWS::URLSuffix' },
      ]);
      expect(nested.passed(apiId)).toEqual({ Ref: logicalIdOf(synthed, synthed.stack.api) });
    }
    // Where the network's routes have a domain of their own (production), the distribution refuses
    // /network/* (network.suite.ts), the network's description included: no API behaviour there.
    const refused = apiPathPatterns(synthed.stack.networkDomain ? networkRoutes : []);
    const behaviours = (distribution.CacheBehaviors as Json[]).filter((b) => !refused.includes(b.PathPattern));
    // The route table's routes, the API's description (its document and reference page) and the
    // network connector's routes: behind an edge the API answers only through the distribution.
    const deployed = [...routesFor(settings.sandboxEnabled), contractRoutes, ...networkRoutes];
    const served = apiPathPatterns(deployed).filter((pattern) => !refused.includes(pattern));
    expect(behaviours.map((b) => b.PathPattern).sort()).toEqual(served);
    expect(served).toEqual(expect.arrayContaining(['/openapi.json', '/docs', '/docs/*', '/v1/*']));
    expect(served.includes('/network/*')).toBe(!synthed.stack.networkDomain);
    for (const behaviour of behaviours) {
      expect(behaviour).toMatchObject({
        TargetOriginId: apiOrigin.Id,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      });
    }
    for (const path of deployed.flatMap((route) => route.paths).filter((p) => !refused.some((r) => matches(r, p)))) {
      const concrete = path.replace(/\{\w+\}/g, '0f8e2b7c-3c1d-4f5e-9a0b-1c2d3e4f5a6b');
      expect({ path, patterns: behaviours.filter((b) => matches(b.PathPattern, concrete)).length }).toEqual({
        path,
        patterns: 1,
      });
    }
    // ...and the dashboard's own paths stay with the bucket.
    for (const path of ['/dashboard/', '/dashboard/app.js', '/dashboard/config.json']) {
      expect(behaviours.some((b) => matches(b.PathPattern, path))).toBe(false);
    }
  });

  test('the sign-in: a public app client, the code flow only, back to the dashboard only, no attribute of the person writable', () => {
    const { edge } = synthed.stack;
    // Behind its edge, the dashboard's address is the edge's name; else the distribution's own.
    const url = edge
      ? `https://${edge.domainName}/dashboard/`
      : { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }, '/dashboard/']] };
    const [clientId, client] = onlyResource(nested.template, 'AWS::Cognito::UserPoolClient');
    expect(client.Properties).toMatchObject({
      ClientName: 'dashboard',
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid'],
      CallbackURLs: [url],
      LogoutURLs: [url],
      SupportedIdentityProviders: ['COGNITO'],
      WriteAttributes: ['locale', 'zoneinfo'],
      // Half an hour for people (edge.suite.ts).
      AccessTokenValidity: 30,
    });
    // In the stage's user pool.
    expect(nested.passed(client.Properties.UserPoolId)).toEqual({
      Ref: logicalIdOf(synthed, synthed.stack.identity.userPool!),
    });
    // The stage's outputs: the address, built on the distribution's domain the nested stack gives.
    const shown = synthed.template.findOutputs('MerchantDashboardUrl')['MerchantDashboardUrl']!.Value;
    if (edge) expect(shown).toBe(url);
    else {
      const [, [scheme, domain, path]] = shown['Fn::Join'];
      expect([scheme, nested.outputOf(domain), path]).toEqual([
        'https://',
        { 'Fn::GetAtt': [distributionId, 'DomainName'] },
        '/dashboard/',
      ]);
    }
    expect(nested.outputOf(synthed.template.findOutputs('DashboardClientId')['DashboardClientId']!.Value)).toEqual({
      Ref: clientId,
    });
  });

  test("the pool keeps each person's tenant and access, and runs the trigger (version 2) on every token", () => {
    const [, pool] = onlyResource(synthed.template, 'AWS::Cognito::UserPool');
    expect(pool.Properties.Schema).toEqual([
      expect.objectContaining({ Name: PERSON_ATTRIBUTES.tenant, AttributeDataType: 'String', Mutable: true }),
      expect.objectContaining({ Name: PERSON_ATTRIBUTES.access, AttributeDataType: 'String', Mutable: true }),
    ]);
    const trigger = synthed.stack.identity.personClaims!;
    expect(pool.Properties.LambdaConfig).toEqual({
      PreTokenGenerationConfig: {
        LambdaArn: { 'Fn::GetAtt': [logicalIdOf(synthed, trigger.function), 'Arn'] },
        LambdaVersion: 'V2_0',
      },
    });
    // Its role writes its own logs and traces, nothing else: no table, no secret, no queue.
    expect(permissionProblems(synthed, personClaimsTrigger)).toEqual([]);
    synthed.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      Principal: 'cognito-idp.amazonaws.com',
      FunctionName: { 'Fn::GetAtt': [logicalIdOf(synthed, trigger.function), 'Arn'] },
    });
  });

  test("the authorizer accepts the dashboard's tokens as well as the machines'", () => {
    const [, authorizer] = onlyResource(synthed.template, 'AWS::ApiGatewayV2::Authorizer');
    const audience = authorizer.Properties.JwtConfiguration.Audience as Json[];
    const machines = [...synthed.stack.identity.clients.values()].map((c) => ({ Ref: logicalIdOf(synthed, c) }));
    expect(audience.slice(0, machines.length)).toEqual(machines);
    expect(audience).toHaveLength(machines.length + 1);
    const [clientId] = onlyResource(nested.template, 'AWS::Cognito::UserPoolClient');
    expect(nested.outputOf(audience.at(-1))).toEqual({ Ref: clientId });
  });

  describe("the distribution's viewer-request function, run on sample requests", () => {
    let handler: (event: Json) => Promise<Json>;
    beforeAll(() => {
      // The default behaviour's (production also has the one that refuses /network/*: network.suite.ts).
      const [association] = distribution.DefaultCacheBehavior.FunctionAssociations;
      const fn = nested.resources()[association.FunctionARN['Fn::GetAtt'][0]];
      expect(fn.Properties.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
      handler = new Function(`${fn.Properties.FunctionCode}; return handler;`)() as typeof handler;
    });
    const request = (uri: string) => ({ request: { uri, method: 'GET', headers: {}, querystring: {} } });

    test.each(['/', '/dashboard'])('%s goes to /dashboard/', async (uri) => {
      expect(await handler(request(uri))).toEqual({
        statusCode: 301,
        statusDescription: 'Moved Permanently',
        headers: { location: { value: '/dashboard/' } },
      });
    });

    test.each([
      ['/dashboard/', '/dashboard/index.html'],
      ['/dashboard/app.js', '/dashboard/app.js'],
      ['/dashboard/config.json', '/dashboard/config.json'],
    ])('%s is read as %s', async (uri, key) => {
      expect((await handler(request(uri))).uri).toBe(key);
    });
  });

  test('the built files and a config.json naming the hosted sign-in and the client go to /dashboard/', () => {
    const [, upload] = onlyResource(nested.template, 'Custom::CDKBucketDeployment');
    expect(upload.Properties).toMatchObject({
      DestinationBucketName: { Ref: logicalIdOf(synthed, dashboard().bucket) },
      DestinationBucketKeyPrefix: 'dashboard/',
      DistributionId: { Ref: distributionId },
      DistributionPaths: ['/dashboard/*'],
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
    // config.json's deploy-time values: the Cognito domain (authorize, token, logout) and the client id.
    const markers = Object.values(upload.Properties.SourceMarkers[1]) as Json[];
    const domainId = logicalIdOf(synthed, synthed.stack.identity.userPool!.node.findChild('Domain'));
    const fromStage = markers.filter((m) => m.Ref?.startsWith('referenceto')).map(nested.passed);
    expect(fromStage).toEqual([{ Ref: domainId }, { Ref: domainId }, { Ref: domainId }]);
    const [clientId] = onlyResource(nested.template, 'AWS::Cognito::UserPoolClient');
    expect(markers).toContainEqual({ Ref: clientId });
  });
});

test('the local stage (LocalStack, the local issuer) hosts no dashboard: npm start serves it', () => {
  const synthed = synth('local');
  expect(synthed.stack.dashboard).toBeUndefined();
  for (const type of ['AWS::CloudFront::Distribution', 'Custom::CDKBucketDeployment']) {
    synthed.template.resourceCountIs(type, 0);
  }
  // The stage's buckets are the report files' (reports.suite.ts) and the audit copies' (audit.suite.ts).
  expect(Object.keys(synthed.template.findResources('AWS::S3::Bucket')).sort()).toEqual(
    [logicalIdOf(synthed, synthed.stack.reportBucket), logicalIdOf(synthed, synthed.stack.auditArchiveBucket)].sort(),
  );
  expect(synthed.template.findOutputs('MerchantDashboardUrl')).toEqual({});
});
