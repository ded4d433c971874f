/**
 * cdk-nag's AwsSolutions rules on every stage, as infra/app.ts runs them on every synthesis: no
 * finding may stay open (error or warning). Each accepted finding is suppressed with its reason
 * next to the resource; the list below pins them, so a new one is a decision, not an accident.
 */
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SuppressionIgnoreAlways } from 'cdk-nag';
import { networkRoutes, routes } from '../../functions/routes';
import { workers } from '../../functions/workers';
import { stages, type StageName } from '../../infra/stages';
import { logicalIdOf, synth, type Synth } from './synth';

const findings = ({ stack }: Synth): string[] => {
  const annotations = Annotations.fromStack(stack);
  const rule = Match.stringLikeRegexp('AwsSolutions-');
  // Once each: cdk-nag visits a nested stack's resources before and after CDK turns their references to
  // the stage's resources into parameters, so a finding of a route family's may come under both names.
  return [
    ...new Set(
      [...annotations.findError('*', rule), ...annotations.findWarning('*', rule)].map(
        (m) => `${m.id} ${ruleOf(String(m.entry.data))}`,
      ),
    ),
  ];
};

/**
 * "AwsSolutions-IAM5[Resource::*]: The IAM entity..." -> the rule, and what it applies to, the table
 * or the report bucket named alike wherever the function is: `<Table.Arn>` for the stage's own
 * `<TableCD117FA1.Arn>` and a route family's parameter `<referencetoBrebMerchantApidevTableB979306CArn>`.
 */
const ruleOf = (message: string): string =>
  message
    .slice(0, message.indexOf(': '))
    .replace(
      /<(?:referencetoBrebMerchantApi[a-z]+)?(Table|ReportFilesBucket|AuditArchiveBucket)[0-9A-F]{8}(?:\.)?Arn>/,
      '<$1.Arn>',
    );

describe.each(Object.keys(stages) as StageName[])('cdk-nag, stage %s', (stage) => {
  test('no AwsSolutions finding is left open', () => {
    expect(findings(synth(stage, { nag: { verbose: true } }))).toEqual([]);
  });

  test('the suppressed findings are exactly the accepted ones', () => {
    // Ignoring every suppression shows what they hide.
    const synthed = synth(stage, { nag: { suppressionIgnoreCondition: new SuppressionIgnoreAlways('audit') } });
    // Routes', workers', the contract's and the sign-in trigger's functions alike (service-function.ts).
    const functions = synthed.stack.serviceFunctions.size;
    // (Neither the contract's function nor the trigger has a table right; the network routes' functions
    // do, but for the one that serves our public keys.)
    const networkWithTable = networkRoutes.filter((route) => route.tableActions.length > 0).length;
    const workersWithTable = workers.filter((worker) => worker.tableActions.length > 0).length;
    const withTable = synthed.stack.functions.size + networkWithTable + workersWithTable;
    const hosted = synthed.stack.dashboard !== undefined;
    const counts = new Map<string, number>();
    for (const finding of findings(synthed)) {
      const rule = finding.split(' ')[1]!;
      counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
    const bucketId = hosted ? logicalIdOf(synthed, synthed.stack.dashboard!.bucket) : '';
    expect(Object.fromEntries(counts)).toEqual({
      // Hand-rotated secrets: the QR signing key and the network connector's (stage-secrets.ts).
      'AwsSolutions-SMG4': 2,
      // X-Ray's Resource "*" (with the stream consumer's ListStreams) and the table's index/*
      // (service-function.ts); the dashboard upload's CloudFront invalidation. The rate-limit
      // counters' grant names the table itself, narrowed by conditions: no finding of its own.
      'AwsSolutions-IAM5[Resource::*]': functions + (hosted ? 1 : 0),
      'AwsSolutions-IAM5[Resource::<Table.Arn>/index/*]': withTable,
      // The report files, named by their report under one prefix, for the functions that declare
      // reportFiles (report-bucket.ts); and no access-log bucket for their short-lived exports.
      'AwsSolutions-IAM5[Resource::<ReportFilesBucket.Arn>/reports/*]': [
        ...synthed.stack.serviceFunctions.keys(),
      ].filter((name) => [...routes, ...workers].some((d) => d.name === name && d.reportFiles?.length)).length,
      // The sponsor bank's settlement files, under a prefix of their own (settlement-files.ts).
      'AwsSolutions-IAM5[Resource::<ReportFilesBucket.Arn>/settlement-files/*]': [
        ...synthed.stack.serviceFunctions.keys(),
      ].filter((name) =>
        [...routes, ...networkRoutes, ...workers].some((d) => d.name === name && d.settlementFiles?.length),
      ).length,
      // The audit copies, named by their client and place in the chain, for the archiver alone
      // (audit-archive-bucket.ts).
      'AwsSolutions-IAM5[Resource::<AuditArchiveBucket.Arn>/audit/*]': 1,
      // The report files' bucket and the audit copies': no access-log bucket of their own.
      'AwsSolutions-S1': 2,
      // The OpenAPI document and its reference page, public by design, and the network connector's
      // routes, authenticated by their signature (infra/stack.ts).
      'AwsSolutions-APIG4': synthed.stack.contractRoutes.length + synthed.stack.networkRoutes.length,
      // No Plus tier for the staff's sign-ins but on production (identity.ts).
      ...(stages[stage].identity.kind === 'cognito' && stage !== 'prod' ? { 'AwsSolutions-COG8': 1 } : {}),
      ...(hosted
        ? {
            // CDK's upload handler pins its own runtime (dashboard-site.ts); ours are on the latest.
            'AwsSolutions-L1': 1,
            // No country refused; without an edge (dashboard-site.ts), no web ACL and the default
            // certificate's TLS: production has its edge.
            'AwsSolutions-CFR1': 1,
            ...(synthed.stack.edge ? {} : { 'AwsSolutions-CFR2': 1, 'AwsSolutions-CFR4': 1 }),
            // CDK's upload of the dashboard's files: object actions on the staging and dashboard buckets.
            'AwsSolutions-IAM5[Action::s3:Abort*]': 1,
            'AwsSolutions-IAM5[Action::s3:DeleteObject*]': 1,
            'AwsSolutions-IAM5[Action::s3:GetBucket*]': 1,
            'AwsSolutions-IAM5[Action::s3:GetObject*]': 1,
            'AwsSolutions-IAM5[Action::s3:List*]': 1,
            [`AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/*]`]: 1,
            // The access logs' delivery (cloudfront-access-logs.ts): v2 logs, which cdk-nag does not
            // see, and the us-east-1 deliveries of this account, whose ids CloudWatch Logs chooses.
            'AwsSolutions-CFR3': 1,
            'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:us-east-1:<AWS::AccountId>:delivery-source/*]': 2,
            'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:us-east-1:<AWS::AccountId>:delivery-destination/*]': 2,
            'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:us-east-1:<AWS::AccountId>:delivery/*]': 1,
            'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]': 1,
          }
        : {}),
    });
  });
});

test('a finding that is not suppressed fails the check', () => {
  // Guards the guard: a topic that accepts plain HTTP publishers (AwsSolutions-SNS3).
  const synthed = synth('dev', { nag: {}, modify: (stack) => new Topic(stack, 'PlainTopic') });
  expect(findings(synthed)).toEqual([expect.stringContaining('AwsSolutions-SNS3')]);
});
