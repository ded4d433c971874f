/**
 * The HTTP API's `$default` stage: deployed on every change, throttled to the stage's rate and
 * burst, and writing one JSON access-log line per request. The line is built from $context
 * variables only: no header (the Authorization header holds the bearer token), no body.
 */
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpStage, LogGroupLogDestination, type HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { removalPolicyOf, type StageSettings } from '../stages';

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
  }
}
