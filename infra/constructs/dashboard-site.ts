/**
 * The merchant dashboard on AWS: its files in a private S3 bucket, read by CloudFront alone (origin
 * access control), and the API behind the same distribution, so the page calls its own origin (no
 * CORS to open). CloudFront answers /dashboard/ from S3 with the page's security headers, and the
 * API's paths from the HTTP API, uncached, with every header but Host (the Authorization header
 * included). Access logs of both go to a log bucket kept as long as the stage keeps its logs. The
 * people's app client (in the stage's user pool) returns to the dashboard's address.
 *
 * A nested stack of the stage's stack, deployed with it by the same `cdk deploy`: the stage's stack
 * holds close to CloudFormation's 500 resources (a function per route, each with its role, policy,
 * log group, permission, integration, routes and alarms), and the dashboard's ~20 would leave no room
 * for the next routes.
 */
import { Duration, NestedStack, Stack } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  type IOrigin,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import type { DashboardConfig } from '../../dashboard/src/config';
import type { RouteDefinition } from '../../functions/routes';
import { DASHBOARD_PATH } from '../local/people';
import { dashboardContentSecurityPolicy } from '../dashboard-policy';
import { DASHBOARD_ASSETS_DIR } from '../paths';
import { removalPolicyOf, type CognitoIdentitySettings, type EdgeSettings, type StageSettings } from '../stages';
import { CloudFrontAccessLogs } from './cloudfront-access-logs';
import type { Identity } from './identity';
import { SERVICE_NAME } from './service-function';

/**
 * The distribution's path patterns that go to the API: one per first segment of the routes' paths
 * (`/v1/*`, `/sandbox/*`), or the path itself when it has no other (`/accounts`, which the contract
 * serves without a version).
 */
export function apiPathPatterns(routes: readonly Pick<RouteDefinition, 'paths'>[]): string[] {
  const patterns = routes.flatMap((route) =>
    route.paths.map((path) => {
      const segments = path.split('/').filter(Boolean);
      return segments.length > 1 ? `/${segments[0]}/*` : path;
    }),
  );
  return [...new Set(patterns)].sort();
}

/**
 * The hosted sign-in's origin, from the stage's Cognito domain: what the page fetches its token
 * from (the Identity construct's domain serves it).
 */
export const signInOriginOf = (identity: CognitoIdentitySettings, stack: Stack): string =>
  `https://${identity.domainPrefix}.auth.${stack.region}.amazoncognito.com`;

/**
 * What every behaviour answers with, the page's and the API's alike: no other site's window keeps a
 * reference to ours (COOP), no browser feature the dashboard does not use, no MIME sniffing.
 */
export const CROSS_ORIGIN_OPENER_POLICY = 'same-origin';
export const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), ' +
  'clipboard-read=(), display-capture=()';
/**
 * The API's answers are never stored: the functions say so on theirs, and this says it on the answers
 * API Gateway writes itself (the authorizer's 401 and 403, the stage's 429), which carry no
 * Cache-Control. Not overridden: an answer that says otherwise (the public description) keeps its own.
 */
export const API_CACHE_CONTROL = { header: 'Cache-Control', value: 'no-store', override: false };

const SHARED_CUSTOM_HEADERS = [
  { header: 'Cross-Origin-Opener-Policy', value: CROSS_ORIGIN_OPENER_POLICY, override: true },
  { header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true },
];

/**
 * `/` and `/dashboard` go to `/dashboard/`; a path ending in `/` is its folder's index.html (S3 has
 * no folder pages). CloudFront Functions' own runtime: plain JavaScript, run at the edge.
 */
const INDEX_FUNCTION = `async function handler(event) {
  var request = event.request;
  if (request.uri === '/' || request.uri === '${DASHBOARD_PATH.slice(0, -1)}') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '${DASHBOARD_PATH}' } } };
  }
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`;

/**
 * The answer of the paths the distribution refuses (the network's, where the bank has a domain of its
 * own): 403, from the edge, the origin never asked. CloudFront Functions' own runtime.
 */
export const REFUSE_FUNCTION = `async function handler(event) {
  return { statusCode: 403, statusDescription: 'Forbidden', headers: { 'cache-control': { value: 'no-store' } } };
}`;

export interface DashboardSiteProps {
  readonly settings: StageSettings;
  /** The stage's Cognito settings: the hosted sign-in's domain. */
  readonly cognito: CognitoIdentitySettings;
  /** Who signs people in: the stage's user pool, which gets the dashboard's app client. */
  readonly identity: Identity;
  /** The API the distribution puts behind the dashboard, and the routes whose paths go to it. */
  readonly api: HttpApi;
  readonly routes: readonly Pick<RouteDefinition, 'paths'>[];
  /**
   * Routes the distribution answers 403 on, never reaching the API: those served on a domain of their
   * own (the network's, with mutual TLS).
   */
  readonly refusedRoutes?: readonly Pick<RouteDefinition, 'paths'>[];
  /**
   * The stage's edge (infra/edge.ts): the distribution answers under its name with its certificate,
   * behind its web ACL, and reaches the API through the API's custom domain (execute-api is off).
   * Without one, the distribution's own name and the API's execute-api endpoint.
   */
  readonly edge?: EdgeSettings;
}

export class DashboardSite extends NestedStack {
  readonly bucket: Bucket;
  readonly logBucket: Bucket;
  readonly distribution: Distribution;
  /** https://<distribution>/dashboard/: where people open the dashboard and where sign-in returns. */
  readonly url: string;
  /** The people's app client: public, code flow with PKCE, back to `url` only. */
  readonly client: UserPoolClient;
  readonly publication: BucketDeployment;
  private readonly settings: StageSettings;
  private readonly assetsOrigin: IOrigin;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id, { description: `Bre-B merchant dashboard (${props.settings.name})` });
    const { settings, identity } = props;
    this.settings = settings;
    const kept = { removalPolicy: removalPolicyOf(settings), autoDeleteObjects: !settings.retainData };

    this.logBucket = new Bucket(this, 'Logs', {
      ...kept,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      // Every writer (S3's server access logs, CloudFront's vended logs) is granted by the bucket
      // policy: no ACLs.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ expiration: Duration.days(settings.logRetention) }],
    });
    this.bucket = new Bucket(this, 'Assets', {
      ...kept,
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 's3/',
    });

    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: 'The dashboard page: its Content-Security-Policy and the usual security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          contentSecurityPolicy: dashboardContentSecurityPolicy(signInOriginOf(props.cognito, this)),
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        // The sign-in's code is in the page's address for a moment: no Referer carries it away.
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: { customHeaders: SHARED_CUSTOM_HEADERS },
    });

    this.assetsOrigin = S3BucketOrigin.withOriginAccessControl(this.bucket);
    this.distribution = new Distribution(this, 'Distribution', {
      comment: `Bre-B merchant dashboard and API (${settings.name})`,
      defaultBehavior: {
        origin: this.assetsOrigin,
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: headers,
        functionAssociations: [
          {
            eventType: FunctionEventType.VIEWER_REQUEST,
            function: new CloudFrontFunction(this, 'Index', {
              code: FunctionCode.fromInline(INDEX_FUNCTION),
              runtime: FunctionRuntime.JS_2_0,
              comment: 'Folder paths of the dashboard to their index.html',
            }),
          },
        ],
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      ...(props.edge
        ? {
            domainNames: [props.edge.domainName],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.edge.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
            webAclId: props.edge.webAclArn,
          }
        : {}),
    });
    // Not the legacy logs (enableLogging), which keep every query string: the chosen fields only.
    new CloudFrontAccessLogs(this, 'AccessLogs', {
      distribution: this.distribution,
      bucket: this.logBucket,
      name: `${SERVICE_NAME}-${settings.name}`,
      logGroup: new LogGroup(this, 'AccessLogsSetupLogs', {
        retention: settings.logRetention,
        removalPolicy: removalPolicyOf(settings),
      }),
    });
    NagSuppressions.addResourceSuppressions(this.distribution, [
      {
        id: 'AwsSolutions-CFR3',
        reason:
          "Its access logs are CloudFront's standard logging v2 (CloudFrontAccessLogs: the fields chosen, no query " +
          'strings), which cdk-nag does not see: it looks for the legacy logs, which keep every query string.',
      },
      {
        id: 'AwsSolutions-CFR1',
        reason: "The platforms' staff and machines work from wherever they are: no country is refused.",
      },
      ...(props.edge
        ? []
        : [
            {
              id: 'AwsSolutions-CFR2',
              reason:
                'A stage without its edge settings (infra/edge.ts; production requires them) has no web ACL: ' +
                "the API behind it keeps its stage's throttling and each tenant's limit, and every API path needs a token.",
            },
            {
              id: 'AwsSolutions-CFR4',
              reason:
                "Without the stage's edge settings the distribution has the default *.cloudfront.net certificate, " +
                'which cannot set a minimum TLS version; with them, its own certificate and TLSv1.2_2021.',
            },
          ]),
    ]);
    const host = props.edge?.domainName ?? this.distribution.distributionDomainName;
    this.url = `https://${host}${DASHBOARD_PATH}`;

    // A pattern refused is no API behaviour, whichever other route shares it (the network's OpenAPI
    // document, /network/openapi.json, goes with the network's routes).
    const refused = apiPathPatterns(props.refusedRoutes ?? []);
    const headersOfApi = this.serveApi(props.api, props.routes, refused, props.edge);
    this.refuse(refused, headersOfApi);
    this.client = identity.dashboardClientFor(this, this.url);
    const signIn = identity.signIn!;
    this.publication = this.publish({
      authorizeUrl: signIn.authorizeUrl,
      tokenUrl: signIn.tokenUrl,
      logoutUrl: signIn.logoutUrl,
      clientId: this.client.userPoolClientId,
      scope: 'openid',
      // The API is behind the dashboard's own distribution.
      apiUrl: '',
      sandbox: settings.sandboxEnabled,
    });
  }

  /**
   * The API's routes, behind the same distribution: nothing cached, every header but Host passed on,
   * through the API's custom domain where the stage has its edge (execute-api is then disabled).
   */
  private serveApi(
    api: HttpApi,
    routes: readonly Pick<RouteDefinition, 'paths'>[],
    refused: readonly string[],
    edge?: EdgeSettings,
  ): ResponseHeadersPolicy {
    const origin = new HttpOrigin(
      edge?.originDomainName ?? `${api.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      },
    );
    // The API's answers and its description: no framing, no sniffing, no Referer, HSTS, COOP and
    // Permissions-Policy. No Content-Security-Policy here: the reference page sets its own (a JSON
    // answer needs none), which this policy leaves as the function wrote it.
    const headers = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: "The API's answers and its reference page: the usual security headers",
      securityHeadersBehavior: {
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
      customHeadersBehavior: { customHeaders: [...SHARED_CUSTOM_HEADERS, API_CACHE_CONTROL] },
    });
    for (const pattern of apiPathPatterns(routes).filter((served) => !refused.includes(served))) {
      this.distribution.addBehavior(pattern, origin, {
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        // With caching off, the viewer's Authorization header may go to the origin.
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: headers,
      });
    }
    return headers;
  }

  /**
   * A behaviour per path pattern whose viewer-request function answers 403 itself, so nothing under
   * it reaches an origin (the bucket's, named only because a behaviour needs one), and every method
   * reaches the function.
   */
  private refuse(patterns: readonly string[], headers: ResponseHeadersPolicy): void {
    if (patterns.length === 0) return;
    const refusal = new CloudFrontFunction(this, 'Refuse', {
      code: FunctionCode.fromInline(REFUSE_FUNCTION),
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Paths served on a domain of their own (the network, mutual TLS): 403 here',
    });
    for (const pattern of patterns) {
      this.distribution.addBehavior(pattern, this.assetsOrigin, {
        viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        responseHeadersPolicy: headers,
        functionAssociations: [{ eventType: FunctionEventType.VIEWER_REQUEST, function: refusal }],
      });
    }
  }

  /**
   * Uploads the built dashboard and its config.json under /dashboard/, and clears CloudFront's copies.
   * The upload runs as a function of its own, with a role and a log group of its own.
   */
  private publish(config: DashboardConfig): BucketDeployment {
    const role = new Role(this, 'PublishRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: 'Uploads the dashboard files to their bucket and clears the distribution of the old ones',
    });
    const logGroup = new LogGroup(this, 'PublishLogs', {
      retention: this.settings.logRetention,
      removalPolicy: removalPolicyOf(this.settings),
    });
    logGroup.grantWrite(role);
    const deployment = new BucketDeployment(this, 'Publish', {
      sources: [Source.asset(DASHBOARD_ASSETS_DIR, { exclude: ['*.map'] }), Source.jsonData('config.json', config)],
      destinationBucket: this.bucket,
      destinationKeyPrefix: DASHBOARD_PATH.slice(1),
      // Revalidated on every load (ETags), so a new version is seen at once.
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: [`${DASHBOARD_PATH}*`],
      role,
      logGroup,
    });
    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason:
            "CDK's upload grants read on the staging bucket's objects, write on the dashboard bucket's objects " +
            '(arn/*) and the object actions of s3:GetObject*, s3:List*, s3:DeleteObject*, s3:Abort*: every file ' +
            'of the dashboard, only in these two buckets.',
        },
      ],
      true,
    );
    // The upload's function is a singleton CDK keeps at the stack's root, on a runtime CDK pins.
    const handler = Stack.of(this).node.children.find((child) =>
      child.node.id.startsWith('Custom::CDKBucketDeployment'),
    );
    if (handler) {
      NagSuppressions.addResourceSuppressions(handler, [
        {
          id: 'AwsSolutions-L1',
          reason: "CDK's own upload handler (BucketDeployment), on the runtime the CDK version pins: not our code.",
        },
      ]);
    }
    return deployment;
  }
}
