/**
 * The API's $default stage: throttled to the stage settings, with JSON access logs built from
 * $context variables only (never a header: the Authorization header is the bearer token).
 */
import { stages, type StageName } from '../../infra/stages';
import { logicalIdOf, synth, type Json, type Synth } from './synth';

describe.each(Object.keys(stages) as StageName[])('API stage, stage %s', (stage) => {
  const settings = stages[stage];
  let synthed: Synth;
  let properties: Json;
  beforeAll(() => {
    synthed = synth(stage);
    synthed.template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    properties = (Object.values(synthed.template.findResources('AWS::ApiGatewayV2::Stage')) as Json[])[0].Properties;
  });

  test('the $default stage deploys every change and throttles to the stage settings', () => {
    expect(properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: {
        ThrottlingRateLimit: settings.throttling.rateLimit,
        ThrottlingBurstLimit: settings.throttling.burstLimit,
      },
    });
  });

  test('access logs go to their own log group, kept as the stage says', () => {
    const logGroupId = logicalIdOf(synthed, synthed.stack.apiStage.accessLogs);
    expect(properties.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
    const logGroup = synthed.template.toJSON().Resources[logGroupId];
    expect(logGroup.Properties.RetentionInDays).toBe(settings.logRetention);
    expect(logGroup.DeletionPolicy).toBe(settings.retainData ? 'Retain' : 'Delete');
  });

  test('an access-log line is JSON of $context variables, never a header', () => {
    const format: Record<string, string> = JSON.parse(properties.AccessLogSettings.Format);
    expect(format).toMatchObject({
      requestId: '$context.requestId',
      routeKey: '$context.routeKey',
      status: '$context.status',
      responseLatency: '$context.responseLatency',
      integrationLatency: '$context.integrationLatency',
      ip: '$context.identity.sourceIp',
      userAgent: '$context.identity.userAgent',
      authorizerError: '$context.authorizer.error',
      integrationError: '$context.integrationErrorMessage',
    });
    for (const variable of Object.values(format)) {
      expect(variable).toMatch(/^\$context\.[A-Za-z_.]+$/);
      expect(variable.toLowerCase()).not.toMatch(/header|authorization|body/);
    }
  });
});
