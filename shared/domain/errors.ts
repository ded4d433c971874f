/**
 * The error catalog: every `code` a client can receive, with the kind of failure it is. Domain rules
 * throw `AppError` by code; the HTTP layer maps the kind to a status (shared/http/problem.ts).
 * docs/errors.md documents each code; a unit test keeps the two in step. A code has one kind, unless
 * its entry names another (`alsoKind`) that some rule raises it as, which docs/errors.md says too.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

export const ERROR_CATALOG = {
  VALIDATION_FAILED: { kind: 'invalid', title: 'The request is not valid' },
  MALFORMED_JSON: { kind: 'invalid', title: 'The body is not well-formed JSON' },
  MERCHANT_NOT_APPROVED: { kind: 'invalid', title: 'The merchant is not approved at the sponsor bank' },
  ACCOUNT_NOT_APPROVED: {
    kind: 'invalid',
    title: "The account is not approved at the sponsor bank for this customer's NIT",
  },
  CUSTOMER_INACTIVE: {
    kind: 'invalid',
    title: 'The customer is inactive',
    // A refund of an inactive merchant's payment is refused as a conflict with the merchant's state,
    // as a refund's other refusals are; a payment's 400 stays, clients rely on it.
    alsoKind: 'conflict',
  },
  ACCOUNT_INACTIVE: { kind: 'invalid', title: 'The account is not active', alsoKind: 'conflict' },
  AMOUNT_ABOVE_LIMIT: { kind: 'invalid', title: 'The amount is above the maximum of one payment' },
  INSUFFICIENT_FUNDS: {
    kind: 'invalid',
    title: "The account's available balance does not cover the amount",
    // A refund answers it 409, as the contract says of refunds; a payment's 400 stays, clients rely on it.
    alsoKind: 'conflict',
  },
  IDEMPOTENCY_KEY_REQUIRED: { kind: 'invalid', title: 'This request needs an Idempotency-Key' },
  UNAUTHORIZED: { kind: 'unauthorized', title: 'The access token is missing, invalid or expired' },
  NETWORK_SIGNATURE_INVALID: { kind: 'unauthorized', title: 'The request is not signed by the network connector' },
  TRANSFER_MISMATCH: {
    kind: 'unprocessable',
    title: "The callback's transfer_id or end_to_end_id is not the transfer its path names",
  },
  INSUFFICIENT_SCOPE: { kind: 'forbidden', title: 'The access token lacks the scope this operation needs' },
  FORBIDDEN: { kind: 'forbidden', title: 'The resource belongs to another client' },
  DOWNLOAD_URL_REFUSED: { kind: 'forbidden', title: 'The download URL was altered or has expired' },
  NOT_FOUND: { kind: 'not_found', title: 'The resource does not exist' },
  KEY_NOT_FOUND: { kind: 'not_found', title: 'No key of the Bre-B directory matches' },
  ROUTE_NOT_FOUND: { kind: 'not_found', title: 'No such route' },
  METHOD_NOT_ALLOWED: { kind: 'method_not_allowed', title: 'The route does not accept this method' },
  CUSTOMER_ALREADY_LINKED: { kind: 'conflict', title: 'This merchant is already linked' },
  ACCOUNT_ALREADY_LINKED: { kind: 'conflict', title: 'This account is already linked to the customer' },
  KEY_ALREADY_REGISTERED: { kind: 'conflict', title: 'This key is already registered in the Bre-B directory' },
  KEY_STATUS_CONFLICT: { kind: 'conflict', title: "The key's status does not allow this change" },
  QR_CODE_REFERENCE_TAKEN: { kind: 'conflict', title: 'The merchant already has a QR code with this reference' },
  WEBHOOK_LIMIT_REACHED: { kind: 'conflict', title: 'The client has as many webhooks as it may' },
  QR_CODE_STATUS_CONFLICT: { kind: 'conflict', title: "The QR code's status does not allow this change" },
  CONCURRENT_UPDATE: { kind: 'conflict', title: 'The resource was changed by another request at the same time' },
  IDEMPOTENCY_KEY_REUSED: { kind: 'conflict', title: 'The Idempotency-Key was used with another request' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: {
    kind: 'conflict',
    title: 'A request with this Idempotency-Key is still in progress',
  },
  RESOLUTION_ALREADY_USED: {
    kind: 'conflict',
    title: 'A payment with another request was already made with this resolution',
  },
  RECIPIENT_KEY_CHANGED: {
    kind: 'conflict',
    title: "The recipient's key now names another owner or account",
  },
  PAYMENT_NOT_REFUNDABLE: {
    kind: 'conflict',
    title: 'Only a SETTLED INBOUND payment can be refunded',
  },
  REFUND_EXCEEDS_REMAINING: {
    kind: 'conflict',
    title: 'The refund is more than what is left to refund of the payment',
  },
  REFUND_WINDOW_EXPIRED: { kind: 'conflict', title: 'The payment is older than its refund window' },
  WEBHOOK_DISABLED: { kind: 'conflict', title: 'The webhook is disabled' },
  DELIVERY_IN_PROGRESS: { kind: 'conflict', title: 'The delivery cannot be sent again now' },
  CREDIT_IN_PROGRESS: { kind: 'conflict', title: 'The same credit is still being decided: send it again' },
  REVERSAL_EXCEEDS_PAYMENT: {
    kind: 'conflict',
    title: 'The reversal is more than what is left of the payment after its refunds and reversals',
  },
  REVERSAL_ID_REUSED: { kind: 'conflict', title: 'The reversal_id was given to another reversal' },
  END_TO_END_ID_REUSED: {
    kind: 'conflict',
    title: 'The end_to_end_id was given to a credit of another amount, creditor or debtor',
  },
  PAYLOAD_TOO_LARGE: { kind: 'payload_too_large', title: 'The body is larger than 64 KiB' },
  UNSUPPORTED_MEDIA_TYPE: { kind: 'unsupported_media_type', title: 'The body must be application/json' },
  HEADERS_TOO_LARGE: { kind: 'headers_too_large', title: 'The request line and headers are too large' },
  RATE_LIMITED: { kind: 'rate_limited', title: 'Too many requests' },
  KEY_LOOKUPS_EXHAUSTED: {
    kind: 'rate_limited',
    title: "The client's directory lookups are spent for now (misses cost more than hits)",
  },
  REPORTS_BUSY: { kind: 'rate_limited', title: 'The client has as many reports pending as it may' },
  LOOKUP_LIMITED: { kind: 'rate_limited', title: "The network's directory limits lookups for now" },
  INTERNAL_ERROR: { kind: 'internal', title: 'Unexpected error' },
  SERVICE_UNAVAILABLE: { kind: 'unavailable', title: 'The service is temporarily unavailable' },
} as const satisfies Record<string, CatalogEntry>;

interface CatalogEntry {
  readonly kind: ErrorKind;
  readonly title: string;
  readonly alsoKind?: ErrorKind;
}

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** The kinds a code can be raised as: its own first. */
export function kindsOf(code: ErrorCode): readonly ErrorKind[] {
  const entry: CatalogEntry = ERROR_CATALOG[code];
  return entry.alsoKind === undefined ? [entry.kind] : [entry.kind, entry.alsoKind];
}

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

/** Extra members of the problem body, e.g. `errors` for validation or `customer_id` on a conflict. */
export type ErrorExtensions = { readonly errors?: readonly FieldError[] } & Record<string, unknown>;

export class AppError extends Error {
  readonly kind: ErrorKind;

  /** `kind`: one of the code's kinds (kindsOf); by default its own. */
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extensions: ErrorExtensions = {},
    kind: ErrorKind = ERROR_CATALOG[code].kind,
  ) {
    super(detail);
    if (!kindsOf(code).includes(kind)) throw new Error(`${code} is not raised as ${kind}`);
    this.name = 'AppError';
    this.kind = kind;
  }
}

/** A refusal the client may send again once `retryAfterSeconds` have passed: answered with Retry-After. */
export class RetryLater extends AppError {
  constructor(
    code: ErrorCode,
    detail: string,
    readonly retryAfterSeconds: number,
  ) {
    super(code, detail);
  }
}

export const invalidField = (field: string, message: string): AppError =>
  new AppError('VALIDATION_FAILED', `${field} ${message}`, { errors: [{ field, message }] });
