/**
 * The route table: the single source of truth for the HTTP surface. The CDK stack creates one
 * function per entry (with exactly these table actions and these authorizer scopes) and the local
 * server mounts the same entries. Nothing here imports handler code, so the stack can read it cheaply.
 */
import type { QueueName, SecretName } from '../shared/runtime/config';
import type { TableAction } from '../shared/data/table';

/** The resource server of the OAuth2 provider (Cognito or the local issuer). */
export const SCOPE_PREFIX = 'breb';

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
} as const;

export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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
}

export interface RouteDefinition extends FunctionDefinition {
  readonly method: HttpMethod;
  /** API Gateway route paths served by the one handler (`{id}` marks a path parameter). */
  readonly paths: readonly string[];
  /** OAuth scopes the JWT authorizer demands; empty means any valid token. */
  readonly scopes: readonly Scope[];
  /** Operator tools for the sandbox; mounted only on stages that enable the sandbox. */
  readonly sandbox?: boolean;
}

/** Every POST records its answer under the client's Idempotency-Key (shared/http/idempotency). */
const IDEMPOTENCY_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

/**
 * A list answers a page from the index and caches the walk's page boundaries (PutItem, or
 * BatchWriteItem when a long jump caches several; shared/data/pagination.ts).
 */
const LIST_ACTIONS: readonly TableAction[] = ['Query', 'PutItem', 'BatchWriteItem'];

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
    name: 'listCustomers',
    method: 'GET',
    paths: ['/v1/customers'],
    handler: 'list-customers',
    scopes: [SCOPES.customersRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'updateCustomer',
    method: 'PATCH',
    paths: ['/v1/customers/{id}'],
    handler: 'update-customer',
    scopes: [SCOPES.customersWrite],
    // Reads and updates the customer, then finds its accounts (Query) and updates their status copies.
    tableActions: ['GetItem', 'UpdateItem', 'Query'],
  },
  {
    name: 'linkAccount',
    method: 'POST',
    // The spec documents the link call without the version prefix; both paths serve it.
    paths: ['/accounts', '/v1/accounts'],
    handler: 'link-account',
    scopes: [SCOPES.accountsWrite],
    // The transaction puts the account and its guard, checks the customer, and updates the counters.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
  },
  {
    name: 'listAccounts',
    method: 'GET',
    paths: ['/v1/accounts', '/accounts'],
    handler: 'list-accounts',
    scopes: [SCOPES.accountsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getAccount',
    method: 'GET',
    paths: ['/v1/accounts/{id}'],
    handler: 'get-account',
    scopes: [SCOPES.accountsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'registerKey',
    method: 'POST',
    paths: ['/v1/keys'],
    handler: 'register-key',
    scopes: [SCOPES.keysWrite],
    // Reads the account and its customer; the transaction puts the key and its directory entry,
    // checks the customer and the account, and updates the counters.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
  },
  {
    name: 'listKeys',
    method: 'GET',
    paths: ['/v1/keys'],
    handler: 'list-keys',
    scopes: [SCOPES.keysRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getKey',
    method: 'GET',
    paths: ['/v1/keys/{id}'],
    handler: 'get-key',
    scopes: [SCOPES.keysRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'deleteKey',
    method: 'DELETE',
    paths: ['/v1/keys/{id}'],
    handler: 'delete-key',
    scopes: [SCOPES.keysWrite],
    // Reads the key; the transaction updates it and deletes its directory entry.
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem'],
  },
  {
    name: 'suspendKey',
    method: 'PATCH',
    paths: ['/v1/keys/{id}/suspend'],
    handler: 'suspend-key',
    scopes: [SCOPES.keysWrite],
    // Reads the key; the transaction updates it and its directory entry.
    tableActions: ['GetItem', 'UpdateItem'],
  },
  {
    name: 'activateKey',
    method: 'PATCH',
    paths: ['/v1/keys/{id}/activate'],
    handler: 'activate-key',
    scopes: [SCOPES.keysWrite],
    // As suspendKey, and checks that the customer is still ACTIVE.
    tableActions: ['GetItem', 'UpdateItem', 'ConditionCheckItem'],
  },
  {
    name: 'resolveKey',
    method: 'POST',
    paths: ['/v1/resolve-key'],
    handler: 'resolve-key',
    // Resolving reads the directory: a read scope (docs/keys.md); it stores the resolution it answers.
    scopes: [SCOPES.keysRead],
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'validateKey',
    method: 'POST',
    paths: ['/v1/validate-key'],
    handler: 'validate-key',
    // resolve-key's scope: validating reads the same directory entry, with less in the answer
    // (MATCH or NO_MATCH) and nothing stored, so what may resolve a key may validate one. The one
    // GetItem is the directory's; the rest are those of an Idempotency-Key a client may send.
    scopes: [SCOPES.keysRead],
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'getResolution',
    method: 'GET',
    paths: ['/v1/resolutions/{id}'],
    handler: 'get-resolution',
    scopes: [SCOPES.keysRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'createQrCode',
    method: 'POST',
    paths: ['/v1/qrcodes'],
    handler: 'create-qr-code',
    scopes: [SCOPES.qrCodesWrite],
    // Reads the customer and the key; the transaction puts the code and its reference guard,
    // checks the customer, the key and its account, and updates the counters. Signs with the key.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
    secrets: ['qrSigning'],
  },
  {
    name: 'getQrCode',
    method: 'GET',
    paths: ['/v1/qrcodes/{id}'],
    handler: 'get-qr-code',
    scopes: [SCOPES.qrCodesRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listQrCodes',
    method: 'GET',
    paths: ['/v1/qrcodes'],
    handler: 'list-qr-codes',
    scopes: [SCOPES.qrCodesRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'deleteQrCode',
    method: 'DELETE',
    paths: ['/v1/qrcodes/{id}'],
    handler: 'delete-qr-code',
    scopes: [SCOPES.qrCodesWrite],
    tableActions: ['GetItem', 'UpdateItem'],
  },
  {
    name: 'decodeQrCode',
    method: 'POST',
    paths: ['/v1/qrcodes/decode'],
    handler: 'decode-qr-code',
    // Decoding changes nothing: a read scope. It verifies signatures with the signing keys; the
    // table actions are only those of an Idempotency-Key a client may send with any POST.
    scopes: [SCOPES.qrCodesRead],
    tableActions: IDEMPOTENCY_ACTIONS,
    secrets: ['qrSigning'],
  },
  {
    name: 'createPayment',
    method: 'POST',
    paths: ['/v1/payments'],
    handler: 'create-payment',
    scopes: [SCOPES.paymentsWrite],
    // Reads the resolution, the customer, the account and the payee's key and account; the
    // transaction marks the resolution used, checks the customers, updates the balances, puts the
    // payments, their movements and their events, and updates the counters; a PENDING payment's
    // settlement is then scheduled on the settlement queue.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
    queues: ['settlement'],
  },
  {
    name: 'getPayment',
    method: 'GET',
    paths: ['/v1/payments/{id}'],
    handler: 'get-payment',
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listPayments',
    method: 'GET',
    paths: ['/v1/payments'],
    handler: 'list-payments',
    scopes: [SCOPES.paymentsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'createRecipient',
    method: 'POST',
    paths: ['/v1/recipients'],
    handler: 'create-recipient',
    // A recipient is who the client's payments go to: payments data, under the payments scopes.
    scopes: [SCOPES.paymentsWrite],
    // Reads the resolution; the transaction puts the recipient and updates its lists' counters.
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'listRecipients',
    method: 'GET',
    paths: ['/v1/recipients'],
    handler: 'list-recipients',
    scopes: [SCOPES.paymentsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getRecipient',
    method: 'GET',
    paths: ['/v1/recipients/{id}'],
    handler: 'get-recipient',
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'deleteRecipient',
    method: 'DELETE',
    paths: ['/v1/recipients/{id}'],
    handler: 'delete-recipient',
    scopes: [SCOPES.paymentsWrite],
    // Reads the recipient; the transaction deletes it and updates its lists' counters.
    tableActions: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  {
    name: 'createWebhook',
    method: 'POST',
    paths: ['/v1/webhooks'],
    handler: 'create-webhook',
    scopes: [SCOPES.webhooksWrite],
    // The transaction puts the webhook and updates its list's counters.
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'listWebhooks',
    method: 'GET',
    paths: ['/v1/webhooks'],
    handler: 'list-webhooks',
    scopes: [SCOPES.webhooksRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getWebhook',
    method: 'GET',
    paths: ['/v1/webhooks/{id}'],
    handler: 'get-webhook',
    scopes: [SCOPES.webhooksRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'updateWebhook',
    method: 'PATCH',
    paths: ['/v1/webhooks/{id}'],
    handler: 'update-webhook',
    scopes: [SCOPES.webhooksWrite],
    tableActions: ['GetItem', 'UpdateItem'],
  },
  {
    name: 'deleteWebhook',
    method: 'DELETE',
    paths: ['/v1/webhooks/{id}'],
    handler: 'delete-webhook',
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook; the transaction deletes it and updates its list's counters.
    tableActions: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  {
    name: 'rotateWebhookSecret',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/rotate-secret'],
    handler: 'rotate-webhook-secret',
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook and updates its secrets.
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'sendWebhookTest',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/test'],
    handler: 'send-webhook-test',
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook; the transaction puts the test event and its delivery and updates the
    // deliveries' counters (the dispatcher queues it from the stream).
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'listWebhookDeliveries',
    method: 'GET',
    paths: ['/v1/webhooks/{id}/deliveries'],
    handler: 'list-webhook-deliveries',
    scopes: [SCOPES.webhooksRead],
    // Reads the webhook, then a page of its deliveries.
    tableActions: [...LIST_ACTIONS, 'GetItem'],
  },
  {
    name: 'redeliverWebhookDelivery',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver'],
    handler: 'redeliver-webhook-delivery',
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook and the delivery, opens a new round on it, and queues its first attempt.
    tableActions: IDEMPOTENCY_ACTIONS,
    queues: ['webhookDeliveries'],
  },
  {
    name: 'paySandboxQrCode',
    method: 'POST',
    paths: ['/sandbox/qrcodes/{id}/pay'],
    handler: 'pay-sandbox-qr-code',
    scopes: [],
    // Reads the code (and its key when it stopped being ACTIVE); the transaction updates a DYNAMIC
    // code to PAID or checks a static one, checks the customer and the key, credits the account,
    // puts the payment, its movement and its events, and updates the counters.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
    sandbox: true,
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
  {
    name: 'addSandboxDirectoryKey',
    method: 'POST',
    paths: ['/sandbox/directory/keys'],
    handler: 'add-sandbox-directory-key',
    scopes: [],
    tableActions: IDEMPOTENCY_ACTIONS,
    sandbox: true,
  },
];

/** The routes a stage serves: sandbox operator routes only where the sandbox is enabled. */
export const routesFor = (sandboxEnabled: boolean): readonly RouteDefinition[] =>
  routes.filter((route) => !route.sandbox || sandboxEnabled);

export const allScopes: readonly Scope[] = Object.values(SCOPES);

/** Scopes a read-only client receives: every `.read` scope. */
export const readScopes: readonly Scope[] = allScopes.filter((scope) => scope.endsWith('.read'));

/** What a client or a person may do: `full`, every scope; `read`, the read scopes only. */
export type Access = 'full' | 'read';

export const scopesFor = (access: Access): readonly Scope[] => (access === 'full' ? allScopes : readScopes);
