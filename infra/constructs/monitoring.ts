/**
 * Alarms and the dashboard of one stage. Every alarm notifies one SNS topic (optionally mailed to
 * the address of the stage settings); the dashboard shows the API, each function (routes and
 * workers), the table, the queues and the webhook deliveries.
 *
 * A nested stack of the stage's stack, deployed with it by the same `cdk deploy`: two alarms per
 * function make it one of the stage's largest parts (over a hundred resources), and CloudFormation
 * holds at most 500 resources per template. It takes each function's name as a parameter, so its
 * parameters (120 at most by test/infra/split.suite.ts) are what runs out first: some 47 more
 * functions. Past that, each route family's stack would hold its own functions' alarms.
 */
import { Duration, NestedStack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  DELIVERY_METRICS,
  LOOKUP_METRICS,
  RATE_LIMIT_UNAVAILABLE_METRIC,
  SETTLEMENT_BREAKS_METRIC,
  STRANDED_WORK_METRICS,
  NEGATIVE_BALANCES_METRIC,
  TRANSFERS_IN_REVIEW_METRIC,
} from '../../shared/observability/metric-names';
import { SERVICE_NAME, stageMetricsNamespace, type QueueName } from '../../shared/runtime/config';
import { removalPolicyOf, type StageSettings } from '../stages';
import { NETWORK_401_METRIC, REFUSAL_METRICS } from './api-stage';
import { connectorAlarms } from './connector-alarms';
import { sweeperAlarms, sweeperMetrics } from './sweeper-alarms';
import type { ServiceFunction } from './service-function';
import type { WorkerFunction } from './worker-function';

const PERIOD = Duration.minutes(5);

/**
 * Directory lookups (resolve-key, validate-key) that miss, in percent of them, past which a scan is
 * suspected: clients paying the keys people give them hit nearly always (docs/keys.md).
 */
export const SCANNING_MISS_PERCENT = 50;
/** The fewest lookups in five minutes whose share of misses means anything. */
export const SCANNING_MIN_LOOKUPS = 100;

/**
 * A stream consumer this far behind (its oldest record's age, in milliseconds) delays every webhook as
 * much. Still a minute though the mapping now retries a failing batch for hours: the age is the first
 * sign of those retries, long before the batch is given up to the re-drive.
 */
export const ITERATOR_AGE_ALARM_MS = 60_000;

/**
 * The sum of a metric of ours over every route and status class it is published with (a metric of a
 * request always is: shared/http/observability.ts): a Metrics Insights query, which an alarm may watch.
 */
export const requestMetricQuery = (namespace: string, metricName: string): string =>
  `SELECT SUM(${metricName}) FROM SCHEMA("${namespace}", route, service, status) ` +
  `WHERE service = '${SERVICE_NAME}'`;

/** The operations our routes perform (transactions included): the table's throttles are their sum. */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.BATCH_GET_ITEM,
  Operation.QUERY,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.BATCH_WRITE_ITEM,
  Operation.TRANSACT_WRITE_ITEMS,
  Operation.TRANSACT_GET_ITEMS,
];

export interface MonitoringProps {
  readonly settings: StageSettings;
  readonly api: HttpApi;
  /** Every function, routes' and workers', by name. */
  readonly functions: ReadonlyMap<string, ServiceFunction>;
  readonly workers: ReadonlyMap<string, WorkerFunction>;
  readonly queues: Readonly<Record<QueueName, IQueue>>;
  /** Every dead-letter queue, by the name of what it sets aside. */
  readonly deadLetterQueues: ReadonlyMap<string, IQueue>;
  readonly table: ITable;
}

export class Monitoring extends NestedStack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly dashboardUrl: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id, { description: `Bre-B merchant API alarms and dashboard (${props.settings.name})` });
    const { settings, api, functions, deadLetterQueues, table } = props;
    const streamConsumers = [...props.workers.values()].filter((worker) => 'stream' in worker.worker.source);
    const prefix = `BrebMerchantApi-${settings.name}`;
    // The stage's own metrics: its functions publish them under this namespace (service-function.ts).
    const namespace = stageMetricsNamespace(settings.name);

    this.topic = this.createTopic(settings);
    // The stage's topic, and the existing one that already reaches someone, when the stage names one.
    const reached: ITopic[] = [
      this.topic,
      ...(settings.alarms.topicArn ? [Topic.fromTopicArn(this, 'ExistingAlarmTopic', settings.alarms.topicArn)] : []),
    ];
    const alarm = (alarmId: string, description: string, options: AlarmOptions): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmName: `${prefix}-${alarmId}`,
        alarmDescription: description,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No traffic is not an incident.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...options,
      });
      for (const topic of reached) {
        created.addAlarmAction(new SnsAction(topic));
        created.addOkAction(new SnsAction(topic));
      }
      this.alarms.push(created);
      return created;
    };

    // The API
    const requests = api.metricCount({ period: PERIOD, statistic: 'Sum' });
    const serverErrors = api.metricServerError({ period: PERIOD, statistic: 'Sum' });
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * FILL(errors, 0) / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: PERIOD,
      label: '5xx rate (%)',
    });
    const latencyP99 = api.metricLatency({ period: PERIOD, statistic: 'p99' });
    // Surges of refusals, counted from the access log (api-stage.ts): a token or scope scan, a flood
    // reaching the stage, a tenant hammering past its limit.
    for (const [status, metricName] of Object.entries(REFUSAL_METRICS)) {
      alarm(`Api${status}Surge`, `${settings.alarms.refusalsPer5Minutes} or more ${status} answers in 5 minutes`, {
        metric: new Metric({ namespace, metricName, period: PERIOD, statistic: 'Sum' }),
        threshold: settings.alarms.refusalsPer5Minutes,
        evaluationPeriods: 1,
      });
    }
    // The bank's requests refused for their signature: its key or ours rotated on one side only (every
    // credit and callback refused until it is fixed), or someone forging the bank (network.md).
    alarm(
      'Network401Surge',
      `${settings.alarms.network401Per5Minutes} or more 401 answers on /network/ routes in 5 minutes (network.md: signatures)`,
      {
        metric: new Metric({ namespace, metricName: NETWORK_401_METRIC, period: PERIOD, statistic: 'Sum' }),
        threshold: settings.alarms.network401Per5Minutes,
        evaluationPeriods: 1,
      },
    );
    alarm('Api5xxRate', `More than ${settings.alarms.serverErrorRatePercent}% of API answers are 5xx`, {
      metric: serverErrorRate,
      threshold: settings.alarms.serverErrorRatePercent,
      evaluationPeriods: 1,
    });
    alarm('ApiLatencyP99', `API p99 latency above ${settings.alarms.latencyP99Ms} ms`, {
      metric: latencyP99,
      threshold: settings.alarms.latencyP99Ms,
      // A single slow window (a burst of cold starts) is not worth a page.
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
    });

    // Each function
    for (const [name, fn] of functions) {
      alarm(`${name}-Errors`, `${name}: invocations failed (unhandled errors, timeouts)`, {
        metric: fn.function.metricErrors({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
      });
      alarm(`${name}-Throttles`, `${name}: invocations throttled (concurrency limit)`, {
        metric: fn.function.metricThrottles({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
      });
    }

    // The later work: what was set aside, what was given up, what falls behind
    for (const [name, queue] of deadLetterQueues) {
      alarm(
        `${name}-DeadLetters`,
        `${name}: messages set aside in its dead-letter queue (operations.md: dead letters)`,
        {
          metric: queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          threshold: 1,
          evaluationPeriods: 1,
        },
      );
    }
    // Lambda writes here only after retrying a batch for STREAM_MAX_RECORD_AGE_SECONDS: the re-drive
    // dispatches it, but an outage that long is worth knowing of.
    alarm(
      'StreamBatchesGivenUp',
      'The dispatcher gave up stream batches after hours of retries (operations.md: stream re-drive)',
      {
        metric: props.queues.streamFailures.metricNumberOfMessagesSent({ period: PERIOD, statistic: 'Sum' }),
        threshold: 1,
        evaluationPeriods: 1,
      },
    );
    for (const worker of streamConsumers) {
      const name = worker.node.id;
      alarm(`${name}-IteratorAge`, `${name}: the stream's oldest unhandled record is over a minute old`, {
        metric: iteratorAge(worker),
        threshold: ITERATOR_AGE_ALARM_MS,
        evaluationPeriods: 1,
      });
    }
    const deliveries = deliveryMetrics(namespace);
    alarm('WebhookDeliveriesFailed', 'Webhook deliveries given up (every attempt failed, or the webhook is gone)', {
      metric: deliveries.FAILED,
      threshold: 1,
      evaluationPeriods: 1,
    });
    // Published at each restart of a transfer in review (every few minutes): raised while one waits for
    // its operator, back to OK once none is restarted for 5 minutes; a new one raises it again.
    const { inReview } = serviceMetrics(namespace, { inReview: TRANSFERS_IN_REVIEW_METRIC });
    alarm(
      'TransfersInReview',
      'Transfers the network has not answered for an hour wait for an operator (network.md: review)',
      {
        metric: inReview,
        threshold: 1,
        evaluationPeriods: 1,
      },
    );
    // Published by each run that completes a day's settlement file: raised when one found a break
    // (a client's or an account of none of ours), for the operators to look at with the bank.
    const { settlementBreaks } = serviceMetrics(namespace, { settlementBreaks: SETTLEMENT_BREAKS_METRIC });
    alarm(
      'SettlementBreaks',
      "The sponsor bank's settlement file and our ledger disagree (reconciliation.md: against the bank)",
      { metric: settlementBreaks, threshold: 1, evaluationPeriods: 1 },
    );
    // Published by the reversal route when a reversal leaves an account below zero: the money must be
    // recovered from the merchant. An event, not a level: the alarm ends 5 minutes after the last one.
    const { negative } = serviceMetrics(namespace, { negative: NEGATIVE_BALANCES_METRIC });
    alarm('NegativeBalances', "A reversal took a merchant's account below zero (network.md: reversals)", {
      metric: negative,
      threshold: 1,
      evaluationPeriods: 1,
    });
    const strandedAge = strandedWorkAge(namespace);
    // Stuck work counted by age, and the index's depth (sweeper-alarms.ts).
    for (const [alarmId, { description, options }] of Object.entries(sweeperAlarms(namespace))) {
      alarm(alarmId, description, options);
    }
    // The sweeper runs every minute: no invocation in 5 minutes means its schedule or function is gone,
    // and stranded work would then raise nothing (no data). Here no data is the incident.
    const sweeper = props.workers.get(SWEEPER_WORKER);
    if (!sweeper) throw new Error(`The stage has no ${SWEEPER_WORKER} worker to watch`);
    alarm('SweeperStopped', 'The sweeper of stranded work ran not once in 5 minutes (operations.md: sweeper stopped)', {
      metric: sweeper.function.metricInvocations({ period: PERIOD, statistic: 'Sum' }),
      comparisonOperator: ComparisonOperator.LESS_THAN_THRESHOLD,
      threshold: 1,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.BREACHING,
    });
    alarm('TenantRateLimitUnavailable', "Requests let through without their tenant's rate limit (counter unwritable)", {
      metric: new MathExpression({
        expression: requestMetricQuery(namespace, RATE_LIMIT_UNAVAILABLE_METRIC),
        period: PERIOD,
        label: 'Requests let through',
      }),
      threshold: 1,
      evaluationPeriods: 1,
    });
    const lookups = serviceMetrics(namespace, LOOKUP_METRICS);
    alarm(
      'DirectoryScanning',
      `At least ${SCANNING_MISS_PERCENT}% of ${SCANNING_MIN_LOOKUPS} or more directory lookups missed: a client may be scanning the key directory (keys.md: Anti-scanning)`,
      {
        metric: new MathExpression({
          // Fewer lookups than that are no sign: a client's typo in a quiet hour is not a scan.
          expression: `IF(FILL(hits, 0) + FILL(misses, 0) >= ${SCANNING_MIN_LOOKUPS}, 100 * FILL(misses, 0) / (FILL(hits, 0) + FILL(misses, 0)), 0)`,
          usingMetrics: { hits: lookups.hits, misses: lookups.misses },
          period: PERIOD,
          label: 'Lookups that missed (%)',
        }),
        threshold: SCANNING_MISS_PERCENT,
        evaluationPeriods: 1,
      },
    );

    // The sponsor bank's connector, on the stages that send it our transfers.
    if (settings.network.kind === 'connector') {
      for (const [alarmId, { description, options }] of Object.entries(connectorAlarms(namespace))) {
        alarm(alarmId, description, options);
      }
    }

    // The table
    const tableThrottles = table.metricThrottledRequestsForOperations({
      operations: TABLE_OPERATIONS,
      period: PERIOD,
      label: 'Throttled requests',
    });
    alarm('TableThrottles', 'DynamoDB throttled requests (table or index over its limits)', {
      metric: tableThrottles,
      threshold: 1,
      evaluationPeriods: 1,
    });

    this.dashboard = this.createDashboard(prefix, {
      api,
      functions,
      streamConsumers,
      queues: props.queues,
      deadLetterQueues,
      table,
      tableThrottles,
      deliveries,
      strandedAge,
      sweeper: sweeperMetrics(namespace),
    });

    const { region } = this;
    this.dashboardUrl = `https://${region}.console.aws.amazon.com/cloudwatch/home?region=${region}#dashboards:name=${prefix}`;
  }

  /**
   * SNS encrypts with a key of our own: CloudWatch cannot publish to a topic under the AWS-managed
   * SNS key, whose policy cannot be changed to let it in.
   */
  private createTopic(settings: StageSettings): Topic {
    const key = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the alarm topic of the Bre-B merchant API (${settings.name})`,
      enableKeyRotation: true,
      removalPolicy: removalPolicyOf(settings),
    });
    key.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    const topic = new Topic(this, 'AlarmTopic', {
      displayName: `Bre-B merchant API alarms (${settings.name})`,
      masterKey: key,
      enforceSSL: true,
    });
    if (settings.alarms.email) topic.addSubscription(new EmailSubscription(settings.alarms.email));
    return topic;
  }

  private createDashboard(name: string, sources: DashboardSources): Dashboard {
    const {
      api,
      functions,
      streamConsumers,
      queues,
      deadLetterQueues,
      table,
      tableThrottles,
      deliveries,
      strandedAge,
      sweeper,
    } = sources;
    const sum = { period: PERIOD, statistic: 'Sum' };
    const perFunction = (metric: (fn: ServiceFunction) => IMetric): IMetric[] => [...functions.values()].map(metric);
    const visible = (queue: IQueue, label: string) =>
      queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum', label });
    const dashboard = new Dashboard(this, 'Dashboard', { dashboardName: name, defaultInterval: Duration.hours(3) });
    dashboard.addWidgets(
      new GraphWidget({ title: 'API requests', left: [api.metricCount({ ...sum, label: 'Requests' })], width: 8 }),
      new GraphWidget({
        title: 'API latency (ms)',
        left: ['p50', 'p99'].map((statistic) => api.metricLatency({ period: PERIOD, statistic, label: statistic })),
        width: 8,
      }),
      new GraphWidget({
        title: 'API errors',
        left: [api.metricServerError({ ...sum, label: '5xx' }), api.metricClientError({ ...sum, label: '4xx' })],
        width: 8,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Function errors',
        left: perFunction((fn) => fn.function.metricErrors({ ...sum, label: fn.node.id })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function duration p99 (ms)',
        left: perFunction((fn) => fn.function.metricDuration({ period: PERIOD, statistic: 'p99', label: fn.node.id })),
        width: 12,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'DynamoDB consumed capacity',
        left: [
          table.metricConsumedReadCapacityUnits({ ...sum, label: 'Read units' }),
          table.metricConsumedWriteCapacityUnits({ ...sum, label: 'Write units' }),
        ],
        width: 12,
      }),
      new GraphWidget({ title: 'DynamoDB throttled requests', left: [tableThrottles], width: 12 }),
    );
    dashboard.addWidgets(
      new GraphWidget({
        title: 'Queued messages',
        left: Object.entries(queues).map(([name, queue]) => visible(queue, name)),
        width: 6,
      }),
      new GraphWidget({
        title: 'Dead letters',
        left: [...deadLetterQueues].map(([name, queue]) => visible(queue, name)),
        width: 6,
      }),
      new GraphWidget({
        title: 'Webhook deliveries',
        left: Object.values(deliveries),
        width: 6,
      }),
      new GraphWidget({
        title: 'Stream iterator age (ms)',
        left: streamConsumers.map((worker) => iteratorAge(worker).with({ label: worker.node.id })),
        width: 6,
      }),
    );
    dashboard.addWidgets(
      new GraphWidget({ title: 'Stranded work: oldest (s)', left: [strandedAge], width: 8 }),
      new GraphWidget({ title: 'Stranded work by age', left: sweeper.byAge, width: 8 }),
      new GraphWidget({ title: 'Due work a sweep read', left: [sweeper.depth], width: 8 }),
    );
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }));
    return dashboard;
  }
}

/**
 * How far behind a stream consumer is: how old the last record of a batch was when Lambda read it,
 * the most of each 5 minutes.
 */
/** The worker whose schedule restarts stranded work (functions/workers.ts). */
const SWEEPER_WORKER = 'sweepStrandedWork';

const iteratorAge = (worker: WorkerFunction): Metric =>
  worker.function.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' });

/** The sender's counts of attempts by result, summed over 5 minutes (published with `service` alone). */
/** Sums of metrics published with the service dimension alone, by their names (shared/observability/metric-names.ts). */
const serviceMetrics = <Names extends Record<string, string>>(
  namespace: string,
  names: Names,
): Record<keyof Names, Metric> =>
  Object.fromEntries(
    Object.entries(names).map(([key, metricName]) => [
      key,
      new Metric({ namespace, metricName, dimensionsMap: { service: SERVICE_NAME }, period: PERIOD, statistic: 'Sum' }),
    ]),
  ) as Record<keyof Names, Metric>;

const deliveryMetrics = (namespace: string): Record<keyof typeof DELIVERY_METRICS, Metric> => {
  const metric = (metricName: string, label: string) =>
    new Metric({
      namespace,
      metricName,
      dimensionsMap: { service: SERVICE_NAME },
      period: PERIOD,
      statistic: 'Sum',
      label,
    });
  return {
    SUCCEEDED: metric(DELIVERY_METRICS.SUCCEEDED, 'Delivered'),
    FAILED: metric(DELIVERY_METRICS.FAILED, 'Given up'),
    RETRYING: metric(DELIVERY_METRICS.RETRYING, 'Attempts failed, retry to come'),
  };
};

/** The sweeper's age of the oldest stranded item it found, the most of 5 minutes (service dimension alone). */
const strandedWorkAge = (namespace: string): Metric =>
  new Metric({
    namespace,
    metricName: STRANDED_WORK_METRICS.OLDEST_AGE,
    dimensionsMap: { service: SERVICE_NAME },
    period: PERIOD,
    statistic: 'Maximum',
    label: 'Oldest stranded work (s)',
  });

type DashboardSources = Pick<MonitoringProps, 'api' | 'functions' | 'queues' | 'deadLetterQueues' | 'table'> & {
  readonly streamConsumers: readonly WorkerFunction[];
  readonly tableThrottles: IMetric;
  /** The sender's counts of attempts by result. */
  readonly deliveries: ReturnType<typeof deliveryMetrics>;
  /** The sweeper's oldest stranded item. */
  readonly strandedAge: IMetric;
  /** The sweeper's counts of restarted work by age, and of due items read. */
  readonly sweeper: ReturnType<typeof sweeperMetrics>;
};

type AlarmOptions = Pick<
  ConstructorParameters<typeof Alarm>[2],
  'metric' | 'threshold' | 'evaluationPeriods' | 'datapointsToAlarm' | 'comparisonOperator' | 'treatMissingData'
>;
