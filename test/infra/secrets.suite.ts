/**
 * The QR signing secret: generated per stage, and readable only by the routes that name it in the
 * route table's `secrets` (createQrCode signs with it, decodeQrCode verifies with it).
 */
import { routes } from '../../functions/routes';
import { qrSigningSecretName } from '../../infra/constructs/stage-secrets';
import { stages, type StageName } from '../../infra/stages';
import { permissionProblems } from './privileges';
import { functionLogicalId, logicalIdOf, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';

/** The routes of the table that name the secret. */
const signingRoutes = routes.filter((route) => route.secrets?.includes('qrSigning'));

describe.each(Object.keys(stages) as StageName[])('QR signing secret, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let secretId: string;
  beforeAll(() => {
    synthed = synth(stage);
    secretId = logicalIdOf(synthed, synthed.stack.secrets.qrSigning);
  });

  test('one generated secret, {"current": <64 characters>}, kept as the stage says', () => {
    // The QR key's and the network connector's (network.suite.ts).
    synthed.template.resourceCountIs('AWS::SecretsManager::Secret', 2);
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
    expect(signingRoutes.map((route) => route.name).sort()).toEqual(['createQrCode', 'decodeQrCode']);
    for (const route of signingRoutes) {
      const reads = roleStatements(synthed, route.name).filter((s: Json) =>
        JSON.stringify(s.Action).includes('secretsmanager'),
      );
      expect(reads).toEqual([
        { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: { Ref: secretId } },
      ]);
      expect(permissionProblems(synthed, route)).toEqual([]);
    }
  });

  test('its function finds the secret through QR_SIGNING_SECRET_ARN', () => {
    for (const route of signingRoutes) {
      const fn = resourcesOf(synthed)[functionLogicalId(synthed, route.name)];
      expect(fn.Properties.Environment.Variables.QR_SIGNING_SECRET_ARN).toEqual({ Ref: secretId });
    }
  });

  test('no other route can read it or knows where it is', () => {
    for (const route of synthed.stack.routes.filter((r) => !r.secrets?.includes('qrSigning'))) {
      const statements = JSON.stringify(roleStatements(synthed, route.name));
      if (!route.secrets?.length) expect(statements).not.toContain('secretsmanager');
      expect(statements).not.toContain(secretId);
      const fn = resourcesOf(synthed)[functionLogicalId(synthed, route.name)];
      expect(fn.Properties.Environment.Variables.QR_SIGNING_SECRET_ARN).toBeUndefined();
    }
  });
});
