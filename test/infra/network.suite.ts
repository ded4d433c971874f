/**
 * The network as a stage setting (docs/network.md): production settles through the sponsor bank's
 * connector, never the sandbox simulator; its synthesis fails, naming networkConnectorUrl or
 * networkBankKeys, without the connector's URL or the bank's public keys; the connector's signing
 * secret is in Secrets Manager on every stage. Production's /network/ routes on a domain of their own
 * with mutual TLS (its synthesis fails without networkDomainName, networkCertificateArn or
 * networkTruststoreUri, naming it), which the distribution refuses (403) and the sandbox stages lack;
 * the 401s of those routes counted apart, with their alarm.
 */
import { networkRoutes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { NETWORK_401_METRIC } from '../../infra/constructs/api-stage';
import { REFUSE_FUNCTION } from '../../infra/constructs/dashboard-site';
import { networkSecretName } from '../../infra/constructs/stage-secrets';
import {
  EXAMPLE_BANK_KEYS,
  EXAMPLE_CONNECTOR_URL,
  EXAMPLE_NETWORK_DOMAIN,
  NETWORK_DOMAIN_CONTEXT,
  stages,
  type StageName,
} from '../../infra/stages';
import { logicalIdOf, nestedOf, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';

describe('network.suite: the network of each stage', () => {
  test('sandbox on the stages with the sandbox, the connector on production', () => {
    expect(stages.local.network.kind).toBe('sandbox');
    expect(stages.dev.network.kind).toBe('sandbox');
    expect(stages.staging.network.kind).toBe('sandbox');
    expect(stages.prod.network.kind).toBe('connector');
  });

  test('production without the connector URL does not synthesize, and the error names networkConnectorUrl', () => {
    expect(() => synth('prod', { context: { networkConnectorUrl: undefined } })).toThrow(/networkConnectorUrl/);
    expect(() => synth('prod', { context: { networkConnectorUrl: 'http://connector.example.com' } })).toThrow(
      /networkConnectorUrl of stage prod must be https/,
    );
  });

  test("production without the bank's public keys does not synthesize, and the error names networkBankKeys", () => {
    expect(() => synth('prod', { context: { networkBankKeys: undefined } })).toThrow(/networkBankKeys/);
    // Keys that are no JWKS of Ed25519 public keys, or that carry a private key, are refused too.
    for (const wrong of ['{"keys":[]}', 'not json', JSON.stringify({ keys: [{ kty: 'RSA', kid: 'k', n: 'x' }] })]) {
      expect(() => synth('prod', { context: { networkBankKeys: wrong } })).toThrow(/networkBankKeys of stage prod/);
    }
  });

  test('the URL may come from the stage settings instead of the context', () => {
    const { template } = synth('prod', {
      context: { networkConnectorUrl: undefined },
      settings: (settings) => ({ ...settings, network: { kind: 'connector', url: 'https://bank.example.org/breb' } }),
    });
    const variables = (Object.values(template.findResources('AWS::Lambda::Function')) as Json[]).map(
      (fn) => fn.Properties.Environment?.Variables ?? {},
    );
    expect(variables.some((v) => v.NETWORK_CONNECTOR_URL === 'https://bank.example.org/breb')).toBe(true);
  });

  test('a stage without the sandbox may not settle through the simulator', () => {
    expect(() => synth('prod', { settings: (settings) => ({ ...settings, network: { kind: 'sandbox' } }) })).toThrow(
      /would settle through the sandbox simulator/,
    );
  });

  test('production: every function is told the connector, none the simulator; the /network/ routes, no /sandbox/ route', () => {
    const synthed = synth('prod');
    const functions = Object.values(synthed.template.findResources('AWS::Lambda::Function')) as Json[];
    const ours = functions.filter((fn) => fn.Properties.Environment?.Variables?.STAGE === 'prod');
    expect(ours.length).toBeGreaterThan(0);
    for (const fn of ours) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        NETWORK: 'connector',
        NETWORK_CONNECTOR_URL: `${EXAMPLE_CONNECTOR_URL}/`,
        NETWORK_BANK_KEYS: EXAMPLE_BANK_KEYS,
      });
    }
    const routeKeys = (Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Route')) as Json[]).map(
      (route) => route.Properties.RouteKey as string,
    );
    expect(routeKeys.filter((key) => key.includes('/sandbox/'))).toEqual([]);
    expect(routeKeys).toEqual(
      expect.arrayContaining([
        'POST /network/v1/transfers/{id}/status',
        'POST /network/v1/credits',
        'GET /network/v1/keys',
        'GET /network/openapi.json',
      ]),
    );
  });

  describe.each(Object.keys(stages) as StageName[])('stage %s', (stage) => {
    test('the /network/ routes: no authorizer (the handler checks the signature), throttled apart', () => {
      const synthed = synth(stage);
      const keys = networkRoutes.flatMap((route) => route.paths.map((path) => `${route.method} ${path}`));
      expect(keys).toEqual([
        'POST /network/v1/transfers/{id}/status',
        'POST /network/v1/credits',
        'POST /network/v1/credits/{end_to_end_id}/reversals',
        'PUT /network/v1/merchants/{identification_type}/{identification_number}',
        'PUT /network/v1/settlement-files/{date}',
        'GET /network/v1/keys',
      ]);
      const apiRoutes = Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Route')) as Json[];
      for (const key of keys) {
        const [route] = apiRoutes.filter((r) => r.Properties.RouteKey === key);
        expect(route.Properties.AuthorizationType).toBe('NONE');
        expect(route.Properties.AuthorizationScopes).toBeUndefined();
      }
      const [apiStage] = Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Stage')) as Json[];
      const { networkThrottling } = stages[stage];
      expect(apiStage.Properties.RouteSettings).toEqual(
        Object.fromEntries(
          keys.map((key) => [
            key,
            { ThrottlingRateLimit: networkThrottling.rateLimit, ThrottlingBurstLimit: networkThrottling.burstLimit },
          ]),
        ),
      );
      // The clients' routes keep the stage's own bucket.
      expect(apiStage.Properties.DefaultRouteSettings).toMatchObject({
        ThrottlingRateLimit: stages[stage].throttling.rateLimit,
      });
    });

    test("the connector's signing secret: generated, kept as the stage says, readable only by who names it", () => {
      const synthed = synth(stage);
      const secretId = logicalIdOf(synthed, synthed.stack.secrets.network);
      const secret = resourcesOf(synthed)[secretId];
      expect(secret.Properties).toMatchObject({
        Name: networkSecretName(stages[stage]),
        GenerateSecretString: { SecretStringTemplate: '{}', GenerateStringKey: 'current', PasswordLength: 64 },
      });
      expect(secret.Properties.SecretString).toBeUndefined();
      expect(secret.DeletionPolicy).toBe(stages[stage].retainData ? 'Retain' : 'Delete');
      for (const name of synthed.stack.serviceFunctions.keys()) {
        const definition = [...synthed.stack.routes, ...networkRoutes, ...workers].find((d) => d.name === name);
        const names = definition?.secrets ?? [];
        const reads = JSON.stringify(roleStatements(synthed, name)).includes(secretId);
        expect([name, reads]).toEqual([name, names.includes('network')]);
      }
    });
  });
});

describe('network.suite: the network routes on a domain of their own, with mutual TLS', () => {
  const ofType = (synthed: Synth, type: string): [string, Json][] =>
    Object.entries(resourcesOf(synthed)).filter(([, r]) => (r as Json).Type === type) as [string, Json][];
  const networkDomainOf = (synthed: Synth): [string, Json] | undefined =>
    ofType(synthed, 'AWS::ApiGatewayV2::DomainName').find(
      ([, r]) => r.Properties.DomainName === EXAMPLE_NETWORK_DOMAIN.domainName,
    );

  test('production: a regional domain, its certificate, TLS 1.2, mutual TLS against the truststore, mapped to the stage', () => {
    const synthed = synth('prod');
    const [domainId, domain] = networkDomainOf(synthed)!;
    expect(domain.Properties).toEqual({
      DomainName: EXAMPLE_NETWORK_DOMAIN.domainName,
      DomainNameConfigurations: [
        { CertificateArn: EXAMPLE_NETWORK_DOMAIN.certificateArn, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' },
      ],
      MutualTlsAuthentication: { TruststoreUri: EXAMPLE_NETWORK_DOMAIN.truststoreUri },
    });
    const mappings = ofType(synthed, 'AWS::ApiGatewayV2::ApiMapping').filter(
      ([, r]) => r.Properties.DomainName.Ref === domainId,
    );
    // At the root, to the API's one stage ($default), once the stage exists: the same paths as elsewhere.
    expect(mappings.map(([, r]) => r.Properties)).toEqual([
      { ApiId: { Ref: logicalIdOf(synthed, synthed.stack.api) }, DomainName: { Ref: domainId }, Stage: '$default' },
    ]);
    expect(mappings[0]![1].DependsOn).toContain(logicalIdOf(synthed, synthed.stack.apiStage.stage));
    // The execute-api endpoint stays off: it would serve /network/ without asking for a certificate.
    expect(ofType(synthed, 'AWS::ApiGatewayV2::Api')[0]![1].Properties.DisableExecuteApiEndpoint).toBe(true);
    const outputs = synthed.template.toJSON().Outputs;
    expect(outputs.NetworkUrl.Value).toBe(`https://${EXAMPLE_NETWORK_DOMAIN.domainName}`);
    expect(outputs.NetworkDomainTarget.Value).toEqual({ 'Fn::GetAtt': [domainId, 'RegionalDomainName'] });
  });

  test('a stage with the network domain but no edge does not synthesize: execute-api would skip the certificate', () => {
    expect(() =>
      synth('prod', {
        settings: (settings) => ({ ...settings, edge: { ...settings.edge, required: false } }),
        context: { edge: {} },
      }),
    ).toThrow(/serves \/network\/ on its own domain with mutual TLS, which needs its edge too/);
  });

  test("a truststore's version, when given, is the one API Gateway reads (a rotation)", () => {
    const synthed = synth('prod', { context: { [NETWORK_DOMAIN_CONTEXT.truststoreVersion]: 'v3.Kx9a' } });
    expect(networkDomainOf(synthed)![1].Properties.MutualTlsAuthentication).toEqual({
      TruststoreUri: EXAMPLE_NETWORK_DOMAIN.truststoreUri,
      TruststoreVersion: 'v3.Kx9a',
    });
  });

  test.each(['networkDomainName', 'networkCertificateArn', 'networkTruststoreUri'])(
    'production without %s does not synthesize, and the error names it alone',
    (missing) => {
      const error = (() => {
        try {
          synth('prod', { context: { [missing]: undefined } });
        } catch (thrown) {
          return (thrown as Error).message;
        }
        throw new Error('synthesized');
      })();
      expect(error).toContain(`is missing ${missing}:`);
      for (const other of Object.values(NETWORK_DOMAIN_CONTEXT).filter((name) => name !== missing)) {
        expect(error).not.toContain(`missing ${other}`);
      }
    },
  );

  test('production with a truststore that is no S3 object, or a certificate that is no ACM ARN, does not synthesize', () => {
    expect(() => synth('prod', { context: { networkTruststoreUri: 'https://bucket/key.pem' } })).toThrow(
      /networkTruststoreUri "https:\/\/bucket\/key.pem" of stage prod is not an S3 object/,
    );
    expect(() => synth('prod', { context: { networkCertificateArn: 'arn:aws:iam::1:role/x' } })).toThrow(
      /networkCertificateArn .* is not an ACM certificate ARN/,
    );
  });

  test.each(['local', 'dev', 'staging'] as StageName[])(
    '%s (sandbox): no network domain though the context names one, the bank being no caller there',
    (stage) => {
      const synthed = synth(stage);
      expect(synthed.stack.networkDomain).toBeUndefined();
      expect(networkDomainOf(synthed)).toBeUndefined();
      expect(JSON.stringify(resourcesOf(synthed))).not.toContain('MutualTlsAuthentication');
    },
  );

  test('production: the distribution answers 403 on /network/* itself; nothing there reaches the API', () => {
    const synthed = synth('prod');
    const nested = nestedOf(synthed, synthed.stack.dashboard!);
    const resources = nested.resources();
    const config = (Object.values(resources).find((r: Json) => r.Type === 'AWS::CloudFront::Distribution') as Json)
      .Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    const network = (config.CacheBehaviors as Json[]).filter((b) => b.PathPattern.startsWith('/network'));
    expect(network.map((b) => b.PathPattern)).toEqual(['/network/*']);
    const [behaviour] = network;
    expect(behaviour.TargetOriginId).not.toBe(apiOrigin.Id);
    expect(behaviour.AllowedMethods).toEqual(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']);
    const [association] = behaviour.FunctionAssociations;
    expect(association.EventType).toBe('viewer-request');
    const fn = resources[association.FunctionARN['Fn::GetAtt'][0]].Properties;
    expect(fn.FunctionCode).toBe(REFUSE_FUNCTION);
    expect(fn.FunctionConfig.Runtime).toBe('cloudfront-js-2.0');
    // The function, run as CloudFront runs it: a 403 of its own for any request, the bank's included.
    const handler = new Function(`${fn.FunctionCode}; return handler;`)() as (event: Json) => Promise<Json>;
    return handler({ request: { method: 'POST', uri: '/network/v1/credits', headers: {} } }).then((answer) =>
      expect(answer).toMatchObject({ statusCode: 403 }),
    );
  });

  test('dev (no domain of their own): the distribution sends /network/* to the API', () => {
    const synthed = synth('dev');
    const config = (
      Object.values(nestedOf(synthed, synthed.stack.dashboard!).resources()).find(
        (r: Json) => r.Type === 'AWS::CloudFront::Distribution',
      ) as Json
    ).Properties.DistributionConfig;
    const apiOrigin = config.Origins.find((o: Json) => o.CustomOriginConfig);
    const behaviour = (config.CacheBehaviors as Json[]).find((b) => b.PathPattern === '/network/*');
    expect(behaviour.TargetOriginId).toBe(apiOrigin.Id);
    expect(behaviour.FunctionAssociations).toBeUndefined();
  });

  test.each(['dev', 'prod'] as StageName[])(
    '%s: the 401s of /network/ paths are counted from the access log, with an alarm of their own',
    (stage) => {
      const synthed = synth(stage);
      const filters = Object.values(synthed.template.findResources('AWS::Logs::MetricFilter')) as Json[];
      const filter = filters.find((f) => f.Properties.MetricTransformations[0].MetricName === NETWORK_401_METRIC);
      expect(filter.Properties.FilterPattern).toBe('{ ($.status = "401") && ($.path = "/network/*") }');
      expect(filter.Properties.LogGroupName).toEqual({ Ref: logicalIdOf(synthed, synthed.stack.apiStage.accessLogs) });
      expect(filter.Properties.MetricTransformations[0]).toMatchObject({
        MetricNamespace: `BrebMerchantApi/${stage}`,
        MetricValue: '1',
      });
      const alarms = Object.values(nestedOf(synthed, synthed.stack.monitoring).resources()).filter(
        (r: Json) => r.Type === 'AWS::CloudWatch::Alarm' && r.Properties.MetricName === NETWORK_401_METRIC,
      ) as Json[];
      expect(alarms.map((a) => a.Properties)).toEqual([
        expect.objectContaining({
          AlarmName: `BrebMerchantApi-${stage}-Network401Surge`,
          Namespace: `BrebMerchantApi/${stage}`,
          Statistic: 'Sum',
          Period: 300,
          Threshold: stages[stage].alarms.network401Per5Minutes,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        }),
      ]);
      // A few of the bank's requests refused matter more than a few of the clients'.
      expect(stages[stage].alarms.network401Per5Minutes).toBeLessThan(stages[stage].alarms.refusalsPer5Minutes / 10);
    },
  );
});
