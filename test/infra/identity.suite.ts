/**
 * Who issues tokens: a Cognito user pool (domain, resource server with the route table's scopes,
 * client-credentials app clients) on the AWS stages, the stage's external issuer elsewhere, and
 * the JWT authorizer trusting exactly that issuer and those clients.
 */
import { Match, Template } from 'aws-cdk-lib/assertions';
import { allScopes, readScopes, SCOPE_PREFIX } from '../../functions/routes';
import { scopeName } from '../../infra/constructs/identity';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { DASHBOARD_CLIENT_ID } from '../../infra/local/people';
import { stages, type CognitoIdentitySettings, type StageName } from '../../infra/stages';
import { logicalIdOf, resourcesOf, synth, type Json, type Synth } from './synth';

const cognitoStages = (Object.keys(stages) as StageName[]).filter((s) => stages[s].identity.kind === 'cognito');

const authorizerOf = ({ template }: Synth): Json =>
  (Object.values(template.findResources('AWS::ApiGatewayV2::Authorizer')) as Json[])[0].Properties;

describe.each(cognitoStages)('Cognito on stage %s', (stage) => {
  const identity = stages[stage].identity as CognitoIdentitySettings;
  let synthed: Synth;
  let poolId: string;
  beforeAll(() => {
    synthed = synth(stage);
    poolId = logicalIdOf(synthed, synthed.stack.identity.userPool!);
  });

  test('a user pool for machines and staff: no sign-up, a second factor, kept as the stage says', () => {
    synthed.template.resourceCountIs('AWS::Cognito::UserPool', 1);
    const [pool] = Object.values(synthed.template.findResources('AWS::Cognito::UserPool')) as Json[];
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'ON',
      // The Plus tier, with threat protection, on production (edge.suite.ts).
      UserPoolTier: stage === 'prod' ? 'PLUS' : 'ESSENTIALS',
      DeletionProtection: stages[stage].retainData ? 'ACTIVE' : 'INACTIVE',
    });
    expect(pool.DeletionPolicy).toBe(stages[stage].retainData ? 'Retain' : 'Delete');
  });

  test('a Cognito domain serves the token endpoint', () => {
    synthed.template.hasResourceProperties('AWS::Cognito::UserPoolDomain', {
      Domain: identity.domainPrefix,
      UserPoolId: { Ref: poolId },
    });
    synthed.template.hasOutput('TokenUrl', {});
    synthed.template.hasOutput('UserPoolId', { Value: { Ref: poolId } });
    // One client id output per app client (ClientIdFullAccess, ClientIdReadOnly, ...).
    const outputs = Object.keys(synthed.template.findOutputs('*')).filter((id) => id.startsWith('ClientId'));
    expect(outputs).toHaveLength(identity.clients.length);
  });

  test("the resource server's scopes are the route table's scopes", () => {
    synthed.template.hasResourceProperties('AWS::Cognito::UserPoolResourceServer', {
      Identifier: SCOPE_PREFIX,
      UserPoolId: { Ref: poolId },
      Scopes: allScopes.map((scope) => ({
        ScopeName: scopeName(scope),
        // `read keys`, `write webhooks`, `resolve keys`, `operate sandbox`.
        ScopeDescription: Match.stringLikeRegexp('^(read|write|resolve|operate) '),
      })),
    });
  });

  test.each(identity.clients.map((c) => [c.name, c] as const))(
    'app client %s: client credentials with a secret',
    (name, client) => {
      const serverId = Object.keys(synthed.template.findResources('AWS::Cognito::UserPoolResourceServer'))[0];
      const granted = client.access === 'full' ? allScopes : readScopes;
      synthed.template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
        ClientName: name,
        UserPoolId: { Ref: poolId },
        GenerateSecret: true,
        AllowedOAuthFlows: ['client_credentials'],
        AllowedOAuthFlowsUserPoolClient: true,
        AllowedOAuthScopes: granted.map((scope) => ({
          'Fn::Join': ['', [{ Ref: serverId }, `/${scopeName(scope)}`]],
        })),
        AccessTokenValidity: 60,
      });
    },
  );

  test("the authorizer trusts the pool's issuer and its app clients (the dashboard's, from its nested stack, too), nothing else", () => {
    synthed.template.resourceCountIs('AWS::Cognito::UserPoolClient', identity.clients.length);
    const clientIds = Object.keys(synthed.template.findResources('AWS::Cognito::UserPoolClient'));
    const dashboard = synthed.stack.dashboard!;
    const dashboardStackId = synthed.stack.getLogicalId(dashboard.nestedStackResource!);
    const { Issuer, Audience } = authorizerOf(synthed).JwtConfiguration;
    expect(Issuer).toEqual({
      'Fn::Join': ['', ['https://cognito-idp.', { Ref: 'AWS::Region' }, '.amazonaws.com/', { Ref: poolId }]],
    });
    const dashboardClient = Audience.at(-1)['Fn::GetAtt'] as [string, string];
    expect(Audience).toEqual([...clientIds.map((id) => ({ Ref: id })), { 'Fn::GetAtt': dashboardClient }]);
    // The dashboard's client id, as its nested stack gives it.
    expect(dashboardClient[0]).toBe(dashboardStackId);
    const output = Template.fromStack(dashboard).toJSON().Outputs[dashboardClient[1].replace(/^Outputs\./, '')];
    expect(output.Value).toEqual({ Ref: logicalIdOf(synthed, dashboard.client) });
  });
});

test('the local stage trusts the local issuer, its sandbox clients and its dashboard, without Cognito', () => {
  const synthed = synth('local');
  const identity = stages.local.identity;
  expect(identity.kind).toBe('external');
  synthed.template.resourceCountIs('AWS::Cognito::UserPool', 0);
  expect(authorizerOf(synthed).JwtConfiguration).toEqual({
    Issuer: identity.kind === 'external' ? identity.issuer : undefined,
    // The clients of the local token endpoint (npm start), so its tokens pass, people's included.
    Audience: [...SANDBOX_CLIENTS.map((client) => client.clientId), DASHBOARD_CLIENT_ID],
  });
});

test('any stage can trust an external issuer instead, by setting', () => {
  const external = {
    kind: 'external',
    issuer: 'https://login.example.com/',
    audience: ['breb-api'],
    tokenUrl: 'https://login.example.com/oauth2/token',
  } as const;
  // An edge is its dashboard's distribution, which needs Cognito: this stage goes without. Staging,
  // since production's /network/ domain (mutual TLS) needs its edge, execute-api then disabled.
  const synthed = synth('staging', {
    settings: (s) => ({ ...s, identity: external, edge: { ...s.edge, required: false } }),
    context: { edge: {} },
  });
  expect(Object.values(resourcesOf(synthed)).filter((r: Json) => r.Type.startsWith('AWS::Cognito::'))).toEqual([]);
  expect(authorizerOf(synthed).JwtConfiguration).toEqual({ Issuer: external.issuer, Audience: external.audience });
});
