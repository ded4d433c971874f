/**
 * The report files' bucket (docs/reconciliation.md, "Reports"): encrypted, no public access, TLS only,
 * its files deleted after REPORT_FILE_DAYS, kept or removed as the stage keeps its data; reached only
 * by the functions whose entry declares `reportFiles` (the report worker writes, the report get reads
 * to presign), each only for what it declares, and named to them alone in REPORT_BUCKET_NAME.
 */
import { networkRoutes, routes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { REPORT_FILE_DAYS } from '../../shared/domain/reports';
import { stages, type StageName } from '../../infra/stages';
import { permissionProblems, reportFilesArnOf, settlementFilesArnOf } from './privileges';
import { functionLogicalId, logicalIdOf, resourcesOf, roleStatements, synth, type Json, type Synth } from './synth';

const definitions = [...routes, ...networkRoutes, ...workers];

describe.each(Object.keys(stages) as StageName[])('Report files, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let bucketId: string;
  beforeAll(() => {
    synthed = synth(stage);
    bucketId = logicalIdOf(synthed, synthed.stack.reportBucket);
  });

  test('one bucket: encrypted, no public access, TLS only, files expire, kept as the stage says', () => {
    // This one, and the audit events' Object Lock bucket (audit.suite.ts).
    synthed.template.resourceCountIs('AWS::S3::Bucket', 2);
    const bucket = resourcesOf(synthed)[bucketId];
    expect(bucket.Properties).toMatchObject({
      // Under the stage's key (secret-key.suite.ts checks which).
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [
          { BucketKeyEnabled: true, ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' } },
        ],
      },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LifecycleConfiguration: {
        Rules: [
          {
            Status: 'Enabled',
            ExpirationInDays: REPORT_FILE_DAYS,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
          },
        ],
      },
    });
    expect(bucket.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
    const policies = Object.values(resourcesOf(synthed)).filter(
      (resource: Json) => resource.Type === 'AWS::S3::BucketPolicy' && resource.Properties.Bucket.Ref === bucketId,
    );
    expect(policies).toHaveLength(1);
    expect(policies[0].Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
  });

  test('the report worker writes the files and the report get reads them, and nothing else reaches the bucket', () => {
    const reaching = definitions.filter((definition) => definition.reportFiles?.length);
    expect(reaching.map((definition) => [definition.name, definition.reportFiles])).toEqual([
      ['getReport', ['read']],
      ['runReport', ['write']],
    ]);
    const s3Statements = (name: string) =>
      roleStatements(synthed, name).filter(
        (statement: Json) =>
          JSON.stringify(statement.Action).includes('s3:') && JSON.stringify(statement.Resource).includes(bucketId),
      );
    expect(s3Statements('getReport')).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: reportFilesArnOf(synthed) },
    ]);
    expect(s3Statements('runReport')).toEqual([
      { Effect: 'Allow', Action: ['s3:AbortMultipartUpload', 's3:PutObject'], Resource: reportFilesArnOf(synthed) },
    ]);
    for (const definition of reaching) expect(permissionProblems(synthed, definition)).toEqual([]);
    for (const definition of definitions.filter((d) => !d.reportFiles?.length && !d.settlementFiles?.length)) {
      if (!synthed.stack.serviceFunctions.has(definition.name)) continue;
      expect(s3Statements(definition.name)).toEqual([]);
      expect(JSON.stringify(roleStatements(synthed, definition.name))).not.toContain(bucketId);
    }
  });

  test("the bank's settlement files: its PUT writes one and the reconciliation worker reads it, under their own prefix", () => {
    const reaching = definitions.filter((definition) => definition.settlementFiles?.length);
    expect(reaching.map((definition) => [definition.name, definition.settlementFiles])).toEqual([
      ['receiveSettlementFile', ['write']],
      ['reconcileSettlement', ['read']],
    ]);
    const s3Statements = (name: string) =>
      roleStatements(synthed, name).filter((statement: Json) => JSON.stringify(statement.Action).includes('s3:'));
    expect(s3Statements('receiveSettlementFile')).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:AbortMultipartUpload', 's3:PutObject'],
        Resource: settlementFilesArnOf(synthed),
      },
    ]);
    expect(s3Statements('reconcileSettlement')).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: settlementFilesArnOf(synthed) },
    ]);
    for (const definition of reaching) expect(permissionProblems(synthed, definition)).toEqual([]);
  });

  test('REPORT_BUCKET_NAME names the bucket to those four functions alone', () => {
    for (const definition of definitions) {
      if (!synthed.stack.serviceFunctions.has(definition.name)) continue;
      const fn = resourcesOf(synthed)[functionLogicalId(synthed, definition.name)];
      const variable = fn.Properties.Environment.Variables.REPORT_BUCKET_NAME;
      if (definition.reportFiles?.length || definition.settlementFiles?.length)
        expect(variable).toEqual({ Ref: bucketId });
      else expect(variable).toBeUndefined();
    }
  });
});
