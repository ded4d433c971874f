/**
 * The stage's secret key (infra/constructs/secret-key-policy.ts): administration apart from use. Its
 * policy gives the account (its administrators) no cryptographic use of the key; kms:Decrypt and
 * kms:GenerateDataKey directly only to the execution roles of the functions whose entry declares
 * `open` or `seal`, known by their IAM path, and only with sealing's encryption context; every other
 * use only through Secrets Manager, DynamoDB or S3, from the account. The table and the report
 * bucket are encrypted under it.
 */
import { contractRoutes } from '../../functions/contract';
import { networkRoutes, routes, type FunctionDefinition, type SealingUse } from '../../functions/routes';
import { personClaimsTrigger } from '../../functions/triggers';
import { workers } from '../../functions/workers';
import { SEALING_ACTIONS, sealingRolePath } from '../../infra/constructs/secret-key-policy';
import { SERVICE_NAME } from '../../shared/runtime/config';
import { ENCRYPTION_CONTEXT_KEYS } from '../../shared/data/secret-sealing';
import { stages, type StageName } from '../../infra/stages';
import { secretKeyArnOf } from './privileges';
import { asArray, logicalIdOf, resourcesOf, synth, type Json, type Synth } from './synth';

/** The calls that use a key's material: what an administrator must not make. */
const CRYPTOGRAPHIC_ACTIONS = [
  'kms:Decrypt',
  'kms:Encrypt',
  'kms:GenerateDataKey',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:GenerateDataKeyPair',
  'kms:GenerateDataKeyPairWithoutPlaintext',
  'kms:ReEncryptFrom',
  'kms:ReEncryptTo',
];

/** An action pattern of a policy (`kms:Get*`) against an action, as IAM matches them (case apart). */
const covers = (pattern: string, action: string): boolean =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(action);

const ACCOUNT = '111122223333';
const REGION = 'us-east-1';

/** A template string as CloudFormation would make it in ACCOUNT and REGION. */
function rendered(value: Json): string {
  if (typeof value === 'string') return value;
  const pseudo: Record<string, string> = {
    'AWS::Partition': 'aws',
    'AWS::AccountId': ACCOUNT,
    'AWS::Region': REGION,
    'AWS::URLSuffix': 'amazonaws.com',
  };
  if (value.Ref && value.Ref in pseudo) return pseudo[value.Ref]!;
  if (value['Fn::Join']) return (value['Fn::Join'][1] as Json[]).map(rendered).join(value['Fn::Join'][0]);
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

const isAccountRoot = (statement: Json): boolean =>
  asArray<Json>(statement.Principal?.AWS).some((principal) => rendered(principal) === `arn:aws:iam::${ACCOUNT}:root`);

const cryptographicActionsOf = (statement: Json): string[] =>
  CRYPTOGRAPHIC_ACTIONS.filter((action) => asArray<string>(statement.Action).some((p) => covers(p, action)));

/** Every entry a function of the stage may have been made from, by its name. */
const definitions = new Map<string, FunctionDefinition>(
  [...routes, ...networkRoutes, ...workers, personClaimsTrigger, contractRoutes as FunctionDefinition].map((d) => [
    d.name,
    d,
  ]),
);

describe.each(Object.keys(stages) as StageName[])('secret-key.suite: the secret key, stage %s', (stage) => {
  let synthed: Synth;
  let statements: Json[];
  beforeAll(() => {
    synthed = synth(stage);
    const key = resourcesOf(synthed)[logicalIdOf(synthed, synthed.stack.secrets.secretKey)];
    statements = asArray(key.Properties.KeyPolicy.Statement);
  });

  test('the account (its administrators) manages the key and cannot use it: no kms:Decrypt, no data key', () => {
    const administration = statements.filter(isAccountRoot);
    // One statement names the account, and it allows administration alone.
    expect(administration).toHaveLength(1);
    expect(administration[0]).toMatchObject({ Effect: 'Allow', Resource: '*' });
    expect(administration[0].Condition).toBeUndefined();
    for (const statement of administration) expect(cryptographicActionsOf(statement)).toEqual([]);
    expect(asArray<string>(administration[0].Action)).toEqual(
      expect.arrayContaining(['kms:Create*', 'kms:Put*', 'kms:ScheduleKeyDeletion', 'kms:RotateKeyOnDemand']),
    );
    // Nor may anyone grant itself the use (kms:CreateGrant is among Create*): only a service, for its data.
    expect(statements).toContainEqual({
      Sid: 'NoGrantsButTheServices',
      Effect: 'Deny',
      Principal: { AWS: '*' },
      Action: 'kms:CreateGrant',
      Resource: '*',
      Condition: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false' } },
    });
  });

  test("every use is either a sealing role with sealing's context, or through Secrets Manager, DynamoDB or S3", () => {
    const services = new Set<string>();
    let sealing = 0;
    for (const statement of statements.filter((s) => s.Effect === 'Allow')) {
      if (cryptographicActionsOf(statement).length === 0) continue;
      expect(statement.Principal).toEqual({ AWS: '*' });
      const viaService = statement.Condition?.StringEquals?.['kms:ViaService'];
      if (viaService) {
        expect(rendered(statement.Condition.StringEquals['kms:CallerAccount'])).toBe(ACCOUNT);
        expect(Object.keys(statement.Condition)).toEqual(['StringEquals']);
        services.add(rendered(viaService));
        continue;
      }
      sealing += 1;
      expect(asArray(statement.Action)).toHaveLength(1);
      expect(statement.Condition).toEqual({
        StringEquals: { 'aws:PrincipalAccount': { Ref: 'AWS::AccountId' } },
        ArnLike: { 'aws:PrincipalArn': expect.any(Array) },
        'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...ENCRYPTION_CONTEXT_KEYS] },
        Null: Object.fromEntries(ENCRYPTION_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
      });
    }
    expect([...services].sort()).toEqual(
      ['dynamodb', 's3', 'secretsmanager'].map((service) => `${service}.${REGION}.amazonaws.com`),
    );
    expect(sealing).toBe(2);
  });

  test.each(['open', 'seal'] as SealingUse[])(
    'only the roles whose entry declares %s match the statement that allows its call',
    (use) => {
      const statement = statements.find(
        (s) => s.Condition?.ArnLike && asArray(s.Action).includes(SEALING_ACTIONS[use]),
      );
      const patterns = asArray<Json>(statement.Condition.ArnLike['aws:PrincipalArn']).map(rendered);
      for (const pattern of patterns) {
        expect(pattern).toMatch(new RegExp(`^arn:aws:iam::${ACCOUNT}:role/${SERVICE_NAME}/${stage}/sealing/`));
      }
      const allowed: string[] = [];
      for (const [name, fn] of synthed.stack.serviceFunctions) {
        const role = resourcesOf(synthed)[logicalIdOf(synthed, fn.role)].Properties;
        const declared = definitions.get(name)?.sealing ?? [];
        expect([name, role.Path]).toEqual([
          name,
          declared.length ? sealingRolePath(synthed.settings, declared) : undefined,
        ]);
        // The role's ARN as IAM makes it: the path, then a name CloudFormation generates.
        const arn = `arn:aws:iam::${ACCOUNT}:role${role.Path ?? '/'}BrebMerchantApi-${name}-Role-1A2B3C4D`;
        if (patterns.some((pattern) => covers(pattern, arn))) allowed.push(name);
      }
      const declaring = [...synthed.stack.serviceFunctions.keys()].filter((name) =>
        definitions.get(name)?.sealing?.includes(use),
      );
      expect(allowed.sort()).toEqual(declaring.sort());
      expect(declaring.length).toBeGreaterThan(0);
    },
  );

  test('the table is encrypted under the key', () => {
    const table = resourcesOf(synthed)[logicalIdOf(synthed, synthed.stack.table)];
    expect(table.Properties.SSESpecification).toEqual({
      SSEEnabled: true,
      SSEType: 'KMS',
      KMSMasterKeyId: secretKeyArnOf(synthed),
    });
  });

  test('the report bucket is encrypted under the key (aws:kms), with an S3 Bucket Key', () => {
    const bucket = resourcesOf(synthed)[logicalIdOf(synthed, synthed.stack.reportBucket)];
    expect(bucket.Properties.BucketEncryption).toEqual({
      ServerSideEncryptionConfiguration: [
        {
          BucketKeyEnabled: true,
          ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: secretKeyArnOf(synthed) },
        },
      ],
    });
  });
});
