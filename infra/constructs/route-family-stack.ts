/**
 * One family of routes (functions/routes/<family>.ts) in a nested stack of its own: each route's
 * function with its role, policy and log group (service-function.ts), its integration with the
 * stage's HTTP API, and the API's permission to invoke it. A nested stack has CloudFormation's 500
 * resources to itself, so routes added to one family never push the stage's template, or another
 * family's, over the limit (test/infra/split.suite.ts says how much room each has left).
 *
 * The routes themselves (method and path, authorizer, scopes) stay on the API in the stage's stack,
 * where they were before the split: their logical ids did not change, so deploying the split onto a
 * stage updates each route's target in place. Moved, they would be new resources created before the
 * old ones are deleted, and API Gateway refuses a second route with the same key.
 */
import { NestedStack, Stack } from 'aws-cdk-lib';
import {
  HttpIntegration,
  HttpIntegrationType,
  HttpRouteIntegration,
  PayloadFormatVersion,
  type HttpApi,
  type HttpRouteIntegrationConfig,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { FunctionDefinition, RouteFamily } from '../../functions/routes';
import type { StageSettings } from '../stages';
import type { ServiceFunction } from './service-function';

/** `qr-codes` -> `QrCodesRoutes`: the construct id of a family's nested stack. */
export const familyStackId = (family: Pick<RouteFamily, 'name'>): string =>
  `${family.name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('')}Routes`;

export interface RouteFamilyStackProps<Route extends FunctionDefinition, Fn extends ServiceFunction> {
  readonly settings: StageSettings;
  readonly family: RouteFamily<Route>;
  /** The routes of the family this stage serves (the sandbox's only where it is enabled). */
  readonly routes: readonly Route[];
  readonly api: HttpApi;
  /** The function of one route, made in the family's stack (an ApiFunction, or a network route's). */
  readonly createFunction: (scope: Construct, route: Route) => Fn;
}

export class RouteFamilyStack<Route extends FunctionDefinition, Fn extends ServiceFunction> extends NestedStack {
  readonly family: RouteFamily<Route>;
  /** The routes deployed here: the family's, less the sandbox's on a stage without it. */
  readonly routes: readonly Route[];
  /** By route name. */
  readonly functions: ReadonlyMap<string, Fn>;
  /** By route name: what the stage's stack routes the route's paths to. */
  readonly integrations: ReadonlyMap<string, HttpRouteIntegration>;

  constructor(scope: Construct, props: RouteFamilyStackProps<Route, Fn>) {
    const { family, api } = props;
    super(scope, familyStackId(family), {
      description: `Bre-B merchant API (${props.settings.name}): the routes of ${family.title.toLowerCase()}`,
    });
    this.family = family;
    this.routes = props.routes;
    const functions = new Map<string, Fn>();
    const integrations = new Map<string, HttpRouteIntegration>();
    for (const route of props.routes) {
      // The construct id is the route name: logical ids stay stable and readable per route, and the
      // local server finds a route's bundle by it (infra/local/bundles.ts).
      const fn = props.createFunction(this, route);
      // One integration per function, shared by all of its paths.
      const integration = new HttpIntegration(this, `${route.name}Integration`, {
        httpApi: api,
        integrationType: HttpIntegrationType.AWS_PROXY,
        integrationUri: fn.function.functionArn,
        payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      });
      // One invoke permission per function, naming the API (any stage, method and route of it), not
      // each of its paths: which routes reach the function is what the API's integrations decide.
      fn.function.addPermission('ApiInvoke', {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: Stack.of(api).formatArn({ service: 'execute-api', resource: api.apiId, resourceName: '*/*/*' }),
      });
      functions.set(route.name, fn);
      integrations.set(route.name, new FamilyIntegration(integration));
    }
    this.functions = functions;
    this.integrations = integrations;
  }
}

/**
 * A route's integration made in its family's nested stack: the stage's stack's routes point at it
 * instead of making an integration of their own (what HttpRouteIntegration does when bound).
 */
class FamilyIntegration extends HttpRouteIntegration {
  constructor(private readonly made: HttpIntegration) {
    super(made.node.id);
  }

  override _bindToRoute(): { readonly integrationId: string } {
    return { integrationId: this.made.integrationId };
  }

  bind(): HttpRouteIntegrationConfig {
    throw new Error(`${this.made.node.path} is bound by its id (_bindToRoute), never configured anew`);
  }
}
