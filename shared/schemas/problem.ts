/**
 * The one shape of every error answer: RFC 9457 problem details, served as application/problem+json
 * (docs/errors.md). `code` is the stable member a client branches on; which codes an operation can
 * answer is the OpenAPI document's to say, per operation and status (tools/openapi/problems.ts). The
 * members after request_id are the extensions some codes carry, each naming what the problem is about.
 */
import { allRequired, closedObject, matching, moneySchema, UUID } from './common';
import { KEY_STATUSES } from './keys';
import { QR_CODE_STATUSES } from './qrcodes';

/** One invalid part of a request: a body field's dotted path, a query parameter, or a header. */
export const fieldErrorSchema = allRequired({ field: { type: 'string' }, message: { type: 'string' } });

export const problemSchema = closedObject(
  {
    type: matching('^urn:breb:problem:[a-z_]+$', 'must be urn:breb:problem: and the code in lower case'),
    title: { type: 'string', minLength: 1 },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string', minLength: 1 },
    code: matching('^[A-Z][A-Z_]*[A-Z]$', 'must be an UPPER_SNAKE code of docs/errors.md'),
    request_id: { type: 'string', minLength: 1 },
    errors: { type: 'array', minItems: 1, items: fieldErrorSchema },
    customer_id: UUID,
    account_id: UUID,
    qr_code_id: UUID,
    payment_id: UUID,
    recipient_id: UUID,
    key_status: { type: 'string', enum: KEY_STATUSES },
    qr_code_status: { type: 'string', enum: QR_CODE_STATUSES },
    // AMOUNT_ABOVE_LIMIT: the stage's maximum for one payment.
    max_amount: moneySchema,
    // WEBHOOK_LIMIT_REACHED: how many webhooks a client may have.
    limit: { type: 'integer', minimum: 1 },
  },
  ['type', 'title', 'status', 'detail', 'code', 'request_id'],
);
