/**
 * The key policy of the stage's secret key (stage-secrets.ts), written whole here: administration
 * apart from use. The account (its administrators, through IAM) may manage the key but never use it
 * directly; only the execution roles of the functions whose entry declares `sealing` may, each for
 * its declared use and only with the encryption context sealing gives (shared/data/secret-sealing.ts);
 * everyone else uses it only through the services that keep data under it (Secrets Manager, DynamoDB,
 * S3), as the AWS-managed keys of those services allow: the caller must be of the account, and the
 * service's own rights (GetSecretValue, the declared table actions, the declared report-file actions)
 * decide who reads what.
 *
 * Why the sealing roles are named by their IAM path, not their ARN: the key is in the stage's stack,
 * most roles are in the route families' nested stacks, which take the key's ARN as a parameter; a key
 * policy naming their ARNs would make the stage's stack wait for theirs, a cycle CloudFormation refuses.
 * A role's path is set here (sealingRolePath), at creation, and cannot change afterwards: the policy
 * matches `aws:PrincipalArn` (a role's ARN, path included) against the paths alone, which need nothing
 * from the nested stacks. Creating another role under such a path takes iam:CreateRole, an
 * administrator's right, as rewriting this policy (kms:PutKeyPolicy) is: both are in CloudTrail.
 */
import { Stack } from 'aws-cdk-lib';
import {
  AccountRootPrincipal,
  AnyPrincipal,
  Effect,
  PolicyDocument,
  PolicyStatement,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { SealingUse } from '../../functions/routes';
import { ENCRYPTION_CONTEXT_KEYS } from '../../shared/data/secret-sealing';
import { SERVICE_NAME } from '../../shared/runtime/config';
import type { StageSettings } from '../stages';

/**
 * What administrators may do with the key: everything but using it. No kms:Decrypt, Encrypt,
 * GenerateDataKey* nor ReEncrypt*: an administrator cannot open a sealed secret, nor read the table
 * or the report files by the key alone.
 */
export const KEY_ADMIN_ACTIONS: readonly string[] = [
  'kms:Create*',
  'kms:Describe*',
  'kms:Enable*',
  'kms:List*',
  'kms:Put*',
  'kms:Update*',
  'kms:Revoke*',
  'kms:Disable*',
  'kms:Get*',
  'kms:Delete*',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:ScheduleKeyDeletion',
  'kms:CancelKeyDeletion',
  'kms:RotateKeyOnDemand',
];

/** The one KMS action each use of the secret key needs: data keys to seal with, or to open with. */
export const SEALING_ACTIONS: Readonly<Record<SealingUse, string>> = {
  seal: 'kms:GenerateDataKey',
  open: 'kms:Decrypt',
};

/** The uses in a fixed order, so that a role's path names its set of uses one way only. */
const USES: readonly SealingUse[] = ['seal', 'open'];

/** The path segment of a set of uses: `seal`, `open` or `seal-open`. */
const usesSegment = (uses: readonly SealingUse[]): string => USES.filter((use) => uses.includes(use)).join('-');

/** The stage's part of the sealing roles' paths: the service's and the stage's names. */
const stagePath = (settings: StageSettings): string => `/${SERVICE_NAME}/${settings.name}/sealing`;

/** The IAM path of the execution role of a function whose entry declares these uses of the key. */
export const sealingRolePath = (settings: StageSettings, uses: readonly SealingUse[]): string =>
  `${stagePath(settings)}/${usesSegment(uses)}/`;

/** Every set of uses that includes `use`: the paths of the roles that may make its call. */
const pathsAllowing = (settings: StageSettings, use: SealingUse): string[] =>
  [[use], USES].map((uses) => sealingRolePath(settings, uses)).filter((path, i, all) => all.indexOf(path) === i);

/** The services that keep data under the key, each reached at its regional endpoint. */
export const KEY_SERVICES = ['secretsmanager', 'dynamodb', 's3'] as const;

/** Data keys made, opened and re-wrapped, and the key described. */
const DATA_KEY_ACTIONS = ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:DescribeKey'];

/**
 * What a service does with the key for its caller, as its AWS-managed key allows it (aws/secretsmanager,
 * aws/dynamodb, aws/s3): data keys, and decrypting them; Secrets Manager and DynamoDB also make
 * grants for their own background work (DynamoDB's backups, stream and restores).
 */
export const VIA_SERVICE_ACTIONS: Readonly<Record<(typeof KEY_SERVICES)[number], readonly string[]>> = {
  secretsmanager: [...DATA_KEY_ACTIONS, 'kms:CreateGrant'],
  dynamodb: [...DATA_KEY_ACTIONS, 'kms:CreateGrant'],
  s3: DATA_KEY_ACTIONS,
};

/** The key policy of the stage's secret key (see the file's comment). */
export function secretKeyPolicy(scope: Construct, settings: StageSettings): PolicyDocument {
  const { account, region, partition, urlSuffix } = Stack.of(scope);
  const roleArns = (use: SealingUse): string[] =>
    pathsAllowing(settings, use).map((path) => `arn:${partition}:iam::${account}:role${path}*`);
  return new PolicyDocument({
    statements: [
      new PolicyStatement({
        sid: 'Administration',
        principals: [new AccountRootPrincipal()],
        actions: [...KEY_ADMIN_ACTIONS],
        resources: ['*'],
      }),
      // Nobody grants another principal the use of the key, the administrators included, except a
      // service for the data it keeps under the key (DynamoDB's grant): Create* and the IAM delegation
      // above would otherwise let an administrator grant itself kms:Decrypt.
      new PolicyStatement({
        sid: 'NoGrantsButTheServices',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['kms:CreateGrant'],
        resources: ['*'],
        // IfExists: a call without the key (not a service's) is denied too.
        conditions: { BoolIfExists: { 'kms:GrantIsForAWSResource': 'false' } },
      }),
      ...USES.map(
        (use) =>
          new PolicyStatement({
            sid: `Sealing${use === 'seal' ? 'Seal' : 'Open'}`,
            principals: [new AnyPrincipal()],
            actions: [SEALING_ACTIONS[use]],
            resources: ['*'],
            conditions: {
              StringEquals: { 'aws:PrincipalAccount': account },
              ArnLike: { 'aws:PrincipalArn': roleArns(use) },
              // Exactly the context sealing gives (the record's tenant and owner), both present: a call
              // without it, or with any other key, is refused.
              'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...ENCRYPTION_CONTEXT_KEYS] },
              Null: Object.fromEntries(ENCRYPTION_CONTEXT_KEYS.map((key) => [`kms:EncryptionContext:${key}`, 'false'])),
            },
          }),
      ),
      ...KEY_SERVICES.map(
        (service) =>
          new PolicyStatement({
            sid: `Through${service === 's3' ? 'S3' : service === 'dynamodb' ? 'DynamoDB' : 'SecretsManager'}`,
            principals: [new AnyPrincipal()],
            actions: [...VIA_SERVICE_ACTIONS[service]],
            resources: ['*'],
            conditions: {
              StringEquals: { 'kms:CallerAccount': account, 'kms:ViaService': `${service}.${region}.${urlSuffix}` },
            },
          }),
      ),
      // DynamoDB checks the key it encrypts the table with is still usable (its state, its policy).
      new PolicyStatement({
        sid: 'DynamoDBReadsTheKey',
        principals: [new ServicePrincipal('dynamodb.amazonaws.com')],
        actions: ['kms:Describe*', 'kms:Get*', 'kms:List*'],
        resources: ['*'],
      }),
    ],
  });
}
