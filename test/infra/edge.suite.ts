/**
 * The edge and the secrets at rest, in the synthesized templates (issue 29): production's API behind
 * CloudFront with the WAF web ACL of its us-east-1 edge stack (IP reputation, a per-IP rate, tokenless
 * API requests blocked), the execute-api endpoint disabled and the API reached through its custom
 * domain; the security headers of every behaviour; alarms on refusal surges; the customer-managed key
 * that seals webhook and approval secrets, usable by the few functions that seal or open; Cognito's
 * flows, token lifetimes, threat protection and refresh-token rotation.
 */
import { App, Aspects } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, SuppressionIgnoreAlways } from 'cdk-nag';
import { networkRoutes, routesFor } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { REFUSAL_METRICS } from '../../infra/constructs/api-stage';
import { CROSS_ORIGIN_OPENER_POLICY, PERMISSIONS_POLICY } from '../../infra/constructs/dashboard-site';
import { PERSON_TOKEN_VALIDITY } from '../../infra/constructs/identity';
import { BrebEdgeStack, EDGE_REGION, EDGE_RULES } from '../../infra/edge-stack';
import { BEARER_JWT_PATTERN, EDGE_REFUSALS } from '../../infra/edge-rules';
import { ALARM_EMAIL_CONTEXT, EXAMPLE_ALARM_EMAIL, stages, type StageName } from '../../infra/stages';
import { secretKeyArnOf } from './privileges';
import { asArray, EXAMPLE_EDGE, logicalIdOf, nestedOf, resourcesOf, roleStatements, synth, type Json } from './synth';

const only = (resources: Record<string, Json>, type: string): Json => {
  const found = Object.values(resources).filter((r) => r.Type === type);
  expect(found).toHaveLength(1);
  return found[0]!;
};

describe('edge.suite: production behind its edge', () => {
  const prod = () => synth('prod');
  const distributionOf = () =>
    only(nestedOf(prod(), prod().stack.dashboard!).resources(), 'AWS::CloudFront::Distribution').Properties
      .DistributionConfig;

  test('the distribution that fronts the API has the web ACL, the edge name and its certificate (TLS 1.2+)', () => {
    const distribution = distributionOf();
    expect(distribution.WebACLId).toBe(EXAMPLE_EDGE.webAclArn);
    expect(distribution.Aliases).toEqual([EXAMPLE_EDGE.domainName]);
    expect(distribution.ViewerCertificate).toMatchObject({
      AcmCertificateArn: EXAMPLE_EDGE.certificateArn,
      MinimumProtocolVersion: 'TLSv1.2_2021',
      SslSupportMethod: 'sni-only',
    });
    // Every API path goes to the API's custom domain: execute-api is no origin.
    const apiOrigins = distribution.Origins.filter((origin: Json) => origin.CustomOriginConfig);
    expect(apiOrigins.map((origin: Json) => origin.DomainName)).toEqual([EXAMPLE_EDGE.originDomainName]);
    expect(JSON.stringify(distribution)).not.toContain('execute-api');
  });

  test('the execute-api endpoint is disabled; the API answers on its custom domain, mapped to its stage', () => {
    const resources = resourcesOf(prod());
    expect(only(resources, 'AWS::ApiGatewayV2::Api').Properties.DisableExecuteApiEndpoint).toBe(true);
    // The origin's domain; the network's own, with mutual TLS, is network.suite.ts's.
    const domainId = logicalIdOf(prod(), prod().stack.apiDomain!);
    expect(resources[domainId].Properties).toMatchObject({
      DomainName: EXAMPLE_EDGE.originDomainName,
      DomainNameConfigurations: [{ CertificateArn: EXAMPLE_EDGE.originCertificateArn, EndpointType: 'REGIONAL' }],
    });
    const mapping = Object.values(resources).find(
      (r: Json) => r.Type === 'AWS::ApiGatewayV2::ApiMapping' && r.Properties.DomainName.Ref === domainId,
    ) as Json;
    expect(mapping.Properties.Stage).toBeDefined();
    expect(prod().template.toJSON().Outputs.ApiUrl.Value).toBe(`https://${EXAMPLE_EDGE.domainName}`);
  });

  test('production without its edge settings does not synthesize, and says what is missing', () => {
    expect(() => synth('prod', { context: { edge: {} } })).toThrow(
      'Stage prod needs its edge settings in the CDK context "edge" → "prod": missing domainName, certificateArn, ' +
        'originDomainName, originCertificateArn, webAclArn',
    );
    expect(() => synth('prod', { context: { edge: { prod: { ...EXAMPLE_EDGE, webAclArn: '' } } } })).toThrow(
      'missing webAclArn',
    );
  });

  test.each(['dev', 'staging'] as StageName[])(
    '%s without edge settings keeps execute-api (no edge to reach it by)',
    (stage) => {
      const api = only(resourcesOf(synth(stage)), 'AWS::ApiGatewayV2::Api').Properties;
      expect(api.DisableExecuteApiEndpoint).toBeFalsy();
    },
  );

  test('every behaviour answers with COOP, Permissions-Policy, nosniff and HSTS; the API paths never cached', () => {
    const nested = nestedOf(prod(), prod().stack.dashboard!);
    const policies = new Map(
      Object.entries(nested.template.findResources('AWS::CloudFront::ResponseHeadersPolicy')).map(([id, r]) => [
        id,
        (r as Json).Properties.ResponseHeadersPolicyConfig,
      ]),
    );
    const distribution = distributionOf();
    const behaviours = [distribution.DefaultCacheBehavior, ...distribution.CacheBehaviors];
    expect(behaviours.length).toBeGreaterThan(2);
    for (const behaviour of behaviours) {
      const policy = policies.get(behaviour.ResponseHeadersPolicyId.Ref)!;
      expect(policy).toBeDefined();
      const custom = Object.fromEntries(
        policy.CustomHeadersConfig.Items.map((item: Json) => [item.Header, item.Value]),
      );
      expect(custom).toEqual({
        'Cross-Origin-Opener-Policy': CROSS_ORIGIN_OPENER_POLICY,
        'Permissions-Policy': PERMISSIONS_POLICY,
        // The API's: API Gateway's own 401, 403 and 429 answers are not stored either.
        ...(behaviour === distribution.DefaultCacheBehavior ? {} : { 'Cache-Control': 'no-store' }),
      });
      if (behaviour !== distribution.DefaultCacheBehavior) {
        const cacheControl = policy.CustomHeadersConfig.Items.find((item: Json) => item.Header === 'Cache-Control');
        // What a function answered (the description's own caching) is kept.
        expect(cacheControl.Override).toBe(false);
      }
      expect(policy.SecurityHeadersConfig).toMatchObject({
        ContentTypeOptions: { Override: true },
        FrameOptions: { FrameOption: 'DENY' },
        StrictTransportSecurity: { AccessControlMaxAgeSec: 365 * 24 * 3600 },
      });
    }
    // /docs keeps the Content-Security-Policy its function writes: the dashboard's is not put on it.
    const docs = distribution.CacheBehaviors.find((b: Json) => b.PathPattern === '/docs');
    expect(policies.get(docs.ResponseHeadersPolicyId.Ref).SecurityHeadersConfig.ContentSecurityPolicy).toBeUndefined();
  });

  test('401, 403 and 429 answers are counted from the access log, each with its surge alarm', () => {
    const filters = Object.values(prod().template.findResources('AWS::Logs::MetricFilter')) as Json[];
    const monitoring = nestedOf(prod(), prod().stack.monitoring).resources();
    for (const [status, metricName] of Object.entries(REFUSAL_METRICS)) {
      const filter = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === metricName);
      expect(filter.Properties.FilterPattern).toBe(`{ $.status = "${status}" }`);
      expect(filter.Properties.LogGroupName).toEqual({
        Ref: logicalIdOf(prod(), prod().stack.apiStage.accessLogs),
      });
      const alarm = Object.values(monitoring).find(
        (r: Json) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === metricName,
      ) as Json;
      expect(alarm.Properties).toMatchObject({
        Threshold: stages.prod.alarms.refusalsPer5Minutes,
        Namespace: 'BrebMerchantApi/prod',
        Statistic: 'Sum',
        Period: 300,
      });
    }
  });
});

describe('edge.suite: the web ACL of the edge stack (us-east-1)', () => {
  const settings = stages.prod;
  let acl: Json;
  let template: Template;
  beforeAll(() => {
    const app = new App({ context: { [ALARM_EMAIL_CONTEXT]: EXAMPLE_ALARM_EMAIL } });
    const stack = new BrebEdgeStack(app, 'BrebMerchantEdge-prod', { settings });
    expect(stack.region).toBe(EDGE_REGION);
    template = Template.fromStack(stack);
    acl = only(template.toJSON().Resources, 'AWS::WAFv2::WebACL').Properties;
    // Its one alarm reaches the stage's e-mail (resolveAlarms), as the stage's own alarms do.
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: EXAMPLE_ALARM_EMAIL });
  });
  const rule = (name: string) => acl.Rules.find((r: Json) => r.Name === name);

  test('scope CLOUDFRONT, allowing by default, its three rules in order', () => {
    expect(acl).toMatchObject({ Scope: 'CLOUDFRONT', DefaultAction: { Allow: {} } });
    expect(acl.Rules.map((r: Json) => [r.Priority, r.Name])).toEqual([
      [0, EDGE_RULES.ipReputation],
      [1, EDGE_RULES.perIpRate],
      [2, EDGE_RULES.tokenless],
    ]);
  });

  test("AWS's IP reputation list, as AWS runs it", () => {
    expect(rule(EDGE_RULES.ipReputation)).toMatchObject({
      OverrideAction: { None: {} },
      Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' } },
    });
  });

  test("a per-IP rate above a tenant's own limit, blocked with 429 and the API's problem", () => {
    const rate = rule(EDGE_RULES.perIpRate);
    expect(rate.Statement.RateBasedStatement).toEqual({
      Limit: settings.edge.requestsPerIpPer5Minutes,
      AggregateKeyType: 'IP',
      EvaluationWindowSec: 300,
    });
    expect(settings.edge.requestsPerIpPer5Minutes).toBeGreaterThan(settings.tenantRateLimit.requestsPerSecond * 300);
    expect(rate.Action.Block.CustomResponse).toEqual({
      ResponseCode: 429,
      CustomResponseBodyKey: 'perIpRate',
      ResponseHeaders: [{ Name: 'retry-after', Value: '60' }],
    });
    expect(JSON.parse(acl.CustomResponseBodies.perIpRate.Content)).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      detail: EDGE_REFUSALS.perIpRate.detail,
    });
  });

  test("requests to the API's paths without a Bearer JWT in their Authorization header are blocked with 401", () => {
    const tokenless = rule(EDGE_RULES.tokenless);
    expect(tokenless.Action.Block.CustomResponse).toEqual({
      ResponseCode: 401,
      CustomResponseBodyKey: 'tokenless',
      ResponseHeaders: [{ Name: 'www-authenticate', Value: 'Bearer' }],
    });
    const [onApi, withoutToken] = tokenless.Statement.AndStatement.Statements;
    const paths = asArray<Json>(onApi.OrStatement?.Statements ?? onApi).map((s: Json) => [
      s.ByteMatchStatement.PositionalConstraint,
      s.ByteMatchStatement.SearchString,
    ]);
    // Production has no sandbox routes: /v1/ and the contract's unversioned /accounts.
    expect(paths).toEqual([
      ['EXACTLY', '/accounts'],
      ['STARTS_WITH', '/v1/'],
    ]);
    // The network connector's routes carry a signature, never a token: the rule leaves them alone.
    for (const path of networkRoutes.flatMap((route) => route.paths)) {
      expect(paths.some(([how, searched]) => (how === 'EXACTLY' ? path === searched : path.startsWith(searched)))).toBe(
        false,
      );
    }
    // Without a token's shape, not only without the header: `Authorization: x` is blocked too.
    expect(withoutToken.NotStatement.Statement.RegexMatchStatement).toEqual({
      FieldToMatch: { SingleHeader: { Name: 'authorization' } },
      RegexString: BEARER_JWT_PATTERN,
      TextTransformations: [{ Priority: 0, Type: 'NONE' }],
    });
    // WAF takes a regular expression of at most 512 characters.
    expect(BEARER_JWT_PATTERN.length).toBeLessThanOrEqual(512);
  });

  test('the sandbox paths are covered where the sandbox is deployed', () => {
    const app = new App({ context: { [ALARM_EMAIL_CONTEXT]: EXAMPLE_ALARM_EMAIL } });
    const staging = Template.fromStack(new BrebEdgeStack(app, 'Edge', { settings: stages.staging }));
    const text = JSON.stringify(staging.toJSON());
    expect(text).toContain('"SearchString":"/sandbox/"');
    expect(routesFor(true).some((route) => route.paths.some((p) => p.startsWith('/sandbox/')))).toBe(true);
  });

  test("cdk-nag's AwsSolutions rules find nothing in it, suppressed or not", () => {
    const app = new App({ context: { [ALARM_EMAIL_CONTEXT]: EXAMPLE_ALARM_EMAIL } });
    const stack = new BrebEdgeStack(app, 'Edge', { settings });
    Aspects.of(app).add(new AwsSolutionsChecks({ suppressionIgnoreCondition: new SuppressionIgnoreAlways('audit') }));
    app.synth();
    const annotations = Annotations.fromStack(stack);
    const rule = Match.stringLikeRegexp('AwsSolutions-');
    expect([...annotations.findError('*', rule), ...annotations.findWarning('*', rule)]).toEqual([]);
  });

  test('an alarm on the blocked requests notifies an encrypted topic; the ARN is an output', () => {
    const alarm = only(template.toJSON().Resources, 'AWS::CloudWatch::Alarm').Properties;
    expect(alarm).toMatchObject({ Namespace: 'AWS/WAFV2', MetricName: 'BlockedRequests' });
    expect(only(template.toJSON().Resources, 'AWS::SNS::Topic').Properties.KmsMasterKeyId).toBeDefined();
    expect(template.toJSON().Outputs.WebAclArn).toBeDefined();
  });
});

describe('edge.suite: secrets sealed under a customer-managed key', () => {
  test.each(['dev', 'prod'] as StageName[])('%s: one key, rotated yearly, kept with the data', (stage) => {
    const key = only(resourcesOf(synth(stage)), 'AWS::KMS::Key');
    expect(key.Properties).toMatchObject({ EnableKeyRotation: true, RotationPeriodInDays: 365 });
    expect(key.DeletionPolicy).toBe(stages[stage].retainData ? 'Retain' : 'Delete');
  });

  test('prod: kms:Decrypt only for the few functions that sign or rotate, on that key only; no other KMS right', () => {
    const synthed = synth('prod');
    const keyArn = secretKeyArnOf(synthed);
    const granted = new Map<string, string[]>();
    // The network connector's secret is in Secrets Manager under the same key: its readers may
    // decrypt with it only through Secrets Manager.
    const networkReaders = new Set<string>();
    for (const name of synthed.stack.serviceFunctions.keys()) {
      const actions = roleStatements(synthed, name).flatMap((statement: Json) => {
        const kms = asArray<string>(statement.Action).filter((action) => action.startsWith('kms:'));
        if (kms.length > 0) expect(asArray(statement.Resource)).toEqual([keyArn]);
        if (kms.length > 0 && statement.Condition) {
          expect(kms).toEqual(['kms:Decrypt']);
          expect(JSON.stringify(statement.Condition.StringEquals['kms:ViaService'])).toContain('secretsmanager.');
          networkReaders.add(name);
          return [];
        }
        return kms;
      });
      if (actions.length > 0) granted.set(name, actions.sort());
    }
    expect(Object.fromEntries(granted)).toEqual({
      // Both ask the payee's approval of a payment between two of our merchants.
      createPayment: ['kms:Decrypt'],
      settlePayment: ['kms:Decrypt'],
      createWebhook: ['kms:GenerateDataKey'],
      putInboundApproval: ['kms:GenerateDataKey'],
      // Signs the merchant's approval request for a credit from the network.
      receiveNetworkCredit: ['kms:Decrypt'],
      rotateInboundApprovalSecret: ['kms:Decrypt', 'kms:GenerateDataKey'],
      rotateWebhookSecret: ['kms:Decrypt', 'kms:GenerateDataKey'],
      sendWebhook: ['kms:Decrypt'],
    });
    const declaringNetwork = [...synthed.stack.routes, ...networkRoutes, ...workers]
      .filter((definition) => definition.secrets?.includes('network'))
      .map((definition) => definition.name);
    expect([...networkReaders].sort()).toEqual(declaringNetwork.sort());
    expect(declaringNetwork.length).toBeGreaterThan(0);
    const secret = resourcesOf(synthed)[logicalIdOf(synthed, synthed.stack.secrets.network)];
    expect(secret.Properties.KmsKeyId).toEqual(keyArn);
    const decrypting = [...granted].filter(([, actions]) => actions.includes('kms:Decrypt'));
    // Six of some fifty: the payments that may ask a payee's approval (a network credit, a payment
    // between our merchants and its settlement job) and the webhook and rotation functions.
    expect(decrypting.length).toBeLessThan(synthed.stack.serviceFunctions.size / 8);
    // The key's ARN reaches exactly those functions.
    for (const [name, fn] of synthed.stack.serviceFunctions) {
      const variables = resourcesOf(synthed)[logicalIdOf(synthed, fn.function)].Properties.Environment.Variables;
      expect([name, 'SECRET_KEY_ARN' in variables]).toEqual([name, granted.has(name)]);
    }
  });
});

describe('edge.suite: Cognito', () => {
  const clientsOf = (stage: StageName) => {
    const synthed = synth(stage);
    const own = Object.values(resourcesOf(synthed)).filter((r: Json) => r.Type === 'AWS::Cognito::UserPoolClient');
    const dashboard = only(nestedOf(synthed, synthed.stack.dashboard!).resources(), 'AWS::Cognito::UserPoolClient');
    return { machines: own as Json[], dashboard: dashboard.Properties, synthed };
  };

  test.each(['dev', 'prod'] as StageName[])('%s: machines get client credentials only, no sign-in flow', (stage) => {
    const { machines } = clientsOf(stage);
    expect(machines.length).toBeGreaterThan(0);
    for (const client of machines) {
      expect(client.Properties.AllowedOAuthFlows).toEqual(['client_credentials']);
      expect(client.Properties.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
    }
  });

  test('people: the code flow with no SRP or password flow, and tokens of half an hour', () => {
    const { dashboard } = clientsOf('dev');
    expect(dashboard.AllowedOAuthFlows).toEqual(['code']);
    expect(dashboard.ExplicitAuthFlows).toEqual(['ALLOW_REFRESH_TOKEN_AUTH']);
    expect(dashboard).toMatchObject({
      AccessTokenValidity: PERSON_TOKEN_VALIDITY.toMinutes(),
      IdTokenValidity: PERSON_TOKEN_VALIDITY.toMinutes(),
      TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes' },
    });
  });

  test('prod: threat protection enforcing on the Plus tier, and refresh tokens rotated at each use', () => {
    const { dashboard, synthed } = clientsOf('prod');
    expect(dashboard.RefreshTokenRotation).toMatchObject({ Feature: 'ENABLED' });
    expect(dashboard.ExplicitAuthFlows).toEqual([]);
    const pool = only(resourcesOf(synthed), 'AWS::Cognito::UserPool').Properties;
    expect(pool).toMatchObject({ UserPoolTier: 'PLUS', UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' } });
    const devPool = only(resourcesOf(synth('dev')), 'AWS::Cognito::UserPool').Properties;
    expect(devPool.UserPoolTier).toBe('ESSENTIALS');
  });
});
