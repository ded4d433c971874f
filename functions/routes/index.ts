/**
 * The route table: the single source of truth for the HTTP surface, one family a file beside this
 * one. The CDK stack creates one function per entry (with exactly its table actions and authorizer
 * scopes), in its family's nested stack; the local server mounts the same entries; the OpenAPI
 * document, the generated tests and the least-privilege checks read them. docs/adding-a-route.md says
 * what a new route touches. Nothing here imports handler code, so the stack can read it cheaply.
 */
import { customerRoutes } from './customers';
import type { RouteDefinition, RouteFamily } from './definitions';
import { keyRoutes } from './keys';
import { networkRouteFamily, type NetworkRouteDefinition } from './network';
import { paymentRoutes } from './payments';
import { qrCodeRoutes } from './qr-codes';
import { reportRoutes } from './reports';
import { sandboxRoutes } from './sandbox';
import { webhookRoutes } from './webhooks';

export * from './definitions';
export { NETWORK_PATH_PREFIX, networkRouteFamily, networkRoutes, type NetworkRouteDefinition } from './network';

/** The families of the clients' routes, each behind the JWT authorizer, in the order the API documents them. */
export const clientRouteFamilies: readonly RouteFamily[] = [
  customerRoutes,
  keyRoutes,
  qrCodeRoutes,
  paymentRoutes,
  reportRoutes,
  webhookRoutes,
  sandboxRoutes,
];

/** Every family, the network connector's too: one nested stack each. */
export const routeFamilies: readonly (RouteFamily | RouteFamily<NetworkRouteDefinition>)[] = [
  ...clientRouteFamilies,
  networkRouteFamily,
];

/** Every route behind a token, family after family. */
export const routes: readonly RouteDefinition[] = clientRouteFamilies.flatMap((family) => family.routes);

/** The routes a stage serves: sandbox operator routes only where the sandbox is enabled. */
export const routesFor = (sandboxEnabled: boolean): readonly RouteDefinition[] =>
  routes.filter((route) => !route.sandbox || sandboxEnabled);
