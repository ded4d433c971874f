/**
 * cdk-nag's AwsSolutions rules on every stage, as infra/app.ts runs them on every synthesis: no
 * finding may stay open (error or warning). Each accepted finding is suppressed with its reason
 * next to the resource; the list below pins them, so a new one is a decision, not an accident.
 */
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SuppressionIgnoreAlways } from 'cdk-nag';
import { stages, type StageName } from '../../infra/stages';
import { logicalIdOf, synth, type Synth } from './synth';

const findings = ({ stack }: Synth): string[] => {
  const annotations = Annotations.fromStack(stack);
  const rule = Match.stringLikeRegexp('AwsSolutions-');
  return [...annotations.findError('*', rule), ...annotations.findWarning('*', rule)].map(
    (m) => `${m.id} ${ruleOf(String(m.entry.data))}`,
  );
};

/** "AwsSolutions-IAM5[Resource::*]: The IAM entity..." -> the rule, and what it applies to. */
const ruleOf = (message: string): string => message.slice(0, message.indexOf(': '));

describe.each(Object.keys(stages) as StageName[])('stage %s', (stage) => {
  test('no AwsSolutions finding is left open', () => {
    expect(findings(synth(stage, { nag: { verbose: true } }))).toEqual([]);
  });

  test('the suppressed findings are exactly the accepted ones', () => {
    // Ignoring every suppression shows what they hide.
    const synthed = synth(stage, { nag: { suppressionIgnoreCondition: new SuppressionIgnoreAlways('audit') } });
    // Routes', workers' and the contract's functions alike (service-function.ts).
    const functions = synthed.stack.functions.size + synthed.stack.workers.size + 1;
    const counts = new Map<string, number>();
    for (const finding of findings(synthed)) {
      const rule = finding.split(' ')[1]!;
      counts.set(rule, (counts.get(rule) ?? 0) + 1);
    }
    expect(Object.fromEntries(counts)).toEqual({
      // Hand-rotated QR signing secret (stage-secrets.ts).
      'AwsSolutions-SMG4': 1,
      // Node.js 22 by decision (service-function.ts).
      'AwsSolutions-L1': functions,
      // X-Ray's Resource "*" (with the stream consumer's ListStreams) and the table's index/*
      // (service-function.ts). The rate-limit counters' grant names the table itself, narrowed by
      // conditions: no finding of its own.
      'AwsSolutions-IAM5[Resource::*]': functions,
      // (The description's function has no table right.)
      [`AwsSolutions-IAM5[Resource::<${logicalIdOf(synthed, synthed.stack.table)}.Arn>/index/*]`]: functions - 1,
      // The stream consumer's on-failure destination is a dead-letter queue cdk-nag does not recognize
      // (worker-function.ts).
      'AwsSolutions-SQS3': 1,
      // The OpenAPI document and its reference page, public by design (infra/stack.ts).
      'AwsSolutions-APIG4': synthed.stack.contractRoutes.length,
      // No Plus tier for a pool without users (identity.ts).
      ...(stages[stage].identity.kind === 'cognito' ? { 'AwsSolutions-COG8': 1 } : {}),
    });
  });
});

test('a finding that is not suppressed fails the check', () => {
  // Guards the guard: a topic that accepts plain HTTP publishers (AwsSolutions-SNS3).
  const synthed = synth('dev', { nag: {}, modify: (stack) => new Topic(stack, 'PlainTopic') });
  expect(findings(synthed)).toEqual([expect.stringContaining('AwsSolutions-SNS3')]);
});
