/**
 * The HTTP API's `$default` stage: deployed on every change, throttled to the stage's rate and
 * burst, and writing one JSON access-log line per request. The line is built from $context
 * variables only: no header (the Authorization header holds the bearer token), no body.
 */
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpStage, LogGroupLogDestination, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { FilterPattern, LogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { stageMetricsNamespace } from '../../shared/runtime/config';
import { removalPolicyOf, type StageSettings } from '../stages';

/**
 * The refusals counted from the access log, by status, with the metric each is counted in (the
 * stage's namespace): 401 (no token, a bad one), 403 (a scope or a resource not the caller's), 429
 * (the stage's throttling, a tenant's limit). A surge of one is an attack or a broken client
 * (monitoring.ts raises the alarms).
 */
export const REFUSAL_METRICS = { 401: 'ApiRefused401', 403: 'ApiRefused403', 429: 'ApiRefused429' } as const;

/**
 * The 401s of the network connector's routes (`/network/...`), counted apart in this metric: the bank
 * signs every request, so even a few are a key rotated on one side only or a forgery (monitoring.ts's
 * Network401Surge), where the clients' 401s are many and mostly expired tokens.
 */
export const NETWORK_401_METRIC = 'NetworkRefused401';

/** The access-log lines of a 401 answered on a `/network/` path (a JSON filter pattern; `*` ends the path). */
export const NETWORK_401_PATTERN = FilterPattern.all(
  FilterPattern.stringValue('$.status', '=', '401'),
  FilterPattern.stringValue('$.path', '=', '/network/*'),
);

/** Field name -> $context variable of an access-log line (HTTP API variables). */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTimeEpoch',
  routeKey: '$context.routeKey',
  method: '$context.httpMethod',
  path: '$context.path',
  protocol: '$context.protocol',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationError: '$context.integrationErrorMessage',
  errorMessage: '$context.error.message',
  authorizerError: '$context.authorizer.error',
  // The tenant: which platform called (a client id, not a person).
  clientId: '$context.authorizer.claims.client_id',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
};

export interface ApiStageProps {
  readonly api: HttpApi;
  readonly settings: StageSettings;
}

export class ApiStage extends Construct {
  readonly stage: HttpStage;
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ApiStageProps) {
    super(scope, id);
    const { api, settings } = props;

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: settings.logRetention,
      removalPolicy: removalPolicyOf(settings),
    });

    this.stage = new HttpStage(this, 'Default', {
      httpApi: api,
      // '$default' serves the API at the root of its URL (HttpStageOptions' default name).
      autoDeploy: true,
      throttle: { rateLimit: settings.throttling.rateLimit, burstLimit: settings.throttling.burstLimit },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
      },
    });

    for (const [status, metricName] of Object.entries(REFUSAL_METRICS)) {
      new MetricFilter(this, `Refused${status}`, {
        logGroup: this.accessLogs,
        // The line's fields are strings (ACCESS_LOG_FIELDS quotes every $context variable).
        filterPattern: FilterPattern.stringValue('$.status', '=', status),
        metricNamespace: stageMetricsNamespace(settings.name),
        metricName,
        metricValue: '1',
      });
    }
    new MetricFilter(this, 'NetworkRefused401', {
      logGroup: this.accessLogs,
      filterPattern: NETWORK_401_PATTERN,
      metricNamespace: stageMetricsNamespace(settings.name),
      metricName: NETWORK_401_METRIC,
      metricValue: '1',
    });
  }
}
