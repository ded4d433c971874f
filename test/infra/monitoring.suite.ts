/**
 * Alarms (API 5xx rate and p99 latency, each function's errors and throttles, table throttles, each
 * dead-letter queue, the stream consumer's iterator age, webhook deliveries given up, requests let
 * through without their tenant's rate limit), all notifying one encrypted, SSL-only SNS topic, and
 * one dashboard per stage. They live in a nested stack of the stage's: what they watch in the stage's
 * stack reaches them as the nested stack's parameters.
 */
import { ITERATOR_AGE_ALARM_MS, SCANNING_MIN_LOOKUPS, SCANNING_MISS_PERCENT } from '../../infra/constructs/monitoring';
import { DUE_DEPTH_ALARM_ITEMS, STRANDED_WORK_ALARM_MINUTES } from '../../infra/constructs/sweeper-alarms';
import {
  CALLBACK_LATENCY_P99_MS,
  CONNECTOR_FAILURE_PERCENT,
  CONNECTOR_MIN_CALLS,
} from '../../infra/constructs/connector-alarms';
import {
  CONNECTOR_METRICS,
  STRANDED_WORK_METRICS,
  strandedWorkOverMetric,
} from '../../shared/observability/metric-names';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infra/paths';
import { stages, type StageName } from '../../infra/stages';
import { SERVICE_NAME } from '../../shared/runtime/config';
import { logicalIdOf, nestedOf, synth, type Json, type Nested, type Synth } from './synth';

/**
 * The alarm names the runbook's entries answer: each name in backticks in a heading of its section
 * "When an alarm fires", where `<function>` (any word in angle brackets) stands for a family
 * (`<function>-Errors`: every function's).
 */
const RUNBOOK_ENTRIES: readonly RegExp[] = (() => {
  const runbook = readFileSync(join(REPO_ROOT, 'docs', 'operations.md'), 'utf8');
  const start = runbook.indexOf('\n## When an alarm fires\n');
  if (start < 0) throw new Error('docs/operations.md has no section "When an alarm fires"');
  const end = runbook.indexOf('\n## ', start + 1);
  const section = runbook.slice(start, end < 0 ? undefined : end);
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return section
    .split('\n')
    .filter((line) => line.startsWith('### '))
    .flatMap((heading) => [...heading.matchAll(/`([^`]+)`/g)].map(([, name]) => name!))
    .map((name) => new RegExp(`^${name.split(/<\w+>/).map(escape).join('\\w+')}$`));
})();

describe.each(Object.keys(stages) as StageName[])('monitoring, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let monitoring: Nested;
  let topicId: string;
  let alarms: Json[];
  beforeAll(() => {
    synthed = synth(stage);
    monitoring = nestedOf(synthed, synthed.stack.monitoring);
    topicId = logicalIdOf(synthed, synthed.stack.monitoring.topic);
    alarms = Object.values(monitoring.template.findResources('AWS::CloudWatch::Alarm')).map((a: Json) => a.Properties);
  });
  /** A reference to a resource of the stage's stack, as the nested stack's parameter passes it. */
  const fromStage = (reference: Json): Json => monitoring.passed(reference);
  /** Every function of ours: the routes', the workers', the contract's and the sign-in trigger's. */
  const allFunctions = () => [...synthed.stack.serviceFunctions];
  const named = (suffix: string): Json => {
    const alarm = alarms.find((a) => a.AlarmName === `BrebMerchantApi-${stage}-${suffix}`);
    if (!alarm) throw new Error(`No alarm ${suffix}`);
    return alarm;
  };

  test('every alarm notifies the topic when it fires and when it clears; no traffic is no alarm', () => {
    // API 5xx rate, API latency, surges of 401, 403 and 429 and of the network's 401s, two per function, table throttles, one
    // per dead-letter queue, the stream consumers' iterator age (the dispatcher's and the audit
    // archiver's), the dispatcher's batches given up, deliveries given
    // up, transfers in review, settlement breaks, negative balances, stranded work, the due index's
    // depth, the sweeper stopped,
    // the tenant rate limit unavailable, the directory scanned; on a connector stage, the connector's
    // failures, latency and callbacks' latency.
    expect(synthed.stack.deadLetterQueues.size).toBe(6);
    const connector = settings.network.kind === 'connector' ? 3 : 0;
    expect(alarms).toHaveLength(
      2 + 3 + 1 + 2 * allFunctions().length + 1 + 6 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + connector,
    );
    for (const alarm of alarms) {
      expect(alarm.AlarmActions).toEqual([{ Ref: topicId }]);
      expect(alarm.OKActions).toEqual([{ Ref: topicId }]);
      // Only the sweeper's heartbeat takes no data as an incident.
      expect(alarm.TreatMissingData).toBe(alarm === named('SweeperStopped') ? 'breaching' : 'notBreaching');
    }
  });

  test('every alarm has its entry in the runbook (docs/operations.md, "When an alarm fires")', () => {
    const missing = alarms
      .map((a) => String(a.AlarmName).slice(`BrebMerchantApi-${stage}-`.length))
      .filter((name) => !RUNBOOK_ENTRIES.some((entry) => entry.test(name)));
    expect(missing).toEqual([]);
  });

  test("the sweeper's heartbeat: fewer than one invocation in 5 minutes, missing data breaching", () => {
    const alarm = named('SweeperStopped');
    expect(alarm).toMatchObject({
      MetricName: 'Invocations',
      Namespace: 'AWS/Lambda',
      Statistic: 'Sum',
      Period: 300,
      Threshold: 1,
      ComparisonOperator: 'LessThanThreshold',
      TreatMissingData: 'breaching',
    });
    const sweeper = synthed.stack.workers.get('sweepStrandedWork')!;
    expect(alarm.Dimensions).toEqual([{ Name: 'FunctionName', Value: expect.anything() }]);
    expect(fromStage(alarm.Dimensions[0].Value)).toEqual({ Ref: logicalIdOf(synthed, sweeper.function) });
  });

  test('API 5xx rate, in percent of requests', () => {
    const alarm = named('Api5xxRate');
    expect(alarm.Threshold).toBe(settings.alarms.serverErrorRatePercent);
    const expression = alarm.Metrics.find((m: Json) => m.Expression);
    expect(expression.Expression).toBe('IF(requests > 0, 100 * FILL(errors, 0) / requests, 0)');
    const metricNames = alarm.Metrics.filter((m: Json) => m.MetricStat).map(
      (m: Json) => m.MetricStat.Metric.MetricName,
    );
    expect(metricNames.sort()).toEqual(['5xx', 'Count']);
  });

  test('API p99 latency', () => {
    expect(named('ApiLatencyP99')).toMatchObject({
      MetricName: 'Latency',
      Namespace: 'AWS/ApiGateway',
      ExtendedStatistic: 'p99',
      Threshold: settings.alarms.latencyP99Ms,
    });
  });

  test("each function's errors and throttles, routes' and workers'", () => {
    for (const [name, fn] of allFunctions()) {
      for (const [suffix, metricName] of [
        ['Errors', 'Errors'],
        ['Throttles', 'Throttles'],
      ]) {
        const alarm = named(`${name}-${suffix}`);
        expect(alarm).toMatchObject({ MetricName: metricName, Threshold: 1 });
        expect(alarm.Dimensions).toHaveLength(1);
        expect(alarm.Dimensions[0].Name).toBe('FunctionName');
        expect(fromStage(alarm.Dimensions[0].Value)).toEqual({ Ref: logicalIdOf(synthed, fn.function) });
      }
    }
  });

  test("the table's throttled requests, summed over the operations the routes use", () => {
    const alarm = named('TableThrottles');
    const metrics = alarm.Metrics.filter((m: Json) => m.MetricStat).map((m: Json) => m.MetricStat.Metric);
    expect(metrics.length).toBeGreaterThanOrEqual(5);
    for (const metric of metrics) {
      expect(metric.MetricName).toBe('ThrottledRequests');
      const table = metric.Dimensions.find((d: Json) => d.Name === 'TableName');
      expect(fromStage(table.Value)).toEqual({ Ref: logicalIdOf(synthed, synthed.stack.table) });
    }
  });

  test('a message in any dead-letter queue', () => {
    expect([...synthed.stack.deadLetterQueues.keys()].sort()).toEqual([
      'creditDecisions',
      'reconciliations',
      'reports',
      'settlement',
      'streamFailures',
      'webhookDeliveries',
    ]);
    for (const [name, queue] of synthed.stack.deadLetterQueues) {
      const alarm = named(`${name}-DeadLetters`);
      const [dimension] = alarm.Dimensions;
      expect(dimension.Name).toBe('QueueName');
      expect(fromStage(dimension.Value)).toEqual({ 'Fn::GetAtt': [logicalIdOf(synthed, queue), 'QueueName'] });
      expect(alarm).toMatchObject({
        Namespace: 'AWS/SQS',
        MetricName: 'ApproximateNumberOfMessagesVisible',
        Dimensions: [dimension],
        Statistic: 'Maximum',
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        Threshold: 1,
        Period: 300,
      });
    }
  });

  test("the stream consumer a minute behind (its iterator's age)", () => {
    const dispatcher = synthed.stack.workers.get('dispatchEvents')!;
    const alarm = named('dispatchEvents-IteratorAge');
    expect(alarm).toMatchObject({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Dimensions: [{ Name: 'FunctionName', Value: expect.anything() }],
      Statistic: 'Maximum',
      Threshold: ITERATOR_AGE_ALARM_MS,
    });
    expect(fromStage(alarm.Dimensions[0].Value)).toEqual({ Ref: logicalIdOf(synthed, dispatcher.function) });
    expect(ITERATOR_AGE_ALARM_MS).toBe(60_000);
  });

  test('a stream batch given up by the dispatcher (a message sent to the streamFailures queue)', () => {
    const alarm = named('StreamBatchesGivenUp');
    expect(alarm).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'NumberOfMessagesSent',
      Statistic: 'Sum',
      Threshold: 1,
      EvaluationPeriods: 1,
    });
    expect(fromStage(alarm.Dimensions[0].Value)).toEqual({
      'Fn::GetAtt': [logicalIdOf(synthed, synthed.stack.queues.byName.streamFailures), 'QueueName'],
    });
  });

  test("a webhook delivery given up, counted by the sender with the service dimension alone, in the stage's namespace", () => {
    const alarm = named('WebhookDeliveriesFailed');
    expect(alarm).toMatchObject({ Threshold: 1, EvaluationPeriods: 1, TreatMissingData: 'notBreaching' });
    expect(alarm.Metrics).toEqual([
      expect.objectContaining({
        MetricStat: {
          Metric: {
            Namespace: `BrebMerchantApi/${stage}`,
            MetricName: 'WebhookDeliveriesFailed',
            Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
          },
          Period: 300,
          Stat: 'Sum',
        },
        ReturnData: true,
      }),
    ]);
  });

  test('transfers in review: raised while the settlement job restarts one, a count summed over 5 minutes', () => {
    const alarm = named('TransfersInReview');
    expect(alarm).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: 'TransfersInReview',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Period: 300,
      Statistic: 'Sum',
    });
  });

  test('settlement breaks: raised when a reconciliation with the bank finds one, a count summed over 5 minutes', () => {
    expect(named('SettlementBreaks')).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: 'SettlementBreaks',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Period: 300,
      Statistic: 'Sum',
    });
  });

  test('negative balances: raised by any reversal that took an account below zero, summed over 5 minutes', () => {
    expect(named('NegativeBalances')).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: 'NegativeBalances',
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Period: 300,
      Statistic: 'Sum',
    });
  });

  test("the connector failing: a fifth of a minute's requests (5 or more) two minutes running; its p99 near the limit", () => {
    if (settings.network.kind !== 'connector') {
      expect(alarms.filter((a) => String(a.AlarmName).includes('Connector'))).toEqual([]);
      return;
    }
    const rate = named('ConnectorFailureRate');
    expect(rate).toMatchObject({
      Threshold: CONNECTOR_FAILURE_PERCENT,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const stat = (metricName: string) => ({
      Metric: {
        Namespace: `BrebMerchantApi/${stage}`,
        MetricName: metricName,
        Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      },
      Period: 60,
      Stat: 'Sum',
    });
    expect(rate.Metrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Expression: `IF(FILL(calls, 0) >= ${CONNECTOR_MIN_CALLS}, 100 * FILL(failures, 0) / calls, 0)`,
          ReturnData: true,
        }),
        expect.objectContaining({ Id: 'calls', MetricStat: stat(CONNECTOR_METRICS.calls), ReturnData: false }),
        expect.objectContaining({ Id: 'failures', MetricStat: stat(CONNECTOR_METRICS.failures), ReturnData: false }),
      ]),
    );
    expect(named('ConnectorLatencyP99')).toMatchObject({
      Threshold: 4000,
      EvaluationPeriods: 1,
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: CONNECTOR_METRICS.latency,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Period: 300,
      ExtendedStatistic: 'p99',
    });
  });

  test("the network's answers late: the p99 of a transfer's commit to its callback, a minute or more, 10 minutes running", () => {
    if (settings.network.kind !== 'connector') return;
    expect(CALLBACK_LATENCY_P99_MS).toBe(60_000);
    expect(named('ConnectorCallbackLatencyP99')).toMatchObject({
      Threshold: CALLBACK_LATENCY_P99_MS,
      EvaluationPeriods: 2,
      DatapointsToAlarm: 2,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: CONNECTOR_METRICS.callbackLatency,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
      Period: 300,
      ExtendedStatistic: 'p99',
    });
  });

  /** A metric the sweeper publishes every run, the most of a run in each 5 minutes. */
  const sweeperStat = (metricName: string) => [
    expect.objectContaining({
      MetricStat: {
        Metric: {
          Namespace: `BrebMerchantApi/${stage}`,
          MetricName: metricName,
          Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
        },
        Period: 300,
        Stat: 'Maximum',
      },
      ReturnData: true,
    }),
  ];

  test("stranded work: the count of restarted work waiting 15 minutes or more, in the stage's namespace, one restart in 15 minutes", () => {
    const alarm = named('StrandedWork');
    expect(alarm).toMatchObject({
      Threshold: 1,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(STRANDED_WORK_ALARM_MINUTES).toBe(15);
    expect(alarm.Metrics).toEqual(sweeperStat('StrandedWorkOver15Minutes'));
    expect(strandedWorkOverMetric(STRANDED_WORK_ALARM_MINUTES)).toBe('StrandedWorkOver15Minutes');
    // No longer the oldest age, which one stuck item held up for as long as it was stuck.
    expect(JSON.stringify(alarm)).not.toContain(STRANDED_WORK_METRICS.OLDEST_AGE);
  });

  test('the due index piling up: a run read 1,000 due items or more, three 5-minute periods running', () => {
    const alarm = named('DueWorkDepth');
    expect(alarm).toMatchObject({
      Threshold: DUE_DEPTH_ALARM_ITEMS,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    expect(DUE_DEPTH_ALARM_ITEMS).toBe(1_000);
    expect(alarm.Metrics).toEqual(sweeperStat(STRANDED_WORK_METRICS.DUE_DEPTH));
  });

  test("a request let through without its tenant's rate limit, on any route", () => {
    const alarm = named('TenantRateLimitUnavailable');
    expect(alarm).toMatchObject({ Threshold: 1, EvaluationPeriods: 1 });
    // Published with the request's route and status class: a Metrics Insights query sums them all.
    expect(alarm.Metrics).toEqual([
      expect.objectContaining({
        Expression:
          `SELECT SUM(TenantRateLimitUnavailable) FROM SCHEMA("BrebMerchantApi/${stage}", route, service, status) ` +
          `WHERE service = '${SERVICE_NAME}'`,
        Period: 300,
        ReturnData: true,
      }),
    ]);
  });

  test('directory lookups that mostly miss: the share of misses, over enough lookups, counted with the service dimension alone', () => {
    const alarm = named('DirectoryScanning');
    expect(alarm).toMatchObject({
      Threshold: SCANNING_MISS_PERCENT,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
    const metricOf = (name: string) => ({
      Namespace: `BrebMerchantApi/${stage}`,
      MetricName: name,
      Dimensions: [{ Name: 'service', Value: SERVICE_NAME }],
    });
    expect(alarm.Metrics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Expression: expect.stringContaining(`>= ${SCANNING_MIN_LOOKUPS}, 100 * FILL(misses, 0) /`),
          ReturnData: true,
        }),
        expect.objectContaining({
          Id: 'hits',
          MetricStat: expect.objectContaining({ Metric: metricOf('DirectoryLookupHits') }),
        }),
        expect.objectContaining({
          Id: 'misses',
          MetricStat: expect.objectContaining({ Metric: metricOf('DirectoryLookupMisses') }),
        }),
      ]),
    );
  });

  test('the topic is encrypted with a rotated key CloudWatch may use, and refuses plain HTTP', () => {
    const resources = monitoring.resources();
    const keyArn = resources[topicId].Properties.KmsMasterKeyId;
    const key = resources[keyArn['Fn::GetAtt'][0]];
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(JSON.stringify(key.Properties.KeyPolicy)).toContain('cloudwatch.amazonaws.com');
    const [topicPolicy] = Object.values(monitoring.template.findResources('AWS::SNS::TopicPolicy')) as Json[];
    expect(topicPolicy.Properties.Topics).toEqual([{ Ref: topicId }]);
    expect(topicPolicy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    // The address the stage resolved (the tests pass the example's): its one subscription.
    monitoring.template.resourceCountIs('AWS::SNS::Subscription', synthed.stack.settings.alarms.email ? 1 : 0);
  });

  test('one dashboard: API, every function, the table, the queues, the deliveries, the alarms', () => {
    monitoring.template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    const [dashboard] = Object.values(monitoring.template.findResources('AWS::CloudWatch::Dashboard')) as Json[];
    expect(dashboard.Properties.DashboardName).toBe(`BrebMerchantApi-${stage}`);
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const title of [
      'API requests',
      'API latency (ms)',
      'API errors',
      'Function errors',
      'Function duration p99 (ms)',
      'DynamoDB consumed capacity',
      'DynamoDB throttled requests',
      'Queued messages',
      'Dead letters',
      'Webhook deliveries',
      'Stream iterator age (ms)',
      'Stranded work: oldest (s)',
      'Stranded work by age',
      'Due work a sweep read',
      'Alarms',
    ]) {
      expect(body).toContain(`\\"title\\":\\"${title}\\"`);
    }
    // Every function's parameter: the stage's reference to it.
    const drawn = [...body.matchAll(/\{"Ref":"(\w+)"\}/g)].map(([, parameter]) => fromStage({ Ref: parameter }));
    for (const [, fn] of allFunctions()) {
      expect(drawn).toContainEqual({ Ref: logicalIdOf(synthed, fn.function) });
    }
    synthed.template.hasOutput('DashboardUrl', {});
    // The topic's address, from the nested stack's output.
    const topicArn = synthed.template.findOutputs('AlarmTopicArn')['AlarmTopicArn']!.Value;
    expect(monitoring.outputOf(topicArn)).toEqual({ Ref: topicId });
  });
});

describe('who the alarms reach', () => {
  test.each(['staging', 'prod'] as const)('%s, which keeps its data, does not synthesize without someone', (stage) => {
    expect(() => synth(stage, { context: { alarmEmail: undefined } })).toThrow(
      /keeps its data, so its alarms must reach someone: .*-c alarmEmail=/,
    );
  });

  test('a stage that keeps nothing synthesizes without: its topic has no subscriber', () => {
    const synthed = synth('dev', { context: { alarmEmail: undefined } });
    nestedOf(synthed, synthed.stack.monitoring).template.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  test('the context value alarmEmail subscribes its address; a malformed one is refused', () => {
    const synthed = synth('prod', { context: { alarmEmail: 'guardia@pagos.example' } });
    nestedOf(synthed, synthed.stack.monitoring).template.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'guardia@pagos.example',
    });
    expect(() => synth('prod', { context: { alarmEmail: 'guardia' } })).toThrow(/not an e-mail address/);
  });

  test('an existing topic (alarmTopicArn) is enough, and every alarm publishes to it too', () => {
    const existing = 'arn:aws:sns:us-east-2:123456789012:oncall-pager';
    const synthed = synth('prod', { context: { alarmEmail: undefined, alarmTopicArn: existing } });
    const monitoring = nestedOf(synthed, synthed.stack.monitoring);
    const topicId = logicalIdOf(synthed, synthed.stack.monitoring.topic);
    const alarms = Object.values(monitoring.template.findResources('AWS::CloudWatch::Alarm')) as Json[];
    expect(alarms.length).toBeGreaterThan(10);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topicId }, existing]);
      expect(alarm.Properties.OKActions).toEqual([{ Ref: topicId }, existing]);
    }
    monitoring.template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(() => synth('prod', { context: { alarmTopicArn: 'oncall-pager' } })).toThrow(/not an SNS topic ARN/);
  });
});

test('an alarm e-mail in the stage settings subscribes to the topic', () => {
  const synthed = synth('prod', {
    context: { alarmEmail: undefined },
    settings: (s) => ({ ...s, alarms: { ...s.alarms, email: 'oncall@example.com' } }),
  });
  nestedOf(synthed, synthed.stack.monitoring).template.hasResourceProperties('AWS::SNS::Subscription', {
    Protocol: 'email',
    Endpoint: 'oncall@example.com',
    TopicArn: { Ref: logicalIdOf(synthed, synthed.stack.monitoring.topic) },
  });
});
