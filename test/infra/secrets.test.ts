/**
 * The QR signing secret: generated per stage, and readable only by routes that name it in the
 * route table's `secrets`. No route does yet, so a synthetic route stands in for the QR routes.
 */
import { routes, SCOPES, type RouteDefinition } from '../../functions/routes';
import { qrSigningSecretName } from '../../infra/constructs/stage-secrets';
import { stages, type StageName } from '../../infra/stages';
import { permissionProblems } from './privileges';
import { functionLogicalId, logicalIdOf, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';

/**
 * A route declared as the QR routes will be (any existing handler file serves: nothing is bundled).
 * Its name and path are its own, so the real QR routes can join the table without a clash.
 */
const qrRoute: RouteDefinition = {
  name: 'qrSigningProbe',
  method: 'POST',
  paths: ['/v1/test/qr-signing-probe'],
  handler: 'link-merchant',
  summary: 'A route that signs QR codes',
  schemas: { body: 'linkMerchantRequestSchema', query: 'emptyQuerySchema', response: 'customerSchema' },
  problems: [],
  scopes: [SCOPES.customersWrite],
  tableActions: ['GetItem', 'PutItem'],
  secrets: ['qrSigning'],
};

describe.each(Object.keys(stages) as StageName[])('stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let secretId: string;
  beforeAll(() => {
    synthed = synth(stage, { routes: [...routes, qrRoute] });
    secretId = logicalIdOf(synthed, synthed.stack.secrets.qrSigning);
  });

  test('one generated secret, {"current": <64 characters>}, kept as the stage says', () => {
    synthed.template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    const secret = resourcesOf(synthed)[secretId];
    expect(secret.Properties).toMatchObject({
      Name: qrSigningSecretName(settings),
      GenerateSecretString: {
        SecretStringTemplate: '{}',
        GenerateStringKey: 'current',
        PasswordLength: 64,
        ExcludePunctuation: true,
      },
    });
    expect(secret.Properties.SecretString).toBeUndefined();
    expect(secret.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
  });

  test('a route that names the secret may read its value, and only that', () => {
    const reads = roleStatements(synthed, qrRoute.name).filter((s: Json) =>
      JSON.stringify(s.Action).includes('secretsmanager'),
    );
    expect(reads).toEqual([{ Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } }]);
    expect(permissionProblems(synthed, qrRoute)).toEqual([]);
  });

  test('its function finds the secret through QR_SIGNING_SECRET_ARN', () => {
    const fn = resourcesOf(synthed)[functionLogicalId(synthed, qrRoute.name)];
    expect(fn.Properties.Environment.Variables.QR_SIGNING_SECRET_ARN).toEqual({ Ref: secretId });
  });

  test('no other route can read it or knows where it is', () => {
    for (const route of synthed.stack.routes.filter((r) => r !== qrRoute && !r.secrets?.includes('qrSigning'))) {
      const statements = JSON.stringify(roleStatements(synthed, route.name));
      expect(statements).not.toContain('secretsmanager');
      expect(statements).not.toContain(secretId);
      const fn = resourcesOf(synthed)[functionLogicalId(synthed, route.name)];
      expect(fn.Properties.Environment.Variables.QR_SIGNING_SECRET_ARN).toBeUndefined();
    }
  });
});
