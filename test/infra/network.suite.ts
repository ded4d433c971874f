/**
 * The network as a stage setting (docs/network.md): production settles through the sponsor bank's
 * connector, never the sandbox simulator; its synthesis fails, naming networkConnectorUrl or
 * networkBankKeys, without the connector's URL or the bank's public keys; the connector's signing
 * secret is in Secrets Manager on every stage.
 */
import { networkRoutes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { networkSecretName } from '../../infra/constructs/stage-secrets';
import { EXAMPLE_BANK_KEYS, EXAMPLE_CONNECTOR_URL, stages, type StageName } from '../../infra/stages';
import { logicalIdOf, resourcesOf, roleStatements, synth, type Json } from './synth';

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
