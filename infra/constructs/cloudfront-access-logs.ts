/**
 * The distribution's access logs without query strings or cookies: CloudFront's standard logging v2
 * (CloudWatch vended logs), which lets us choose the fields, in place of the legacy logs, which
 * always write the whole query string (a sign-in's `?code=` on /dashboard/, a list's NIT filter).
 *
 * CloudFront is global: its delivery source, and the destination and delivery that go with it, are
 * made in us-east-1 whatever the stage's region. The stage's stack has no region of its own (it is
 * environment-agnostic), so they are made by calls to CloudWatch Logs in us-east-1 at deploy time
 * (one small custom resource each), naming the distribution this stack creates; the files go to the
 * stage's log bucket, in its own region, under `cloudfront/`.
 */
import { Stack } from 'aws-cdk-lib';
import type { IDistribution } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import {
  AwsCustomResource,
  AwsCustomResourcePolicy,
  PhysicalResourceId,
  PhysicalResourceIdReference,
  type AwsSdkCall,
} from 'aws-cdk-lib/custom-resources';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';

/** Where CloudFront's vended logs are configured. */
export const VENDED_LOGS_REGION = 'us-east-1';

/** The bucket's prefix of the distribution's access logs. */
export const ACCESS_LOG_PREFIX = 'cloudfront/';

/**
 * The fields each request's line keeps, in the legacy logs' order: all of CloudFront's but the query
 * string (`cs-uri-query`), the cookies (`cs(Cookie)`) and field-level encryption's fields (unused).
 * The path, status, client address, user agent and timings stay: what an incident needs.
 */
export const ACCESS_LOG_FIELDS = [
  'date',
  'time',
  'x-edge-location',
  'sc-bytes',
  'c-ip',
  'cs-method',
  'cs(Host)',
  'cs-uri-stem',
  'sc-status',
  'cs(Referer)',
  'cs(User-Agent)',
  'x-edge-result-type',
  'x-edge-request-id',
  'x-host-header',
  'cs-protocol',
  'cs-bytes',
  'time-taken',
  'x-forwarded-for',
  'ssl-protocol',
  'ssl-cipher',
  'x-edge-response-result-type',
  'cs-protocol-version',
  'c-port',
  'time-to-first-byte',
  'x-edge-detailed-result-type',
  'sc-content-type',
  'sc-content-len',
  'sc-range-start',
  'sc-range-end',
] as const;

/** The fields no access log of ours may hold (test/infra/dashboard.suite.ts checks them absent). */
export const WITHHELD_ACCESS_LOG_FIELDS = ['cs-uri-query', 'cs(Cookie)', 'fle-encrypted-fields'] as const;

export interface CloudFrontAccessLogsProps {
  readonly distribution: IDistribution;
  readonly bucket: Bucket;
  /** The log group of the calls' function (CDK's, shared by the three). */
  readonly logGroup: ILogGroup;
  /** Names the delivery's source and destination, unique in the account's us-east-1. */
  readonly name: string;
}

export class CloudFrontAccessLogs extends Construct {
  /** The three calls' resources, in the order they are made: source, destination, delivery. */
  readonly source: AwsCustomResource;
  readonly destination: AwsCustomResource;
  readonly delivery: AwsCustomResource;

  constructor(scope: Construct, id: string, props: CloudFrontAccessLogsProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const { distribution, bucket, name, logGroup } = props;
    // The calls' function (a singleton CDK keeps in the stack) runs with this role: its rights are
    // the calls' and the writes to its own log group, no managed policy.
    const role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: "Sets up the distribution's access logs in us-east-1's CloudWatch Logs",
    });
    logGroup.grantWrite(role);
    const runsAs = { role, logGroup, installLatestAwsSdk: false } as const;
    const call = (action: string, parameters: Record<string, unknown>, physicalResourceId?: PhysicalResourceId) =>
      ({
        service: 'CloudWatchLogs',
        action,
        parameters,
        region: VENDED_LOGS_REGION,
        ...(physicalResourceId ? { physicalResourceId } : {}),
      }) satisfies AwsSdkCall;
    const deliveryArn = (kind: string) =>
      stack.formatArn({ service: 'logs', region: VENDED_LOGS_REGION, resource: kind, resourceName: '*' });
    const policy = (actions: string[], resources: string[]) =>
      AwsCustomResourcePolicy.fromStatements([new PolicyStatement({ actions, resources })]);

    const sourceName = `${name}-cloudfront`;
    this.source = new AwsCustomResource(this, 'Source', {
      onCreate: call(
        'putDeliverySource',
        { name: sourceName, resourceArn: distribution.distributionArn, logType: 'ACCESS_LOGS' },
        PhysicalResourceId.of(sourceName),
      ),
      onDelete: call('deleteDeliverySource', { name: sourceName }),
      policy: AwsCustomResourcePolicy.fromStatements([
        new PolicyStatement({
          actions: ['logs:PutDeliverySource', 'logs:DeleteDeliverySource'],
          resources: [deliveryArn('delivery-source')],
        }),
        // What CloudWatch Logs asks of the caller before it takes a CloudFront distribution's logs.
        new PolicyStatement({
          actions: ['cloudfront:AllowVendedLogDeliveryForResource'],
          resources: [distribution.distributionArn],
        }),
      ]),
      ...runsAs,
    });

    const destinationName = `${name}-cloudfront-s3`;
    this.destination = new AwsCustomResource(this, 'Destination', {
      onCreate: call(
        'putDeliveryDestination',
        {
          name: destinationName,
          outputFormat: 'w3c',
          deliveryDestinationConfiguration: { destinationResourceArn: bucket.arnForObjects(ACCESS_LOG_PREFIX) },
        },
        PhysicalResourceId.fromResponse('deliveryDestination.arn'),
      ),
      onDelete: call('deleteDeliveryDestination', { name: destinationName }),
      policy: policy(
        ['logs:PutDeliveryDestination', 'logs:DeleteDeliveryDestination'],
        [deliveryArn('delivery-destination')],
      ),
      ...runsAs,
    });

    const configuration = { recordFields: [...ACCESS_LOG_FIELDS], fieldDelimiter: ' ' };
    this.delivery = new AwsCustomResource(this, 'Delivery', {
      onCreate: call(
        'createDelivery',
        {
          deliverySourceName: sourceName,
          deliveryDestinationArn: this.destination.getResponseField('deliveryDestination.arn'),
          ...configuration,
        },
        PhysicalResourceId.fromResponse('delivery.id'),
      ),
      // A change of fields is made on the delivery in place: a second one between the same source
      // and destination would be refused.
      onUpdate: call('updateDeliveryConfiguration', { id: new PhysicalResourceIdReference(), ...configuration }),
      onDelete: call('deleteDelivery', { id: new PhysicalResourceIdReference() }),
      policy: policy(
        ['logs:CreateDelivery', 'logs:UpdateDeliveryConfiguration', 'logs:DeleteDelivery'],
        [deliveryArn('delivery'), deliveryArn('delivery-source'), deliveryArn('delivery-destination')],
      ),
      ...runsAs,
    });
    this.delivery.node.addDependency(this.source);

    // The log delivery service writes the files, for this account's deliveries alone.
    bucket.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('delivery.logs.amazonaws.com')],
        actions: ['s3:PutObject'],
        resources: [bucket.arnForObjects(`${ACCESS_LOG_PREFIX}*`)],
        conditions: {
          StringEquals: { 's3:x-amz-acl': 'bucket-owner-full-control', 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': deliveryArn('delivery-source') },
        },
      }),
    );

    NagSuppressions.addResourceSuppressions(
      this,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "CloudWatch Logs names deliveries by ids it chooses: the calls' rights cover this account's " +
            'us-east-1 delivery sources, destinations and deliveries, nothing else.',
        },
      ],
      true,
    );
  }
}
