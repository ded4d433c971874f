/**
 * What every entry of the route table (index.ts) is made of: the scopes, what a function declares
 * (rights, secrets, queues), what a route adds (method, paths, contract), the families the routes
 * are grouped in, and the table actions several families share. Nothing here imports handler code,
 * so the stack and the local server read it cheaply.
 */
import type { QueueName, SecretName } from '../../shared/runtime/config';
import type { TableAction } from '../../shared/data/table';
import type { ErrorCode, ErrorKind } from '../../shared/domain/errors';
import type { SchemaName } from '../../shared/schemas/names';

/** The resource server of the OAuth2 provider (Cognito or the local issuer). */
export const SCOPE_PREFIX = 'breb';

/**
 * Every route's Lambda timeout, in seconds: three DynamoDB attempts with back-off fit well inside, and
 * API Gateway gives up at 30 s anyway. The stack sets it (infra/constructs/api-function.ts) and the
 * local server enforces it (infra/local/server.ts).
 */
export const ROUTE_TIMEOUT_SECONDS = 10;

export const SCOPES = {
  customersRead: `${SCOPE_PREFIX}/customers.read`,
  customersWrite: `${SCOPE_PREFIX}/customers.write`,
  accountsRead: `${SCOPE_PREFIX}/accounts.read`,
  accountsWrite: `${SCOPE_PREFIX}/accounts.write`,
  keysRead: `${SCOPE_PREFIX}/keys.read`,
  keysWrite: `${SCOPE_PREFIX}/keys.write`,
  qrCodesRead: `${SCOPE_PREFIX}/qrcodes.read`,
  qrCodesWrite: `${SCOPE_PREFIX}/qrcodes.write`,
  paymentsRead: `${SCOPE_PREFIX}/payments.read`,
  paymentsWrite: `${SCOPE_PREFIX}/payments.write`,
  webhooksRead: `${SCOPE_PREFIX}/webhooks.read`,
  webhooksWrite: `${SCOPE_PREFIX}/webhooks.write`,
  /**
   * Resolving a key answers its owner's name, document and account: paying's first step, not a read
   * of the client's own data, so no read-only principal gets it (docs/keys.md, docs/security.md).
   */
  keysResolve: `${SCOPE_PREFIX}/keys.resolve`,
  /** The sandbox's operator tools that write for the sponsor bank or the shared directory (docs/sandbox.md). */
  sandboxOperate: `${SCOPE_PREFIX}/sandbox.operate`,
  /**
   * Asking for a report (docs/reconciliation.md): a file of every payment with its payers' personal
   * data, made by a worker, is more than a read; a viewer (the .read scopes) may download none.
   */
  reportsWrite: `${SCOPE_PREFIX}/reports.write`,
  /** Who changed what (docs/audit.md): viewers may read the activity. */
  auditRead: `${SCOPE_PREFIX}/audit.read`,
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * What every function of the stack declares, route or worker (functions/workers.ts): the stack gives
 * it these rights and the variables that go with them, and nothing more.
 */
export interface FunctionDefinition {
  /** camelCase name of the function: the CDK construct id (and a route's log `function` field). */
  readonly name: string;
  /** File under functions/ (without extension) exporting `handler`. */
  readonly handler: string;
  /**
   * The only DynamoDB actions the function is granted on the table for its own work. (The shared
   * chain's per-tenant rate limit has a grant of its own on every route's function, reaching its
   * counters only: infra/constructs/api-function.ts.)
   */
  readonly tableActions: readonly TableAction[];
  /** Secrets the function may read (Secrets Manager GetSecretValue); their ARNs arrive in SECRET_ENV. */
  readonly secrets?: readonly SecretName[];
  /** Queues the function sends to (SQS SendMessage); their URLs arrive in QUEUE_ENV. */
  readonly queues?: readonly QueueName[];
  /**
   * What the function does with the stage's secret key (shared/data/secret-sealing.ts): `seal` new
   * secrets (kms:GenerateDataKey), `open` stored ones to sign or rotate (kms:Decrypt). The key's ARN
   * arrives in SECRET_KEY_ARN; a function without this entry can do neither.
   */
  readonly sealing?: readonly SealingUse[];
  /** What the function does with the report files: see ReportFilesUse. */
  readonly reportFiles?: readonly ReportFilesUse[];
  /**
   * What the function does with the sponsor bank's settlement files (the same bucket, under their own
   * prefix: shared/data/settlement-files.ts): `write` one (s3:PutObject), `read` one (s3:GetObject).
   */
  readonly settlementFiles?: readonly ReportFilesUse[];
  /**
   * Writes copies of audit events to the stage's Object Lock bucket (s3:PutObject under `audit/`,
   * shared/data/audit-archive.ts); the bucket's name arrives in AUDIT_ARCHIVE_BUCKET_NAME.
   */
  readonly auditArchive?: true;
  /**
   * Writes the partitions that hold money (MONEY_KEY_PREFIXES: accounts and their ledgers, payments,
   * refunds, reversals, credit answers). Every other function's role is denied writing them, and the
   * local runtime refuses such a write as AWS would.
   */
  readonly writesMoney?: true;
}

export type SealingUse = 'seal' | 'open';

/**
 * What a function does with the report files (the stage's report bucket, shared/data/report-files.ts):
 * `write` them (s3:PutObject, its multipart upload included, and s3:AbortMultipartUpload), `read`
 * them (s3:GetObject: presigning a download URL needs the signer to hold it). The bucket's name
 * arrives in REPORT_BUCKET_NAME; a function without this entry can do neither.
 */
export type ReportFilesUse = 'write' | 'read';

/**
 * What the contract says of a route besides its method, paths and scopes: the OpenAPI document
 * (tools/openapi/, served at GET /openapi.json) is generated from it and from the schemas it names.
 */
export interface RouteContract {
  /** What the route does, in one line: the operation's summary. */
  readonly summary: string;
  /**
   * The schemas (exports of shared/schemas/) of the request body (null: the route takes none), of the
   * query string (emptyQuerySchema: no parameter) and of the success answer. The handler validates
   * with the validators generated from the same two request schemas (test/unit/route-contract.test.ts).
   */
  readonly schemas: {
    readonly body: SchemaName | null;
    readonly query: SchemaName;
    readonly response: SchemaName;
  };
  /** The success status when it is not 200: only the sandbox's operator tools answer 201. */
  readonly status?: 201;
  /**
   * The problem codes the route's own rules answer (docs/errors.md). Those of the HTTP chain (token,
   * scope, body and query validation, Idempotency-Key, a path id of nothing or of another client's,
   * limits, failures) follow from its method, paths, scopes and schemas (tools/openapi/problems.ts).
   * A code the route raises as its other kind (the catalog's `alsoKind`) names that kind.
   */
  readonly problems: readonly (ErrorCode | { readonly code: ErrorCode; readonly kind: ErrorKind })[];
}

export interface RouteDefinition extends FunctionDefinition, RouteContract {
  readonly method: HttpMethod;
  /** API Gateway route paths served by the one handler (`{id}` marks a path parameter). */
  readonly paths: readonly string[];
  /** OAuth scopes the JWT authorizer demands, any one of them: at least one, no route takes any valid token. */
  readonly scopes: readonly [Scope, ...Scope[]];
  /** Operator tools for the sandbox; mounted only on stages that enable the sandbox. */
  readonly sandbox?: boolean;
}

/**
 * Every POST records its answer under the client's Idempotency-Key (shared/http/idempotency): claimed
 * before the work and completed or released after it, or put in the work's own transaction, which
 * falls back to the claim when the transaction's conditions refuse it.
 */
export const IDEMPOTENCY_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

/**
 * A POST that writes nothing puts its answer under the Idempotency-Key in one conditional write, and
 * reads the record that holds the key when it meets one: it never claims.
 */
export const ANSWER_RECORD_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem'];

/** A list answers a page from its counter and the indexes, and writes nothing (shared/data/pagination.ts). */
export const LIST_ACTIONS: readonly TableAction[] = ['Query'];

/**
 * Receiving an inbound payment (a QR code's, a key's): reads the client's approval settings (and the
 * code, or its key when it stopped being ACTIVE); one transaction checks the code, the customer and
 * the key, puts the payment and its events, and updates the counters, with the credit and a DYNAMIC
 * code's change to PAID when no approval is asked; with one, the decision's transaction puts the
 * payment again (and those). The decision job, queued first, goes on the settlement queue.
 */
export const INBOUND_PAYMENT_ACTIONS: readonly TableAction[] = [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'];

/**
 * The families the routes are grouped in, one file each under functions/routes/. Each family's
 * functions deploy in a nested stack of their own (infra/constructs/route-family-stack.ts), with
 * CloudFormation's 500 resources to itself, so that routes added to one family never push the stage's
 * template, or another family's, over the limit.
 */
export type FamilyName =
  'customers' | 'keys' | 'qr-codes' | 'payments' | 'webhooks' | 'reports' | 'network' | 'sandbox';

export interface RouteFamily<Route extends FunctionDefinition = RouteDefinition> {
  /** The family's file under functions/routes/, and in PascalCase its nested stack's id (`QrCodesRoutes`). */
  readonly name: FamilyName;
  /** What the family holds, in a few words (docs, the nested stack's description). */
  readonly title: string;
  readonly routes: readonly Route[];
}

export const allScopes: readonly Scope[] = Object.values(SCOPES);

/** Scopes a read-only client receives: every `.read` scope. */
export const readScopes: readonly Scope[] = allScopes.filter((scope) => scope.endsWith('.read'));

/** What a client or a person may do: `full`, every scope; `read`, the read scopes only. */
export type Access = 'full' | 'read';

export const scopesFor = (access: Access): readonly Scope[] => (access === 'full' ? allScopes : readScopes);
