/**
 * Alarms and the dashboard of one stage. Every alarm notifies one SNS topic (optionally mailed to
 * the address of the stage settings); the dashboard shows the API, each function and the table.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Operation, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { removalPolicyOf, type StageSettings } from '../stages';
import type { ApiFunction } from './api-function';

const PERIOD = Duration.minutes(5);

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
  readonly functions: ReadonlyMap<string, ApiFunction>;
  readonly table: ITable;
}

export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;
  readonly dashboardUrl: string;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings, api, functions, table } = props;
    const prefix = `BrebMerchantApi-${settings.name}`;

    this.topic = this.createTopic(settings);
    const alarm = (alarmId: string, description: string, options: AlarmOptions): Alarm => {
      const created = new Alarm(this, alarmId, {
        alarmName: `${prefix}-${alarmId}`,
        alarmDescription: description,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        // No traffic is not an incident.
        treatMissingData: TreatMissingData.NOT_BREACHING,
        ...options,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      created.addOkAction(new SnsAction(this.topic));
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

    this.dashboard = this.createDashboard(prefix, { api, functions, table, tableThrottles });

    const region = Stack.of(this).region;
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
    const { api, functions, table, tableThrottles } = sources;
    const sum = { period: PERIOD, statistic: 'Sum' };
    const perFunction = (metric: (fn: ApiFunction) => IMetric): IMetric[] => [...functions.values()].map(metric);
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
    dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24 }));
    return dashboard;
  }
}

interface DashboardSources {
  readonly api: HttpApi;
  readonly functions: ReadonlyMap<string, ApiFunction>;
  readonly table: ITable;
  readonly tableThrottles: IMetric;
}

type AlarmOptions = Pick<
  ConstructorParameters<typeof Alarm>[2],
  'metric' | 'threshold' | 'evaluationPeriods' | 'datapointsToAlarm'
>;
