/**
 * The route table: the single source of truth for the HTTP surface. The CDK stack creates one
 * function per entry (with exactly these table actions and these authorizer scopes) and the local
 * server mounts the same entries. Nothing here imports handler code, so the stack can read it cheaply.
 */
import type { QueueName, SecretName } from '../shared/runtime/config';
import type { TableAction } from '../shared/data/table';
import type { ErrorCode, ErrorKind } from '../shared/domain/errors';
import type { SchemaName } from '../shared/schemas/names';

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
const IDEMPOTENCY_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'];

/**
 * A POST that writes nothing puts its answer under the Idempotency-Key in one conditional write, and
 * reads the record that holds the key when it meets one: it never claims.
 */
const ANSWER_RECORD_ACTIONS: readonly TableAction[] = ['GetItem', 'PutItem'];

/** A list answers a page from its counter and the indexes, and writes nothing (shared/data/pagination.ts). */
const LIST_ACTIONS: readonly TableAction[] = ['Query'];

/**
 * Receiving an inbound payment (a QR code's, a key's): reads the client's approval settings (and the
 * code, or its key when it stopped being ACTIVE); one transaction checks the code, the customer and
 * the key, puts the payment and its events, and updates the counters, with the credit and a DYNAMIC
 * code's change to PAID when no approval is asked; with one, the decision's transaction puts the
 * payment again (and those). The decision job, queued first, goes on the settlement queue.
 */
const INBOUND_PAYMENT_ACTIONS: readonly TableAction[] = [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'];

export const routes: readonly RouteDefinition[] = [
  {
    name: 'linkMerchant',
    method: 'POST',
    paths: ['/v1/customers/business/link'],
    handler: 'link-merchant',
    summary: 'Link a merchant approved at the sponsor bank',
    schemas: { body: 'linkMerchantRequestSchema', query: 'emptyQuerySchema', response: 'customerSchema' },
    problems: ['MERCHANT_NOT_APPROVED', 'CUSTOMER_ALREADY_LINKED'],
    scopes: [SCOPES.customersWrite],
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'getCustomer',
    method: 'GET',
    paths: ['/v1/customers/{id}'],
    handler: 'get-customer',
    summary: "Read one of the client's customers",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'customerSchema' },
    problems: [],
    scopes: [SCOPES.customersRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listCustomers',
    method: 'GET',
    paths: ['/v1/customers'],
    handler: 'list-customers',
    summary: "List the client's customers, a page at a time",
    schemas: { body: null, query: 'customerListQuerySchema', response: 'customerListSchema' },
    problems: [],
    scopes: [SCOPES.customersRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'updateCustomer',
    method: 'PATCH',
    paths: ['/v1/customers/{id}'],
    handler: 'update-customer',
    summary: 'Activate or deactivate a customer',
    schemas: { body: 'updateCustomerRequestSchema', query: 'emptyQuerySchema', response: 'customerSchema' },
    problems: ['CONCURRENT_UPDATE'],
    scopes: [SCOPES.customersWrite],
    // Reads and updates the customer, then finds its accounts (Query) and updates their status copies.
    tableActions: ['GetItem', 'UpdateItem', 'Query'],
  },
  {
    name: 'linkAccount',
    method: 'POST',
    // The partner contract documents the link call without the version prefix; both paths serve it.
    paths: ['/accounts', '/v1/accounts'],
    handler: 'link-account',
    summary: 'Link an account the sponsor bank approved for the customer',
    schemas: { body: 'linkAccountRequestSchema', query: 'emptyQuerySchema', response: 'accountSchema' },
    problems: ['NOT_FOUND', 'FORBIDDEN', 'ACCOUNT_NOT_APPROVED', 'CUSTOMER_INACTIVE', 'ACCOUNT_ALREADY_LINKED'],
    scopes: [SCOPES.accountsWrite],
    // The transaction puts the account and its guard, checks the customer, and updates the counters.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
  },
  {
    name: 'listAccounts',
    method: 'GET',
    paths: ['/v1/accounts', '/accounts'],
    handler: 'list-accounts',
    summary: "List the client's accounts, a page at a time",
    schemas: { body: null, query: 'accountListQuerySchema', response: 'accountListSchema' },
    problems: [],
    scopes: [SCOPES.accountsRead],
    // A page of accounts, then their balance items in one BatchGetItem (with the counter's shards on
    // page 1 of a new walk).
    tableActions: [...LIST_ACTIONS, 'BatchGetItem'],
  },
  {
    name: 'listAccountMovements',
    method: 'GET',
    paths: ['/v1/accounts/{id}/movements'],
    handler: 'list-account-movements',
    summary: "List an account's movements (its ledger), a page at a time",
    schemas: { body: null, query: 'movementListQuerySchema', response: 'movementListSchema' },
    problems: [],
    // The history of the balance GET /v1/accounts/{id} shows: read as the account is.
    scopes: [SCOPES.accountsRead],
    // A page of the account's movements, read with the account (its owner) and its balance item (its
    // movement count) in one BatchGetItem, or the account alone when a date range counts the list.
    tableActions: [...LIST_ACTIONS, 'GetItem', 'BatchGetItem'],
  },
  {
    name: 'getAccountStatement',
    method: 'GET',
    paths: ['/v1/accounts/{id}/statements/{date}'],
    handler: 'get-account-statement',
    summary: "An account's statement of a day in Colombia: opening and closing balances, credits and debits",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'statementSchema' },
    problems: [],
    scopes: [SCOPES.accountsRead],
    // Reads the account with its balance item, the first sealed ledger day from the date on, and the
    // day's movements.
    tableActions: ['GetItem', 'Query'],
  },
  {
    name: 'getAccount',
    method: 'GET',
    paths: ['/v1/accounts/{id}'],
    handler: 'get-account',
    summary: "Read one of the client's accounts, with its balances",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'accountSchema' },
    problems: [],
    scopes: [SCOPES.accountsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'registerKey',
    method: 'POST',
    paths: ['/v1/keys'],
    handler: 'register-key',
    summary: "Register a Bre-B key for one of the client's accounts",
    schemas: { body: 'registerKeyRequestSchema', query: 'emptyQuerySchema', response: 'keySchema' },
    problems: ['NOT_FOUND', 'FORBIDDEN', 'ACCOUNT_INACTIVE', 'CUSTOMER_INACTIVE', 'KEY_ALREADY_REGISTERED'],
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
    summary: "List the client's Bre-B keys, a page at a time",
    schemas: { body: null, query: 'keyListQuerySchema', response: 'keyListSchema' },
    problems: [],
    scopes: [SCOPES.keysRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getKey',
    method: 'GET',
    paths: ['/v1/keys/{id}'],
    handler: 'get-key',
    summary: "Read one of the client's Bre-B keys",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
    problems: [],
    scopes: [SCOPES.keysRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'deleteKey',
    method: 'DELETE',
    paths: ['/v1/keys/{id}'],
    handler: 'delete-key',
    summary: 'Delete a key: its value is free again',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
    problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
    scopes: [SCOPES.keysWrite],
    // Reads the key; the transaction updates it, deletes its directory entry and puts its audit event.
    tableActions: ['GetItem', 'UpdateItem', 'DeleteItem', 'PutItem'],
  },
  {
    name: 'suspendKey',
    method: 'PATCH',
    paths: ['/v1/keys/{id}/suspend'],
    handler: 'suspend-key',
    summary: 'Suspend a key: it stops resolving and serving new QR codes',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
    problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
    scopes: [SCOPES.keysWrite],
    // Reads the key; the transaction updates it and its directory entry, and puts its audit event.
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
  },
  {
    name: 'activateKey',
    method: 'PATCH',
    paths: ['/v1/keys/{id}/activate'],
    handler: 'activate-key',
    summary: 'Activate a suspended key again',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
    problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE', 'CUSTOMER_INACTIVE'],
    scopes: [SCOPES.keysWrite],
    // As suspendKey, and checks that the customer is still ACTIVE.
    tableActions: ['GetItem', 'UpdateItem', 'ConditionCheckItem', 'PutItem'],
  },
  {
    name: 'resolveKey',
    method: 'POST',
    paths: ['/v1/resolve-key'],
    handler: 'resolve-key',
    summary: 'Resolve a Bre-B key to its owner, participant and account',
    schemas: { body: 'resolveKeyRequestSchema', query: 'emptyQuerySchema', response: 'resolutionSchema' },
    problems: ['NOT_FOUND', 'FORBIDDEN', 'KEY_NOT_FOUND', 'KEY_LOOKUPS_EXHAUSTED'],
    // Paying's first step, with an identity in the answer: a scope no read-only principal holds
    // (docs/keys.md); it stores the resolution it answers.
    scopes: [SCOPES.keysResolve],
    tableActions: IDEMPOTENCY_ACTIONS,
  },
  {
    name: 'validateKey',
    method: 'POST',
    paths: ['/v1/validate-key'],
    handler: 'validate-key',
    summary: 'Tell whether a person or business owns a Bre-B key',
    schemas: { body: 'validateKeyRequestSchema', query: 'emptyQuerySchema', response: 'keyValidationSchema' },
    problems: ['KEY_LOOKUPS_EXHAUSTED'],
    // resolve-key's scope: validating checks an identity the caller already holds against the
    // directory (MATCH or NO_MATCH, nothing stored), so it is paying's first step too, under the same
    // scope and the same anti-scanning bucket (docs/keys.md). The one GetItem is the directory's; the
    // rest are those of an Idempotency-Key a client may send.
    scopes: [SCOPES.keysResolve],
    tableActions: ANSWER_RECORD_ACTIONS,
  },
  {
    name: 'getResolution',
    method: 'GET',
    paths: ['/v1/resolutions/{id}'],
    handler: 'get-resolution',
    summary: 'Read a key resolution the client made',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'resolutionSchema' },
    problems: [],
    scopes: [SCOPES.keysRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'createQrCode',
    method: 'POST',
    paths: ['/v1/qrcodes'],
    handler: 'create-qr-code',
    summary: "Create a static or dynamic payment QR code for a merchant's key",
    schemas: { body: 'createQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'qrCodeWithImageSchema' },
    problems: [
      'NOT_FOUND',
      'FORBIDDEN',
      'CUSTOMER_INACTIVE',
      'ACCOUNT_INACTIVE',
      'KEY_STATUS_CONFLICT',
      'QR_CODE_REFERENCE_TAKEN',
    ],
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
    summary: "Read one of the client's QR codes, with its image",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'qrCodeWithImageSchema' },
    problems: [],
    scopes: [SCOPES.qrCodesRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listQrCodes',
    method: 'GET',
    paths: ['/v1/qrcodes'],
    handler: 'list-qr-codes',
    summary: "List the client's QR codes, a page at a time, without images",
    schemas: { body: null, query: 'qrCodeListQuerySchema', response: 'qrCodeListSchema' },
    problems: [],
    scopes: [SCOPES.qrCodesRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'deleteQrCode',
    method: 'DELETE',
    paths: ['/v1/qrcodes/{id}'],
    handler: 'delete-qr-code',
    summary: 'Delete a QR code: it can no longer be paid',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'qrCodeSchema' },
    problems: ['QR_CODE_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
    scopes: [SCOPES.qrCodesWrite],
    tableActions: ['GetItem', 'UpdateItem'],
  },
  {
    name: 'decodeQrCode',
    method: 'POST',
    paths: ['/v1/qrcodes/decode'],
    handler: 'decode-qr-code',
    summary: 'Decode any EMVCo merchant-presented QR payload',
    schemas: { body: 'decodeQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'decodedQrCodeSchema' },
    problems: [],
    // Decoding changes nothing: a read scope. It verifies signatures with the signing keys; the
    // table actions are only those of an Idempotency-Key a client may send with any POST.
    scopes: [SCOPES.qrCodesRead],
    tableActions: ANSWER_RECORD_ACTIONS,
    secrets: ['qrSigning'],
  },
  {
    name: 'createPayment',
    method: 'POST',
    paths: ['/v1/payments'],
    handler: 'create-payment',
    summary: "Pay a resolved key or a saved recipient from one of the client's accounts",
    schemas: { body: 'createPaymentRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
    problems: [
      'NOT_FOUND',
      'FORBIDDEN',
      'CUSTOMER_INACTIVE',
      'ACCOUNT_INACTIVE',
      'INSUFFICIENT_FUNDS',
      'AMOUNT_ABOVE_LIMIT',
      'IDEMPOTENCY_KEY_REQUIRED',
      'KEY_NOT_FOUND',
      'RESOLUTION_ALREADY_USED',
      'RECIPIENT_KEY_CHANGED',
    ],
    scopes: [SCOPES.paymentsWrite],
    // Reads the resolution, the customer, the account and the payee's key and account; the
    // transaction marks the resolution used, checks the payer, updates its balance, puts the payment,
    // its movement and its event, and updates the counters; a PENDING payment's settlement is then
    // scheduled on the settlement queue. A payment to one of our merchants then receives the payee's
    // credit as POST /network/v1/credits does (the payee's approval asked), and answers the payment.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
    queues: ['settlement'],
    // Opens the payee's approval secrets to sign its approval request.
    sealing: ['open'],
  },
  {
    name: 'getPayment',
    method: 'GET',
    paths: ['/v1/payments/{id}'],
    handler: 'get-payment',
    summary: "Read one of the client's payments",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'paymentSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listPayments',
    method: 'GET',
    paths: ['/v1/payments'],
    handler: 'list-payments',
    summary: "List the client's payments, a page at a time",
    schemas: { body: null, query: 'paymentListQuerySchema', response: 'paymentListSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    // A page of payments, then their details in one BatchGetItem (with the counter's shards on page 1
    // of a new walk: shared/data/payment-details.ts).
    tableActions: [...LIST_ACTIONS, 'BatchGetItem'],
  },
  {
    name: 'createReport',
    method: 'POST',
    paths: ['/v1/reports'],
    handler: 'create-report',
    summary: "Ask for a CSV report of payments, of an account's movements or of refunds over a period",
    schemas: { body: 'createReportRequestSchema', query: 'emptyQuerySchema', response: 'reportSchema' },
    problems: ['NOT_FOUND'],
    // A report reads what GET /v1/payments, the movements list and GET /v1/refunds read: a read, under
    // the read scope.
    scopes: [SCOPES.paymentsRead],
    // Reads a movements report's account; the transaction puts the report and updates its list's
    // counters; its run is then queued.
    tableActions: IDEMPOTENCY_ACTIONS,
    queues: ['reports'],
  },
  {
    name: 'getReport',
    method: 'GET',
    paths: ['/v1/reports/{id}'],
    handler: 'get-report',
    summary: "Read one of the client's reports, with a download URL that expires once it SUCCEEDED",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'reportSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
    // Presigns the download URL of the report's file.
    reportFiles: ['read'],
  },
  {
    name: 'listReports',
    method: 'GET',
    paths: ['/v1/reports'],
    handler: 'list-reports',
    summary: "List the client's reports, a page at a time",
    schemas: { body: null, query: 'reportListQuerySchema', response: 'reportListSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'createRefund',
    method: 'POST',
    paths: ['/v1/payments/{id}/refunds'],
    handler: 'create-refund',
    summary: "Refund one of the client's INBOUND payments to its payer, in full or in part",
    schemas: { body: 'createRefundRequestSchema', query: 'emptyQuerySchema', response: 'refundSchema' },
    problems: [
      'PAYMENT_NOT_REFUNDABLE',
      'REFUND_EXCEEDS_REMAINING',
      'REFUND_WINDOW_EXPIRED',
      // A conflict with the merchant's balance here (409); a payment answers it 400.
      { code: 'INSUFFICIENT_FUNDS', kind: 'conflict' },
      'IDEMPOTENCY_KEY_REQUIRED',
    ],
    scopes: [SCOPES.paymentsWrite],
    // Reads the key's refund and the payment; the transaction puts the refund, raises the payment's
    // refunded_amount, holds the amount (the account's update and its movement), puts the event and
    // updates the counters; the refund's settlement is then scheduled on the settlement queue.
    tableActions: IDEMPOTENCY_ACTIONS,
    queues: ['settlement'],
  },
  {
    name: 'getRefund',
    method: 'GET',
    paths: ['/v1/refunds/{id}'],
    handler: 'get-refund',
    summary: "Read one of the client's refunds",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'refundSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'listRefunds',
    method: 'GET',
    paths: ['/v1/refunds'],
    handler: 'list-refunds',
    summary: "List the client's refunds, a page at a time",
    schemas: { body: null, query: 'refundListQuerySchema', response: 'refundListSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'createRecipient',
    method: 'POST',
    paths: ['/v1/recipients'],
    handler: 'create-recipient',
    summary: 'Save the payee of a resolution as a recipient',
    schemas: { body: 'createRecipientRequestSchema', query: 'emptyQuerySchema', response: 'recipientSchema' },
    problems: ['NOT_FOUND', 'FORBIDDEN'],
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
    summary: "List the client's recipients, a page at a time",
    schemas: { body: null, query: 'recipientListQuerySchema', response: 'recipientListSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getRecipient',
    method: 'GET',
    paths: ['/v1/recipients/{id}'],
    handler: 'get-recipient',
    summary: "Read one of the client's recipients",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'recipientSchema' },
    problems: [],
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'deleteRecipient',
    method: 'DELETE',
    paths: ['/v1/recipients/{id}'],
    handler: 'delete-recipient',
    summary: 'Delete a recipient',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'recipientSchema' },
    problems: [],
    scopes: [SCOPES.paymentsWrite],
    // Reads the recipient; the transaction deletes it and updates its lists' counters.
    tableActions: ['GetItem', 'DeleteItem', 'UpdateItem'],
  },
  {
    name: 'getInboundApproval',
    method: 'GET',
    paths: ['/v1/settings/inbound-approval'],
    handler: 'get-inbound-approval',
    summary: "Read the client's inbound approval settings, without the secret",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'inboundApprovalSchema' },
    problems: ['NOT_FOUND'],
    scopes: [SCOPES.paymentsRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'putInboundApproval',
    method: 'PUT',
    paths: ['/v1/settings/inbound-approval'],
    handler: 'put-inbound-approval',
    // The settings decide which inbound payments are credited: a payments writer's to change.
    summary: "Replace the client's inbound approval settings; the first PUT shows the signing secret",
    schemas: {
      body: 'putInboundApprovalRequestSchema',
      query: 'emptyQuerySchema',
      response: 'inboundApprovalPutSchema',
    },
    problems: [],
    scopes: [SCOPES.paymentsWrite],
    // Reads the settings and replaces their fields in one transaction with the audit event (made again
    // on what it reads if another request wrote between), or puts the first (only where none is).
    tableActions: ['GetItem', 'PutItem', 'UpdateItem'],
    // The first PUT seals the secret it makes.
    sealing: ['seal'],
  },
  {
    name: 'rotateInboundApprovalSecret',
    method: 'POST',
    paths: ['/v1/settings/inbound-approval/rotate-secret'],
    handler: 'rotate-inbound-approval-secret',
    summary: 'Rotate the inbound approval signing secret; the previous one signs 24 hours more',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'inboundApprovalWithSecretSchema' },
    problems: ['NOT_FOUND', 'CONCURRENT_UPDATE'],
    scopes: [SCOPES.paymentsWrite],
    // Reads the settings and updates their secrets at the version read.
    tableActions: IDEMPOTENCY_ACTIONS,
    // Opens the secrets to keep the previous one, seals them with the new one.
    sealing: ['open', 'seal'],
  },
  {
    name: 'createWebhook',
    method: 'POST',
    paths: ['/v1/webhooks'],
    handler: 'create-webhook',
    summary: 'Create a webhook; the answer shows its signing secret, once',
    schemas: { body: 'createWebhookRequestSchema', query: 'emptyQuerySchema', response: 'webhookWithSecretSchema' },
    problems: [],
    scopes: [SCOPES.webhooksWrite],
    // The transaction puts the webhook and its audit event, and updates its list's counters and its
    // tenant's webhook set.
    tableActions: IDEMPOTENCY_ACTIONS,
    sealing: ['seal'],
  },
  {
    name: 'listWebhooks',
    method: 'GET',
    paths: ['/v1/webhooks'],
    handler: 'list-webhooks',
    summary: "List the client's webhooks, a page at a time",
    schemas: { body: null, query: 'webhookListQuerySchema', response: 'webhookListSchema' },
    problems: [],
    scopes: [SCOPES.webhooksRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'getWebhook',
    method: 'GET',
    paths: ['/v1/webhooks/{id}'],
    handler: 'get-webhook',
    summary: "Read one of the client's webhooks",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookSchema' },
    problems: [],
    scopes: [SCOPES.webhooksRead],
    tableActions: ['GetItem'],
  },
  {
    name: 'updateWebhook',
    method: 'PATCH',
    paths: ['/v1/webhooks/{id}'],
    handler: 'update-webhook',
    summary: "Change a webhook's URL, events, delivery mode, state or description",
    schemas: { body: 'updateWebhookRequestSchema', query: 'emptyQuerySchema', response: 'webhookSchema' },
    problems: ['CONCURRENT_UPDATE'],
    scopes: [SCOPES.webhooksWrite],
    tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
  },
  {
    name: 'deleteWebhook',
    method: 'DELETE',
    paths: ['/v1/webhooks/{id}'],
    handler: 'delete-webhook',
    summary: 'Delete a webhook: nothing more is sent to it',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookSchema' },
    problems: [],
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook; the transaction deletes it, updates its list's counters and its tenant's
    // webhook set, and puts its audit event.
    tableActions: ['GetItem', 'DeleteItem', 'UpdateItem', 'PutItem'],
  },
  {
    name: 'rotateWebhookSecret',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/rotate-secret'],
    handler: 'rotate-webhook-secret',
    summary: "Rotate a webhook's signing secret; the previous one signs for 24 hours more",
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookWithSecretSchema' },
    problems: ['CONCURRENT_UPDATE'],
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook and updates its secrets.
    tableActions: IDEMPOTENCY_ACTIONS,
    sealing: ['open', 'seal'],
  },
  {
    name: 'sendWebhookTest',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/test'],
    handler: 'send-webhook-test',
    summary: 'Send a webhook.test event to a webhook',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookDeliverySchema' },
    problems: ['WEBHOOK_DISABLED'],
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
    summary: "List a webhook's deliveries, each with every attempt",
    schemas: { body: null, query: 'webhookDeliveryListQuerySchema', response: 'webhookDeliveryListSchema' },
    problems: [],
    scopes: [SCOPES.webhooksRead],
    // A page of the webhook's deliveries, read with the webhook: one BatchGetItem with the list's
    // counter, or a GetItem of its own when a filter counts the list instead.
    tableActions: [...LIST_ACTIONS, 'BatchGetItem', 'GetItem'],
  },
  {
    name: 'redeliverWebhookDelivery',
    method: 'POST',
    paths: ['/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver'],
    handler: 'redeliver-webhook-delivery',
    summary: 'Send a delivery again, in a new round of attempts',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookDeliverySchema' },
    problems: ['DELIVERY_IN_PROGRESS', 'CONCURRENT_UPDATE'],
    scopes: [SCOPES.webhooksWrite],
    // Reads the webhook and the delivery, opens a new round on it, and queues its first attempt.
    tableActions: IDEMPOTENCY_ACTIONS,
    queues: ['webhookDeliveries'],
  },
  {
    name: 'listAuditEvents',
    method: 'GET',
    paths: ['/v1/audit-events'],
    handler: 'list-audit-events',
    summary: "List who changed the client's webhooks, approval settings and keys, a page at a time",
    schemas: { body: null, query: 'auditEventListQuerySchema', response: 'auditEventListSchema' },
    problems: [],
    scopes: [SCOPES.auditRead],
    tableActions: LIST_ACTIONS,
  },
  {
    name: 'paySandboxQrCode',
    method: 'POST',
    paths: ['/sandbox/qrcodes/{id}/pay'],
    handler: 'pay-sandbox-qr-code',
    summary: "Sandbox: pay one of the client's QR codes as a shopper would",
    schemas: { body: 'payQrCodeRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
    problems: ['QR_CODE_STATUS_CONFLICT', 'KEY_STATUS_CONFLICT', 'CUSTOMER_INACTIVE', 'AMOUNT_ABOVE_LIMIT'],
    // It moves money into a merchant's balance: what may pay may play the shopper.
    scopes: [SCOPES.paymentsWrite],
    tableActions: INBOUND_PAYMENT_ACTIONS,
    // Opens the approval secrets to sign the approval request.
    sealing: ['open'],
    queues: ['settlement'],
    // Signs its credit with the connector secret, as a shopper's bank would (docs/network.md).
    secrets: ['network'],
    sandbox: true,
  },
  {
    name: 'receiveSandboxInboundPayment',
    method: 'POST',
    paths: ['/sandbox/payments/inbound'],
    handler: 'receive-sandbox-inbound-payment',
    summary: "Sandbox: pay a key of one of the client's merchants from another bank",
    schemas: { body: 'sandboxInboundPaymentRequestSchema', query: 'emptyQuerySchema', response: 'paymentSchema' },
    problems: ['KEY_NOT_FOUND', 'KEY_STATUS_CONFLICT', 'CUSTOMER_INACTIVE', 'AMOUNT_ABOVE_LIMIT'],
    scopes: [SCOPES.paymentsWrite],
    // Reads the key's directory entry and the key; then sends the credit (POST /network/v1/credits's
    // handler, in process: its reads and writes are this function's).
    tableActions: INBOUND_PAYMENT_ACTIONS,
    // Opens the approval secrets to sign the approval request.
    sealing: ['open'],
    queues: ['settlement'],
    // Signs its credit with the connector secret, as a shopper's bank would (docs/network.md).
    secrets: ['network'],
    sandbox: true,
  },
  {
    name: 'approveSponsorBankMerchant',
    method: 'POST',
    paths: ['/sandbox/sponsor-bank/merchants'],
    handler: 'approve-sponsor-bank-merchant',
    summary: 'Sandbox: approve a merchant and its accounts at the sponsor bank',
    schemas: {
      body: 'approveSponsorBankMerchantRequestSchema',
      query: 'emptyQuerySchema',
      response: 'approvedMerchantSchema',
    },
    status: 201,
    problems: [],
    // Plays the sponsor bank: only full-access clients and admins (docs/sandbox.md).
    scopes: [SCOPES.sandboxOperate],
    tableActions: [...IDEMPOTENCY_ACTIONS, 'Query'],
    sandbox: true,
  },
  {
    name: 'addSandboxDirectoryKey',
    method: 'POST',
    paths: ['/sandbox/directory/keys'],
    handler: 'add-sandbox-directory-key',
    summary: 'Sandbox: add a key of someone at another participant to the directory',
    schemas: {
      body: 'sandboxDirectoryKeyRequestSchema',
      query: 'emptyQuerySchema',
      response: 'sandboxDirectoryKeySchema',
    },
    status: 201,
    problems: ['KEY_ALREADY_REGISTERED'],
    // Writes the directory every tenant shares: only full-access clients and admins (docs/sandbox.md).
    scopes: [SCOPES.sandboxOperate],
    // One transaction puts the entry and checks the sponsor bank's merchants of the NITs it names.
    tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
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
