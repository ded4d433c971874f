/**
 * The stage's edge stack, deployed to us-east-1 (where CloudFront takes its web ACLs): the WAF web
 * ACL the stage's distribution is associated with, and an alarm on what it blocks. The stage's stack
 * takes the web ACL's ARN from its edge settings (infra/edge.ts): it is deployed first, once, and
 * rarely changes (docs/operations.md, "The edge").
 *
 * Its rules, in order: AWS's IP reputation list (known bots and attackers), a per-IP rate limit
 * (a flood from a few addresses), and requests to the API's paths without an Authorization header
 * (refused here, they never reach the API's stage throttling, which every tenant shares).
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { routes as routeTable, type RouteDefinition } from '../functions/routes';
import {
  BEARER_JWT_PATTERN,
  EDGE_REFUSALS,
  edgeProblem,
  protectedPaths,
  type EdgeRefusal,
  type ProtectedPath,
} from './edge-rules';
import { ALARM_EMAIL_CONTEXT, ALARM_TOPIC_CONTEXT, removalPolicyOf, resolveAlarms, type StageSettings } from './stages';

/** CloudFront's web ACLs live in this region only. */
export const EDGE_REGION = 'us-east-1';

/** The rules' names, which are also their CloudWatch metric names. */
export const EDGE_RULES = {
  ipReputation: 'IpReputation',
  perIpRate: 'PerIpRate',
  tokenless: 'TokenlessApi',
} as const;

/** WAF evaluates a rate-based rule over this window; the stage's limit is per window. */
const RATE_WINDOW_SECONDS = 300;

/** Blocked requests in 5 minutes that raise the edge's alarm: a flood under way. */
export const EDGE_BLOCKED_ALARM_THRESHOLD = 10_000;

export interface BrebEdgeStackProps extends StackProps {
  readonly settings: StageSettings;
  /** The routes the API serves: those behind the authorizer need a token at the edge. */
  readonly routes?: readonly RouteDefinition[];
}

const visibility = (metricName: string): CfnWebACL.VisibilityConfigProperty => ({
  metricName,
  cloudWatchMetricsEnabled: true,
  sampledRequestsEnabled: true,
});

/** The block answer of a refusal: its status, headers and problem body, as the API would answer it. */
const blockWith = (refusal: EdgeRefusal): CfnWebACL.RuleActionProperty => ({
  block: {
    customResponse: {
      responseCode: EDGE_REFUSALS[refusal].status,
      customResponseBodyKey: refusal,
      responseHeaders: Object.entries(EDGE_REFUSALS[refusal].headers).map(([name, value]) => ({ name, value })),
    },
  },
});

/** Matches the request's path against one protected path, after the decoding a client could use to hide it. */
function pathStatement(rule: ProtectedPath): CfnWebACL.StatementProperty {
  return {
    byteMatchStatement: {
      fieldToMatch: { uriPath: {} },
      positionalConstraint: 'prefix' in rule ? 'STARTS_WITH' : 'EXACTLY',
      searchString: 'prefix' in rule ? rule.prefix : rule.exact,
      textTransformations: [
        { priority: 0, type: 'URL_DECODE' },
        { priority: 1, type: 'NORMALIZE_PATH' },
        { priority: 2, type: 'LOWERCASE' },
      ],
    },
  };
}

/**
 * A request to one of the API's protected paths whose Authorization header has no token's shape
 * (BEARER_JWT_PATTERN): none, an empty one, or `Authorization: x`, which would otherwise reach the
 * stage's throttle and spend the bucket every tenant shares.
 */
export function tokenlessStatement(routes: readonly Pick<RouteDefinition, 'paths'>[]): CfnWebACL.StatementProperty {
  const paths = protectedPaths(routes).map(pathStatement);
  const onApi = paths.length === 1 ? paths[0]! : { orStatement: { statements: paths } };
  const withToken: CfnWebACL.StatementProperty = {
    regexMatchStatement: {
      fieldToMatch: { singleHeader: { Name: 'authorization' } },
      regexString: BEARER_JWT_PATTERN,
      textTransformations: [{ priority: 0, type: 'NONE' }],
    },
  };
  return { andStatement: { statements: [onApi, { notStatement: { statement: withToken } }] } };
}

export class BrebEdgeStack extends Stack {
  readonly webAcl: CfnWebACL;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: BrebEdgeStackProps) {
    super(scope, id, { ...props, env: { ...props.env, region: EDGE_REGION } });
    // Its one alarm (in us-east-1) reaches the stage's e-mail: an alarm's SNS action must be in its own
    // region, so a stage's existing topic (alarmTopicArn) is for the stage's own alarms.
    const settings = resolveAlarms(
      props.settings,
      this.node.tryGetContext(ALARM_EMAIL_CONTEXT),
      this.node.tryGetContext(ALARM_TOPIC_CONTEXT),
    );
    const routes = (props.routes ?? routeTable).filter((route) => !route.sandbox || settings.sandboxEnabled);
    const name = `breb-merchant-api-${settings.name}`;

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      name,
      // WAF's pattern for descriptions takes no parentheses (CloudFormation's validation in cdk synth).
      description: `The edge of the Bre-B merchant API and dashboard, stage ${settings.name}`,
      scope: 'CLOUDFRONT',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: Object.fromEntries(
        (Object.keys(EDGE_REFUSALS) as EdgeRefusal[]).map((refusal) => [
          refusal,
          { contentType: 'APPLICATION_JSON', content: JSON.stringify(edgeProblem(refusal, 'edge')) },
        ]),
      ),
      rules: [
        {
          name: EDGE_RULES.ipReputation,
          priority: 0,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
          },
          visibilityConfig: visibility(EDGE_RULES.ipReputation),
        },
        {
          name: EDGE_RULES.perIpRate,
          priority: 1,
          action: blockWith('perIpRate'),
          statement: {
            rateBasedStatement: {
              limit: settings.edge.requestsPerIpPer5Minutes,
              aggregateKeyType: 'IP',
              evaluationWindowSec: RATE_WINDOW_SECONDS,
            },
          },
          visibilityConfig: visibility(EDGE_RULES.perIpRate),
        },
        {
          name: EDGE_RULES.tokenless,
          priority: 2,
          action: blockWith('tokenless'),
          statement: tokenlessStatement(routes),
          visibilityConfig: visibility(EDGE_RULES.tokenless),
        },
      ],
    });

    // As the stage's alarm topic (monitoring.ts): encrypted under a key CloudWatch may use.
    const topicKey = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the edge alarm topic of the Bre-B merchant API (${settings.name})`,
      enableKeyRotation: true,
      removalPolicy: removalPolicyOf(settings),
    });
    topicKey.grant(new ServicePrincipal('cloudwatch.amazonaws.com'), 'kms:Decrypt', 'kms:GenerateDataKey*');
    this.topic = new Topic(this, 'Alarms', {
      displayName: `Bre-B merchant API edge alarms (${settings.name})`,
      masterKey: topicKey,
      enforceSSL: true,
    });
    if (settings.alarms.email) this.topic.addSubscription(new EmailSubscription(settings.alarms.email));
    const blocked = new Alarm(this, 'BlockedSurge', {
      alarmName: `BrebMerchantApi-${settings.name}-EdgeBlockedSurge`,
      alarmDescription: `The edge blocked ${EDGE_BLOCKED_ALARM_THRESHOLD} requests or more in 5 minutes: a flood under way`,
      metric: new Metric({
        namespace: 'AWS/WAFV2',
        metricName: 'BlockedRequests',
        dimensionsMap: { WebACL: name, Rule: 'ALL' },
        statistic: 'Sum',
        period: Duration.minutes(5),
      }),
      threshold: EDGE_BLOCKED_ALARM_THRESHOLD,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    blocked.addAlarmAction(new SnsAction(this.topic));

    new CfnOutput(this, 'WebAclArn', {
      value: this.webAcl.attrArn,
      description: `The stage's edge settings take it as webAclArn (cdk.context.json, "edge" → "${settings.name}")`,
    });
  }
}
