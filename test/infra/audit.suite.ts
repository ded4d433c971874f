/**
 * The audit events' immutability on every stage (docs/audit.md, "Nobody changes an event"): every
 * Lambda function of the stage's template, its route families' included, runs under a role denied
 * updating or deleting an item under the events' partition-key prefix; and every function whose role
 * may write the table is one of the service's functions, which all get that Deny. The Object Lock
 * copy: the bucket's compliance-mode default retention, the stage's; the archiver's stream filter (audit
 * event inserts only) and its one grant (PutObject under audit/).
 */
import { stages, type StageName } from '../../infra/stages';
import { AUDIT_EVENT_DENIED_ACTIONS } from '../../infra/constructs/service-function';
import { AUDIT_EVENT_KEY_PREFIX } from '../../shared/data/item-keys';
import { auditArchiver } from '../../functions/workers';
import {
  asArray,
  functionLogicalId,
  logicalIdOf,
  resourcesOf,
  roleStatements,
  synth,
  type Json,
  type Synth,
} from './synth';

const stageNames = Object.keys(stages) as StageName[];

/** The statements of the role a function's resource names. */
const statementsOfRole = (resources: Record<string, Json>, roleId: string): Json[] =>
  Object.values(resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy')
    .filter((r) => asArray(r.Properties.Roles).some((role: Json) => role.Ref === roleId))
    .flatMap((r) => asArray(r.Properties.PolicyDocument.Statement));

const tableArnOf = (synthed: Synth): Json => ({
  'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'Arn'],
});

const isAuditDeny = (synthed: Synth, statement: Json): boolean =>
  JSON.stringify(statement) ===
  JSON.stringify({
    Action: [...AUDIT_EVENT_DENIED_ACTIONS].sort(),
    Condition: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [`${AUDIT_EVENT_KEY_PREFIX}*`] } },
    Effect: 'Deny',
    Resource: tableArnOf(synthed),
  });

const writesTable = (statement: Json): boolean =>
  statement.Effect === 'Allow' &&
  asArray<string>(statement.Action).some((action) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(action));

describe.each(stageNames)('audit events, stage %s (audit.suite.ts)', (stage) => {
  test('every function is denied updating or deleting an audit event', () => {
    const synthed = synth(stage);
    const resources = resourcesOf(synthed);
    const functions = Object.entries(resources).filter(([, r]) => r.Type === 'AWS::Lambda::Function');
    const ours = new Set([...synthed.stack.serviceFunctions.values()].map((fn) => logicalIdOf(synthed, fn.function)));
    const lacking: string[] = [];
    for (const [id, fn] of functions) {
      const roleId = fn.Properties.Role?.['Fn::GetAtt']?.[0];
      const statements = roleId ? statementsOfRole(resources, roleId) : [];
      const denied = statements.some((statement) => isAuditDeny(synthed, statement));
      // One of ours without it, or any other function that may write the table.
      if ((ours.has(id) || statements.some(writesTable)) && !denied) lacking.push(id);
    }
    expect(ours.size).toBeGreaterThan(20);
    expect([...ours].filter((id) => !functions.some(([fid]) => fid === id))).toEqual([]);
    expect(lacking).toEqual([]);
  });

  test("the Object Lock bucket locks each copy in compliance mode for the stage's retention, kept on deletion", () => {
    const synthed = synth(stage);
    const resources = resourcesOf(synthed);
    const bucket = resources[logicalIdOf(synthed, synthed.stack.auditArchiveBucket)];
    expect(bucket.Properties).toMatchObject({
      ObjectLockEnabled: true,
      ObjectLockConfiguration: {
        ObjectLockEnabled: 'Enabled',
        Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: stages[stage].auditArchiveRetentionDays } },
      },
      VersioningConfiguration: { Status: 'Enabled' },
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
    expect([bucket.DeletionPolicy, bucket.UpdateReplacePolicy]).toEqual(['Retain', 'Retain']);
    expect(stages[stage].auditArchiveRetentionDays).toBe(stages[stage].retainData ? 5 * 365 : 1);
  });

  test('the archiver gets only the insertions of audit events, and may only put objects under audit/', () => {
    const synthed = synth(stage);
    const resources = resourcesOf(synthed);
    const archiver = auditArchiver();
    const fnId = functionLogicalId(synthed, archiver.name);
    const [mapping] = Object.values(resources).filter(
      (r) => r.Type === 'AWS::Lambda::EventSourceMapping' && r.Properties.FunctionName.Ref === fnId,
    );
    expect(mapping.Properties).toMatchObject({
      EventSourceArn: { 'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.table), 'StreamArn'] },
      StartingPosition: 'TRIM_HORIZON',
      FilterCriteria: {
        Filters: [
          {
            Pattern: JSON.stringify({
              eventName: ['INSERT'],
              dynamodb: { NewImage: { entity: { S: ['AUDIT_EVENT'] } } },
            }),
          },
        ],
      },
    });
    const bucketId = logicalIdOf(synthed, synthed.stack.auditArchiveBucket);
    const onBucket = roleStatements(synthed, archiver.name).filter((statement) =>
      JSON.stringify(statement.Resource).includes(bucketId),
    );
    expect(onBucket).toEqual([
      {
        Action: 's3:PutObject',
        Effect: 'Allow',
        Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/audit/*']] },
      },
    ]);
    expect(resources[fnId].Properties.Environment.Variables.AUDIT_ARCHIVE_BUCKET_NAME).toEqual({ Ref: bucketId });
    // No other function reaches the bucket.
    const reaching = Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && JSON.stringify(r.Properties.PolicyDocument).includes(bucketId))
      .flatMap((r) => asArray<Json>(r.Properties.Roles));
    expect(reaching).toHaveLength(1);
  });
});
