/**
 * The words of the OpenAPI document that no route or schema carries: what the API is, what each
 * group of operations is for, and the shared headers. Everything else in the document is derived
 * (tools/openapi/document.ts). docs/contract.md says the same at length.
 */
import type { JsonObject } from './components';

export const INFO_DESCRIPTION = [
  'Platforms link merchants approved at the sponsor bank, link their bank accounts, register their Bre-B',
  'keys, print EMVCo payment QR codes, resolve keys and pay, and hear about payments on signed webhooks.',
  '',
  '- Every operation takes an OAuth2 bearer token (client credentials); the client is the tenant and sees',
  "  only what it created: another client's record is 403, an unknown one 404.",
  '- Bodies are JSON. Unknown fields and unknown query parameters are refused (400). Creates answer 200.',
  '- Money is a string with two decimals in COP (`"15000.00"`); timestamps are ISO 8601 UTC with',
  '  milliseconds; ids are UUIDs.',
  '- Errors are `application/problem+json` (RFC 9457) with a stable `code`; each operation lists the codes',
  '  it can answer under each status.',
  '- Any POST takes an `Idempotency-Key`: the same key and body within 24 hours answer the first answer',
  '  again, without a second write.',
  '- Lists answer a page (`page_size` 1 to 100, default 10; `page_number`) with `pagination_info`; send',
  '  `first_request_timestamp` back to walk one snapshot while new records arrive.',
].join('\n');

export const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Customers: 'Business customers (merchants) linked after the sponsor bank approved them.',
  Accounts: "The customers' ORDINARY accounts at the sponsor bank, with their balances.",
  Keys: "The merchants' Bre-B keys; resolving and validating any key of the directory.",
  'QR codes': 'EMVCo payment QR codes, static or dynamic, for a merchant key; decoding any payload.',
  Payments: 'Payments to a resolved key or a saved recipient, payments received, recipients, and CSV reports.',
  Webhooks: 'Where payment events are sent, signed (Standard Webhooks), and every delivery made.',
  Audit: "Who changed the client's webhooks, inbound approval settings and keys, and how.",
  Sandbox: 'Operator tools of the sandbox stages (absent on production): approvals, directory keys, a shopper.',
};

/**
 * What API Gateway answers itself on a deployed stage, before any function, where the local server
 * answers a problem: said under the statuses concerned (docs/errors.md, Deployed on AWS).
 */
export const DEPLOYED_ANSWERS: Readonly<Record<number, string>> = {
  401: 'Deployed, API Gateway refuses the token itself: `{"message": "Unauthorized"}`, the reason in `WWW-Authenticate`.',
  403: 'Deployed, API Gateway refuses a token without the scope itself: `{"message": "Forbidden"}`.',
  429: 'Deployed, the stage\'s throttling is API Gateway\'s: `{"message": "Too Many Requests"}`.',
};

export const IDEMPOTENCY_KEY: JsonObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes the POST safe to retry: within 24 hours the same key with the same request answers the first ' +
    'answer again (with `Idempotent-Replayed: true`), and with another request 409 IDEMPOTENCY_KEY_REUSED. ' +
    'Paying a recipient requires one.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
};

export const HEADERS: JsonObject = {
  RequestId: {
    description: 'The id of the request, on every answer: quote it to support.',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: 'Present when the answer is the replay of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', const: 'true' },
  },
  IdempotentReplayWithheld: {
    description:
      'On a replay only: the fields the first answer showed once and the replay leaves out (`secret`: a ' +
      'signing secret is never kept with the recorded answer). Rotate the secret to see a new one.',
    schema: { type: 'string', example: 'secret' },
  },
  RetryAfter: {
    description: 'Whole seconds to wait before sending the request again.',
    schema: { type: 'integer', minimum: 1 },
  },
  WwwAuthenticate: {
    description: 'The RFC 6750 challenge: which check the token failed, or the scope the operation needs.',
    schema: { type: 'string' },
  },
};
