/**
 * The route table: the single source of truth for the HTTP surface. The CDK stack creates one
 * function per entry (with exactly these table actions and these authorizer scopes) and the local
 * server mounts the same entries. Nothing here imports handler code, so the stack can read it cheaply.
 */
import type { TableAction } from '../shared/data/table';

/** The resource server of the OAuth2 provider (Cognito or the local issuer). */
export const SCOPE_PREFIX = 'breb';

export const SCOPES = {
  customersRead: `${SCOPE_PREFIX}/customers.read`,
  customersWrite: `${SCOPE_PREFIX}/customers.write`,
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteDefinition {
  /** camelCase name of the function: the CDK construct id and the log's `function` field. */
  readonly name: string;
  readonly method: HttpMethod;
  /** API Gateway route paths served by the one handler (`{id}` marks a path parameter). */
  readonly paths: readonly string[];
  /** File under functions/ (without extension) exporting `handler`. */
  readonly handler: string;
  /** OAuth scopes the JWT authorizer demands; empty means any valid token. */
  readonly scopes: readonly Scope[];
  /** The only DynamoDB actions the function is granted on the table. */
  readonly tableActions: readonly TableAction[];
  /** Operator tools for the sandbox; mounted only on stages that enable the sandbox. */
  readonly sandbox?: boolean;
}

/** Every POST records its answer under the client's Idempotency-Key (shared/http/idempotency). */
const IDEMPOTENCY_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

export const routes: readonly RouteDefinition[] = [
  {
    name: 'linkMerchant',
    method: 'POST',
    paths: ['/v1/customers/business/link'],
    handler: 'link-merchant',
    scopes: [SCOPES.customersWrite],
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'getCustomer',
    method: 'GET',
    paths: ['/v1/customers/{id}'],
    handler: 'get-customer',
    scopes: [SCOPES.customersRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'approveSponsorBankMerchant',
    method: 'POST',
    paths: ['/sandbox/sponsor-bank/merchants'],
    handler: 'approve-sponsor-bank-merchant',
    scopes: [],
    tableActions: [...IDEMPOTENCY_ACTIONS, 'Query'],
    sandbox: true,
  },
];

/** The routes a stage serves: sandbox operator routes only where the sandbox is enabled. */
export const routesFor = (sandboxEnabled: boolean): readonly RouteDefinition[] =>
  routes.filter((route) => !route.sandbox || sandboxEnabled);

export const allScopes: readonly Scope[] = Object.values(SCOPES);

/** Scopes a read-only client receives: every `.read` scope. */
export const readScopes: readonly Scope[] = allScopes.filter((scope) => scope.endsWith('.read'));
