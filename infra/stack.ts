/**
 * The whole deployment of one stage: the table, the stage's secrets, who issues tokens (Cognito or
 * an external issuer), the HTTP API with its JWT authorizer, throttling, access logs and routes, one
 * function per route of the route table (functions/routes/) in a nested stack per family of routes
 * (constructs/route-family-stack.ts), the queues of the later work and one function per
 * worker of functions/workers.ts, the merchant dashboard (S3 and CloudFront, with the API behind the
 * same distribution, and its people's sign-in on Cognito), and the alarms and CloudWatch dashboard.
 * Everything that differs between stages comes from StageSettings; everything a function needs
 * comes from its route or worker entry.
 */
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import {
  ApiMapping,
  CfnStage,
  DomainName,
  HttpApi,
  HttpMethod,
  HttpNoneAuthorizer,
  SecurityPolicy,
  type HttpRoute,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AttributeType,
  BillingMode,
  ProjectionType,
  StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { contractRoutes } from '../functions/contract';
import {
  clientRouteFamilies,
  networkRouteFamily,
  ROUTE_TIMEOUT_SECONDS,
  routes as routeTable,
  type NetworkRouteDefinition,
  type RouteDefinition,
} from '../functions/routes';
import { personClaimsTrigger } from '../functions/triggers';
import { workers as workerTable } from '../functions/workers';
import { tableDefinition } from '../shared/data/table';
import { ApiFunction } from './constructs/api-function';
import { ApiStage } from './constructs/api-stage';
import { ContractFunction } from './constructs/contract-function';
import { DashboardSite } from './constructs/dashboard-site';
import { Identity } from './constructs/identity';
import { Monitoring } from './constructs/monitoring';
import { RouteFamilyStack } from './constructs/route-family-stack';
import { SERVICE_NAME, ServiceFunction, type ServiceFunctionProps } from './constructs/service-function';
import { StageSecrets } from './constructs/stage-secrets';
import { WorkQueues } from './constructs/work-queues';
import { AuditArchiveBucket } from './constructs/audit-archive-bucket';
import { ReportBucket } from './constructs/report-bucket';
import { WorkerFunction } from './constructs/worker-function';
import { edgeSettingsOf } from './edge';
import {
  ALARM_EMAIL_CONTEXT,
  ALARM_TOPIC_CONTEXT,
  networkDomainOf,
  resolveAlarms,
  resolveNetwork,
  type EdgeSettings,
  type NetworkDomainSettings,
  type StageSettings,
} from './stages';

/**
 * A function's invoke permission names this API (any stage, method and route of it), not each of its
 * paths: a function behind several paths held a permission per path, resources the stage's template
 * has few to spare (CloudFormation's 500). Which routes reach a function is still only what the route
 * table gives it: the API's integrations, not the permission, decide that.
 */
const API_INVOKE_PERMISSION = { scopePermissionToRoute: false } as const;

/** The network connector's family of routes, in its nested stack. */
type NetworkFamilyStack = RouteFamilyStack<NetworkRouteDefinition, ServiceFunction>;

/** What every function's construct is given by the stage: its settings, and the resources it may be granted. */
type SharedFunctionProps = Omit<ServiceFunctionProps, 'definition' | 'description' | 'timeout'>;

/** What every stage's stack and resources are tagged with: the service, and which stage. */
export const stackTags = (settings: StageSettings): Record<string, string> => ({
  service: SERVICE_NAME,
  stage: settings.name,
});

export interface BrebApiStackProps extends StackProps {
  readonly settings: StageSettings;
  /** The routes to deploy: the route table unless a test passes its own. */
  readonly routes?: readonly RouteDefinition[];
}

export class BrebApiStack extends Stack {
  readonly settings: StageSettings;
  /** The stage's edge (infra/edge.ts): CloudFront and its web ACL in front, execute-api disabled. */
  readonly edge: EdgeSettings | undefined;
  /** The API's custom domain, CloudFront's origin, where the stage has its edge. */
  readonly apiDomain: DomainName | undefined;
  /**
   * Where the bank calls the `/network/` routes on a connector stage: a custom domain of their own
   * with mutual TLS (CloudFront passes no client certificate), which the distribution leaves alone.
   */
  readonly networkDomain: DomainName | undefined;
  readonly table: Table;
  readonly secrets: StageSecrets;
  readonly identity: Identity;
  /**
   * The merchant dashboard (a nested stack), on the stages whose tokens come from Cognito: its people
   * sign in on Cognito's hosted page (an external issuer would need a client of its own there).
   */
  readonly dashboard: DashboardSite | undefined;
  readonly api: HttpApi;
  readonly apiStage: ApiStage;
  /** The routes this stage serves: sandbox operator routes only where the sandbox is enabled. */
  readonly routes: readonly RouteDefinition[];
  /** The nested stack of each family of the clients' routes that the stage serves (functions/routes/). */
  readonly routeFamilies: readonly RouteFamilyStack<RouteDefinition, ApiFunction>[];
  /** Keyed by route name, so tests and tools can find the function of a route. */
  readonly functions: ReadonlyMap<string, ApiFunction>;
  /** The function of GET /openapi.json and /docs, and its routes: the only ones without the authorizer. */
  readonly contract: ContractFunction;
  readonly contractRoutes: readonly HttpRoute[];
  /** The routes the network connector calls, signed, without the authorizer (functions/routes/network.ts). */
  readonly networkRoutes: readonly HttpRoute[];
  /** The nested stack of their functions. */
  readonly networkFamily: NetworkFamilyStack;
  /** Their functions, by route name. */
  readonly networkFunctions: ReadonlyMap<string, ServiceFunction>;
  readonly queues: WorkQueues;
  /** Where the report worker writes report files and the report get presigns their downloads. */
  readonly reportBucket: Bucket;
  /** The audit events' Object Lock copy (docs/audit.md). */
  readonly auditArchiveBucket: Bucket;
  /** Keyed by worker name: the functions of the stream and the queues. */
  readonly workers: ReadonlyMap<string, WorkerFunction>;
  /** Every function of ours by its name: the routes', the workers', the contract's and the sign-in trigger's. */
  readonly serviceFunctions: ReadonlyMap<string, ServiceFunction>;
  /**
   * Every dead-letter queue, by the name of the queue whose messages it sets aside (streamFailures':
   * the given-up stream batches that the re-drive worker could not dispatch either).
   */
  readonly deadLetterQueues: ReadonlyMap<string, IQueue>;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: BrebApiStackProps) {
    // The stack's own tags, which CloudFormation also puts on every resource it can. Given here since
    // @aws-cdk/core:explicitStackTags: Tags.of(stack) no longer reaches the stack itself.
    super(scope, id, { ...props, tags: { ...props.tags, ...stackTags(props.settings) } });
    // A production stage without its connector's URL or the bank's keys fails here, naming the context value.
    const settings = resolveAlarms(
      resolveNetwork(props.settings, (name) => this.node.tryGetContext(name)),
      this.node.tryGetContext(ALARM_EMAIL_CONTEXT),
      this.node.tryGetContext(ALARM_TOPIC_CONTEXT),
    );
    this.settings = settings;
    this.routes = (props.routes ?? routeTable).filter((route) => !route.sandbox || settings.sandboxEnabled);
    this.edge = edgeSettingsOf(this, settings);
    if (this.edge && settings.identity.kind !== 'cognito') {
      throw new Error(`Stage ${settings.name}: the edge is the dashboard's distribution, which needs Cognito`);
    }
    const networkDomain = networkDomainOf(settings);
    // The clients' way in is the edge; without it, execute-api would stay open, /network/ included,
    // and no client certificate would be asked there.
    if (networkDomain && !this.edge) {
      throw new Error(
        `Stage ${settings.name} serves /network/ on its own domain with mutual TLS, which needs its edge too ` +
          '(execute-api is then disabled): give it its edge settings (docs/operations.md, "The edge")',
      );
    }

    this.secrets = new StageSecrets(this, 'Secrets', { settings });
    this.table = createTable(this, settings, this.secrets.secretKey);
    this.queues = new WorkQueues(this, 'Queues', { settings });
    this.reportBucket = new ReportBucket(this, 'ReportFiles', { settings, key: this.secrets.secretKey }).bucket;
    this.auditArchiveBucket = new AuditArchiveBucket(this, 'AuditArchive', { settings }).bucket;
    const shared: SharedFunctionProps = {
      settings,
      table: this.table,
      secrets: this.secrets.byName,
      queues: this.queues.byName,
      secretKey: this.secrets.secretKey,
      reportBucket: this.reportBucket,
      auditArchiveBucket: this.auditArchiveBucket,
    };
    this.identity = new Identity(this, 'Identity', { settings, functions: shared });

    // Every route sits behind the authorizer by default, so a route cannot be left open by omission;
    // routes only add the scopes they demand.
    this.api = new HttpApi(this, 'HttpApi', {
      description: `Bre-B merchant API (${settings.name})`,
      defaultAuthorizer: this.identity.authorizer,
      // The $default stage is ApiStage's, with throttling and access logs.
      createDefaultStage: false,
      // Behind the edge, the API answers on its custom domains only: the origin CloudFront reaches, and
      // the network's (mutual TLS). Nobody goes around the web ACL, nor the bank's client certificate,
      // through https://<id>.execute-api...
      disableExecuteApiEndpoint: this.edge !== undefined,
    });
    this.apiStage = new ApiStage(this, 'ApiStage', { api: this.api, settings });
    this.apiDomain = this.edge ? this.createApiDomain(this.edge) : undefined;
    this.networkDomain = networkDomain ? this.createNetworkDomain(networkDomain) : undefined;

    // Each family's functions, integrations and invoke permissions in a nested stack of its own
    // (route-family-stack.ts); the routes stay here, on the API, behind the authorizer.
    const unfamiliar = this.routes.filter((route) => !clientRouteFamilies.some((f) => f.routes.includes(route)));
    if (unfamiliar.length > 0) throw new Error(`Routes of no family: ${unfamiliar.map((r) => r.name).join(', ')}`);
    // A family none of whose routes the stage serves (the sandbox's on production) has no stack.
    const deployedFamilies = clientRouteFamilies
      .map((family) => ({ family, routes: family.routes.filter((route) => this.routes.includes(route)) }))
      .filter(({ routes }) => routes.length > 0);
    this.routeFamilies = deployedFamilies.map(({ family, routes }) => {
      const familyStack = new RouteFamilyStack(this, {
        settings,
        family,
        routes,
        api: this.api,
        createFunction: (scope, route) => new ApiFunction(scope, route.name, { ...shared, route }),
      });
      for (const route of familyStack.routes) {
        for (const path of route.paths) {
          this.api.addRoutes({
            path,
            methods: [HttpMethod[route.method]],
            integration: familyStack.integrations.get(route.name)!,
            // Every route names at least one scope (the route table's type requires it).
            authorizationScopes: [...route.scopes],
          });
        }
      }
      return familyStack;
    });
    this.functions = new Map(this.routeFamilies.flatMap((familyStack) => [...familyStack.functions]));

    // The API's description: public, since it holds nothing of any client. Its construct id is its
    // name, as a route's is, so the local server finds its bundle as it finds theirs.
    this.contract = new ContractFunction(this, contractRoutes.name, { ...shared, tokenUrl: this.identity.tokenUrl });
    const contractIntegration = new HttpLambdaIntegration(
      `${contractRoutes.name}Integration`,
      this.contract.function,
      API_INVOKE_PERMISSION,
    );
    this.contractRoutes = contractRoutes.paths.flatMap((path) =>
      this.api.addRoutes({
        path,
        methods: [HttpMethod[contractRoutes.method]],
        integration: contractIntegration,
        authorizer: new HttpNoneAuthorizer(),
      }),
    );
    for (const route of this.contractRoutes) {
      NagSuppressions.addResourceSuppressions(route, [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "The API's OpenAPI document and its reference page are public by design: they describe the API " +
            'and hold nothing of any client. Every other route sits behind the JWT authorizer.',
        },
      ]);
    }
    ({ familyStack: this.networkFamily, routes: this.networkRoutes } = this.addNetworkRoutes(settings, shared));
    this.networkFunctions = this.networkFamily.functions;

    const { identity } = settings;
    this.dashboard =
      identity.kind === 'cognito'
        ? new DashboardSite(this, 'Dashboard', {
            settings,
            cognito: identity,
            identity: this.identity,
            api: this.api,
            // The network connector's routes too where they have no domain of their own: behind an
            // edge, the API answers only through the distribution (its execute-api endpoint is off).
            // Where they have one, the distribution refuses /network/* (403): the bank comes with a
            // client certificate to its own domain, never through CloudFront or its per-IP rule.
            routes: [...this.routes, contractRoutes, ...(this.networkDomain ? [] : networkRouteFamily.routes)],
            refusedRoutes: this.networkDomain ? networkRouteFamily.routes : [],
            ...(this.edge ? { edge: this.edge } : {}),
          })
        : undefined;

    // Under a scope of their own, so that the local server, which finds the route functions by their
    // construct path (infra/local/bundles.ts), never takes one for a route.
    const workerScope = new Construct(this, 'Workers');
    this.workers = new Map(
      workerTable.map((worker) => {
        if (this.functions.has(worker.name)) throw new Error(`Worker ${worker.name} has the name of a route`);
        return [worker.name, new WorkerFunction(workerScope, worker.name, { ...shared, worker })];
      }),
    );

    const deadLetterQueues = new Map<string, IQueue>(Object.entries(this.queues.deadLetters));
    this.deadLetterQueues = deadLetterQueues;

    const { personClaims } = this.identity;
    this.serviceFunctions = new Map<string, ServiceFunction>([
      ...this.functions,
      ...this.networkFunctions,
      ...this.workers,
      [contractRoutes.name, this.contract],
      ...(personClaims ? [[personClaimsTrigger.name, personClaims] as const] : []),
    ]);
    this.monitoring = new Monitoring(this, 'Monitoring', {
      settings,
      api: this.api,
      functions: this.serviceFunctions,
      workers: this.workers,
      queues: this.queues.byName,
      deadLetterQueues,
      table: this.table,
    });

    this.addOutputs();
  }

  /**
   * The routes the network connector calls (functions/routes/network.ts), their functions in the
   * network family's nested stack: no authorizer, since the handler checks the connector's signature
   * on every request; each with its own throttling, so that the clients' traffic never starves the
   * network's callbacks, nor the other way round.
   */
  private addNetworkRoutes(
    settings: StageSettings,
    shared: SharedFunctionProps,
  ): { familyStack: NetworkFamilyStack; routes: HttpRoute[] } {
    const familyStack: NetworkFamilyStack = new RouteFamilyStack(this, {
      settings,
      family: networkRouteFamily,
      routes: networkRouteFamily.routes,
      api: this.api,
      createFunction: (scope, route) =>
        new ServiceFunction(scope, route.name, {
          ...shared,
          definition: route,
          description: `${route.method} ${route.paths.join(' ')} (network connector)`,
          // The network's time limit for an answer is seconds: as the clients' routes.
          timeout: Duration.seconds(ROUTE_TIMEOUT_SECONDS),
        }),
    });
    const added = familyStack.routes.flatMap((route) =>
      route.paths.flatMap((path) =>
        this.api.addRoutes({
          path,
          methods: [HttpMethod[route.method]],
          integration: familyStack.integrations.get(route.name)!,
          authorizer: new HttpNoneAuthorizer(),
        }),
      ),
    );
    for (const route of added) {
      NagSuppressions.addResourceSuppressions(route, [
        {
          id: 'AwsSolutions-APIG4',
          reason:
            "The network connector's routes authenticate every request by its Standard Webhooks signature with " +
            "the connector's secret (shared/http/network-handler.ts), not by a token: 401 without a valid one.",
        },
      ]);
    }
    const routeSettings = Object.fromEntries(
      networkRouteFamily.routes.flatMap((route) =>
        route.paths.map((path) => [
          `${route.method} ${path}`,
          {
            ThrottlingRateLimit: settings.networkThrottling.rateLimit,
            ThrottlingBurstLimit: settings.networkThrottling.burstLimit,
          },
        ]),
      ),
    );
    (this.apiStage.stage.node.defaultChild as CfnStage).addPropertyOverride('RouteSettings', routeSettings);
    return { familyStack, routes: added };
  }

  /** The API's custom domain, mapped to its $default stage: CloudFront's origin. */
  private createApiDomain(edge: EdgeSettings): DomainName {
    const domain = new DomainName(this, 'ApiDomain', {
      domainName: edge.originDomainName,
      certificate: Certificate.fromCertificateArn(this, 'ApiOriginCertificate', edge.originCertificateArn),
    });
    new ApiMapping(this, 'ApiMapping', { api: this.api, domainName: domain, stage: this.apiStage.stage });
    return domain;
  }

  /**
   * The network routes' own custom domain: regional, TLS 1.2, and mutual TLS against the truststore
   * the stage names (an S3 object of the CAs the bank's client certificates chain to), mapped to the
   * API's stage at its root so the bank calls the same paths (/network/v1/...). A caller without a
   * client certificate from the truststore is refused in the TLS handshake, before any route.
   */
  private createNetworkDomain(network: NetworkDomainSettings): DomainName {
    const { bucket, key } = s3Object(network.truststoreUri);
    const domain = new DomainName(this, 'NetworkDomain', {
      domainName: network.domainName,
      certificate: Certificate.fromCertificateArn(this, 'NetworkCertificate', network.certificateArn),
      // API Gateway takes mutual TLS only with TLS 1.2 or later.
      securityPolicy: SecurityPolicy.TLS_1_2,
      mtls: {
        bucket: Bucket.fromBucketName(this, 'NetworkTruststoreBucket', bucket),
        key,
        ...(network.truststoreVersion ? { version: network.truststoreVersion } : {}),
      },
    });
    new ApiMapping(this, 'NetworkApiMapping', { api: this.api, domainName: domain, stage: this.apiStage.stage });
    return domain;
  }

  /** What an operator needs after `cdk deploy`: printed by the CLI, under these short names. */
  private addOutputs(): void {
    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    if (this.edge && this.apiDomain) {
      output('ApiUrl', `https://${this.edge.domainName}`, 'Base URL of the API: its edge (CloudFront and the web ACL)');
      output(
        'ApiOriginTarget',
        this.apiDomain.regionalDomainName,
        `What ${this.edge.originDomainName} is a CNAME of (docs/operations.md, "The edge")`,
      );
    } else {
      output('ApiUrl', this.api.apiEndpoint, 'Base URL of the HTTP API');
    }
    if (this.networkDomain) {
      const { domainName } = networkDomainOf(this.settings)!;
      output(
        'NetworkUrl',
        `https://${domainName}`,
        'Where the bank calls the /network/ routes, with its client certificate',
      );
      output(
        'NetworkDomainTarget',
        this.networkDomain.regionalDomainName,
        `What ${domainName} is a CNAME of (docs/network.md, "How the bank reaches us")`,
      );
    }
    output('TableName', this.table.tableName, 'The single DynamoDB table');
    output('ReportBucketName', this.reportBucket.bucketName, 'The report files (docs/reconciliation.md, "Reports")');
    output(
      'AuditArchiveBucketName',
      this.auditArchiveBucket.bucketName,
      "The audit events' Object Lock copy (docs/audit.md)",
    );
    output('QrSigningSecretArn', this.secrets.qrSigning.secretArn, 'The QR signing key (README: rotating it)');
    output(
      'NetworkSecretArn',
      this.secrets.network.secretArn,
      "The network connector's signing secret (docs/network.md)",
    );
    output('DashboardUrl', this.monitoring.dashboardUrl, 'CloudWatch dashboard of this stage');
    output('AlarmTopicArn', this.monitoring.topic.topicArn, 'SNS topic of every alarm');
    for (const [name, queue] of Object.entries(this.queues.byName)) {
      output(`${pascalCase(name)}QueueUrl`, queue.queueUrl, `The ${name} queue`);
    }
    // The ARN is what a redrive names (docs/operations.md), the URL what reading a message names.
    for (const [name, queue] of this.deadLetterQueues) {
      output(`${pascalCase(name)}DeadLetterQueueUrl`, queue.queueUrl, `Dead letters of ${name}`);
      output(`${pascalCase(name)}DeadLetterQueueArn`, queue.queueArn, `Dead letters of ${name}`);
    }
    // What an operator invokes, or reads the logs of, when dead letters need a hand (docs/operations.md).
    for (const [name, worker] of this.workers) {
      output(`${pascalCase(name)}FunctionName`, worker.function.functionName, `The ${name} worker's function`);
    }
    const { userPool, tokenUrl, clients } = this.identity;
    if (userPool && tokenUrl) {
      output('UserPoolId', userPool.userPoolId, 'Cognito user pool of the API clients');
      output('TokenUrl', tokenUrl, 'OAuth2 token endpoint (client credentials)');
    }
    for (const [name, client] of clients) {
      // The secret stays in Cognito: aws cognito-idp describe-user-pool-client --user-pool-id ... --client-id ...
      output(`ClientId${pascalCase(name)}`, client.userPoolClientId, `App client "${name}"`);
    }
    if (this.dashboard) {
      output('MerchantDashboardUrl', this.dashboard.url, 'The merchant dashboard');
      output(
        'DashboardClientId',
        this.dashboard.client.userPoolClientId,
        "The dashboard's public app client (no secret)",
      );
    }
  }
}

/** `s3://bucket/key/of/it` -> its bucket and key (resolveNetwork has checked the form). */
const s3Object = (uri: string): { bucket: string; key: string } => {
  const [bucket = '', ...key] = uri.slice('s3://'.length).split('/');
  return { bucket, key: key.join('/') };
};

/** `read-only` -> `ReadOnly`: output ids are alphanumeric. */
const pascalCase = (name: string): string =>
  name
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/**
 * The table of shared/data/table.ts, with the stage's data-protection settings, encrypted under the
 * stage's key: read through DynamoDB only, by whom the table's own rights let in (secret-key-policy.ts).
 */
function createTable(scope: Construct, settings: StageSettings, secretKey: IKey): Table {
  const key = (name: string) => ({ name, type: AttributeType.STRING });
  const table = new Table(scope, 'Table', {
    partitionKey: key(tableDefinition.partitionKey),
    sortKey: key(tableDefinition.sortKey),
    billingMode: BillingMode.PAY_PER_REQUEST,
    timeToLiveAttribute: tableDefinition.ttlAttribute,
    stream: StreamViewType[tableDefinition.streamView],
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: TableEncryption.CUSTOMER_MANAGED,
    encryptionKey: secretKey,
    // Production data survives both a mistaken delete call and a stack deletion.
    deletionProtection: settings.retainData,
    removalPolicy: settings.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
  });
  for (const index of tableDefinition.globalSecondaryIndexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.indexName,
      partitionKey: key(index.partitionKey),
      sortKey: key(index.sortKey),
      projectionType: ProjectionType[index.projection],
    });
  }
  return table;
}
