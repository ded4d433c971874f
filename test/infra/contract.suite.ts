/**
 * The API's description on AWS: GET /openapi.json, /docs and /docs/{file} routed to one function,
 * the only routes without the authorizer; the function's role holds its log group and X-Ray only;
 * it learns the stage's token endpoint, Cognito's or the external issuer's. (That its bundle serves the
 * document and the page's files is shown by test/infra/bundles.test.ts; cdk-nag by nag.suite.ts.)
 */
import { contractRoutes, TOKEN_URL_ENV } from '../../functions/contract';
import { networkRoutes } from '../../functions/routes';
import { stages, type StageName } from '../../infra/stages';
import { managedPolicies, permissionProblems } from './privileges';
import { functionLogicalId, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';

describe.each(Object.keys(stages) as StageName[])('API description, stage %s', (stage) => {
  let synthed: Synth;
  beforeAll(() => {
    synthed = synth(stage);
  });

  test('its four paths, and only they, are routed without the authorizer, to its function', () => {
    const apiRoutes = Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Route')) as Json[];
    // (The network connector's routes have no authorizer either: their handler checks a signature; network.suite.ts.)
    const signed = new Set(networkRoutes.flatMap((route) => route.paths.map((path) => `${route.method} ${path}`)));
    const open = apiRoutes.filter(
      (route) => route.Properties.AuthorizationType === 'NONE' && !signed.has(route.Properties.RouteKey),
    );
    expect(open.map((route) => route.Properties.RouteKey).sort()).toEqual(
      ['GET /docs', 'GET /docs/{file}', 'GET /openapi.json', 'GET /network/openapi.json'].sort(),
    );
    const integrations = synthed.template.findResources('AWS::ApiGatewayV2::Integration', {
      Properties: { IntegrationUri: { 'Fn::GetAtt': [functionLogicalId(synthed, contractRoutes.name), 'Arn'] } },
    });
    expect(Object.keys(integrations)).toHaveLength(1);
    for (const route of open) {
      expect(route.Properties.Target).toEqual({
        'Fn::Join': ['', ['integrations/', { Ref: Object.keys(integrations)[0] }]],
      });
    }
  });

  test('its role holds its own log group and X-Ray, nothing of the data', () => {
    expect(permissionProblems(synthed, contractRoutes)).toEqual([]);
    expect(managedPolicies(synthed, contractRoutes)).toEqual([]);
    // What it is allowed: the Deny every role carries (audit.suite.ts) grants nothing.
    const actions = roleStatements(synthed, contractRoutes.name)
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => [statement.Action].flat());
    expect(actions.filter((action: string) => !/^(logs|xray):/.test(action))).toEqual([]);
  });

  test("the document names the stage's token endpoint", () => {
    const variables =
      resourcesOf(synthed)[functionLogicalId(synthed, contractRoutes.name)].Properties.Environment.Variables;
    const { identity } = stages[stage];
    expect(synthed.stack.resolve(variables[TOKEN_URL_ENV])).toEqual(
      identity.kind === 'cognito' ? synthed.stack.resolve(synthed.stack.identity.tokenUrl) : identity.tokenUrl,
    );
  });
});
