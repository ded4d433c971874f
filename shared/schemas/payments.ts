/**
 * Payment schemas: paying a resolved key or a recipient (POST /v1/payments), the sandbox's shopper
 * paying a QR code, reading and listing payments.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, amountValue, closedObject, COP, matching, moneySchema, text, TIMESTAMP, UUID } from './common';
import { keyAccountSchema, keyOfAnyType, keyOwnerSchema, participantSchema, typedKeySchema } from './keys';
import { listAnswer, listQueryUnderCustomer } from './lists';

/**
 * PENDING: an OUTBOUND payment waiting for the network's answer; PROCESSING: an INBOUND one waiting
 * for the client's approval (docs/inbound-approval.md).
 */
export const PAYMENT_STATUSES = ['PENDING', 'PROCESSING', 'SETTLED', 'REJECTED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const PAYMENT_DIRECTIONS = ['OUTBOUND', 'INBOUND'] as const;
export type PaymentDirection = (typeof PAYMENT_DIRECTIONS)[number];

/**
 * How an INBOUND payment was decided (docs/inbound-approval.md): by the client's callback (ACCEPTED,
 * REFUSED), by its auto_approve_on_error setting when the callback gave no usable answer
 * (AUTO_APPROVED, AUTO_REJECTED), or without asking, approval being off (NOT_REQUIRED).
 */
export const APPROVALS = ['ACCEPTED', 'REFUSED', 'AUTO_APPROVED', 'AUTO_REJECTED', 'NOT_REQUIRED'] as const;
export type Approval = (typeof APPROVALS)[number];

/**
 * Why a payment was refused: by our sponsor bank as the participant of a merchant that cannot
 * receive, by the network for a payee at another participant, or by the payee's approval callback
 * (APPROVAL_REFUSED) or for want of a usable answer from it (APPROVAL_FAILED): an INBOUND payment's,
 * and an OUTBOUND payment's to one of our merchants; or because another payment of its DYNAMIC QR
 * code was accepted first (QR_CODE_NOT_PAYABLE).
 */
export const REJECTION_REASONS = [
  'PAYEE_INACTIVE',
  'NETWORK_REJECTED',
  // The sponsor bank's connector refused the order itself, for good (a 4xx but 408 and 429).
  'NETWORK_REFUSED_ORDER',
  'APPROVAL_REFUSED',
  'APPROVAL_FAILED',
  'QR_CODE_NOT_PAYABLE',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/**
 * A COP amount with two decimals and at most 13 integer digits: every amount is then a safe integer
 * of cents (shared/domain/money.ts). That it is above zero is a rule of the domain (its own message).
 */
export const PAYMENT_AMOUNT_VALUE = amountValue(13);

export const paymentAmountSchema = allRequired({ value: PAYMENT_AMOUNT_VALUE, currency: COP });

/**
 * POST /v1/payments: the payee is a resolution (`resolution_id`) or a saved recipient
 * (`recipient_id`). Exactly one of them is a rule of the domain (shared/domain/pay-recipient.ts),
 * which names the field in its message, as a schema's oneOf would not.
 */
export const createPaymentRequestSchema = closedObject(
  {
    customer_id: UUID,
    account_id: UUID,
    resolution_id: UUID,
    recipient_id: UUID,
    amount: paymentAmountSchema,
    description: text(140),
  },
  ['customer_id', 'account_id', 'amount'],
);

export type CreatePaymentRequest = FromSchema<typeof createPaymentRequestSchema>;

/**
 * POST /sandbox/qrcodes/{id}/pay: what the shopper's wallet sends. `amount` only for a static code
 * without an amount (the payer types it); `tip` only for a code whose tip_type is REQUEST.
 */
export const payQrCodeRequestSchema = closedObject({ amount: paymentAmountSchema, tip: paymentAmountSchema });

export type PayQrCodeRequest = FromSchema<typeof payQrCodeRequestSchema>;

/**
 * POST /sandbox/payments/inbound (docs/sandbox.md): someone at another bank pays a key of one of the
 * client's merchants. The key as resolve-key takes it (key_type optional, then inferred).
 */
export const sandboxInboundPaymentRequestSchema = closedObject(
  { key: keyOfAnyType, amount: paymentAmountSchema, description: text(140) },
  ['key', 'amount'],
);

export type SandboxInboundPaymentRequest = FromSchema<typeof sandboxInboundPaymentRequestSchema>;

/** A Bre-B end-to-end id: 1 to 35 letters and digits. */
export const END_TO_END_ID = matching('^[A-Za-z0-9]{1,35}$', 'must be 1 to 35 letters and digits');

export const QR_CODE_REFERENCE = matching('^[A-Za-z0-9.]{1,64}$', 'must be 1 to 64 letters, digits or dots');

export const paymentListQuerySchema = listQueryUnderCustomer({
  account_id: UUID,
  direction: { type: 'string', enum: PAYMENT_DIRECTIONS },
  status: { type: 'string', enum: PAYMENT_STATUSES },
  // The prefixed form a QR payment carries: CO.COM.<ACQUIRER>.TRXIDP<reference>.
  qr_code_reference: QR_CODE_REFERENCE,
  // Exactly this amount, e.g. 58000.00.
  amount: PAYMENT_AMOUNT_VALUE,
  // Words each starting one of the payment's (reference, description, the other side's names and
  // document), in any case and with or without accents; or the payment's id.
  search: text(100),
});

export type PaymentListQuery = FromSchema<typeof paymentListQuerySchema>;

/** A payee as a key's resolution shows it: whom an OUTBOUND payment pays, all of it known. */
export const resolvedCounterpartySchema = closedObject(
  { key: typedKeySchema, owner: keyOwnerSchema, participant: participantSchema, account: keyAccountSchema },
  ['owner', 'participant', 'account'],
);

/**
 * Who an INBOUND payment's payer is, as far as it is known: the whole owner for a payment from one of
 * our merchants or the sandbox's shopper; for a credit from the network (docs/network.md), the `name`
 * its bank sent, and its identification when the bank sent it (a credit names no `type`).
 */
export const counterpartyOwnerSchema = closedObject({ ...keyOwnerSchema.properties, name: text(140) });

/**
 * The other side of a payment: the payee of an OUTBOUND payment (always all of it: the resolution's),
 * the payer of an INBOUND one. A credit from the network carries no payer's account, so `account` is
 * absent on those, and `owner` holds what the payer's bank sent.
 */
export const counterpartySchema = closedObject(
  {
    key: typedKeySchema,
    owner: counterpartyOwnerSchema,
    participant: participantSchema,
    account: keyAccountSchema,
  },
  ['owner', 'participant'],
);

/**
 * A transfer the network has not answered for TRANSFER_REVIEW_AFTER_MS (docs/network.md, "Review"):
 * since when it waits for an operator to apply the bank's confirmed answer, its amount still held.
 * A refund's transfer carries the same (the clients' document names no `Transfer` schema: those are
 * the connector's).
 */
export const TRANSFER_REVIEW_REASONS = ['NO_NETWORK_ANSWER'] as const;
export const paymentReviewSchema = closedObject(
  { since: TIMESTAMP, reason: { type: 'string', enum: TRANSFER_REVIEW_REASONS } },
  ['since', 'reason'],
);
export type TransferReview = FromSchema<typeof paymentReviewSchema>;

/** A payment, as every payment route and the payment events answer it (docs/payments.md). */
export const paymentSchema = closedObject(
  {
    id: UUID,
    status: { type: 'string', enum: PAYMENT_STATUSES },
    direction: { type: 'string', enum: PAYMENT_DIRECTIONS },
    customer_id: UUID,
    account_id: UUID,
    amount: moneySchema,
    tip: moneySchema,
    description: text(140),
    resolution_id: UUID,
    recipient_id: UUID,
    qr_code_id: UUID,
    qr_code_reference: QR_CODE_REFERENCE,
    // INBOUND payments credited through the network (docs/network.md): the credit's end-to-end id.
    end_to_end_id: END_TO_END_ID,
    counterparty: counterpartySchema,
    rejection_reason: { type: 'string', enum: REJECTION_REASONS },
    review: paymentReviewSchema,
    approval: { type: 'string', enum: APPROVALS },
    approval_error: text(300),
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    settled_at: TIMESTAMP,
    // INBOUND payments: the sum of their refunds not REJECTED (docs/refunds.md).
    refunded_amount: moneySchema,
    // INBOUND payments the sponsor bank took money back from: the sum of its reversals (docs/network.md).
    reversed_amount: moneySchema,
  },
  ['id', 'status', 'direction', 'customer_id', 'account_id', 'amount', 'counterparty', 'created_at', 'updated_at'],
);

export const paymentListSchema = listAnswer('payments', paymentSchema);

const DAY = { type: 'string', format: 'date' } as const;

/** GET /v1/payment-totals: a period of Bogotá days (at most 92), the tenant's or one merchant's. */
export const paymentTotalsQuerySchema = closedObject({ from: DAY, to: DAY, customer_id: UUID }, ['from', 'to']);

export type PaymentTotalsQuery = FromSchema<typeof paymentTotalsQuerySchema>;

/** How many payments of a status, and their amount. */
const statusFigureSchema = allRequired({ count: { type: 'integer', minimum: 0 }, amount: moneySchema });

/** The payments received (INBOUND) and sent (OUTBOUND), by status: a payment counts on the day it was made. */
const dayFiguresProperties = {
  received: allRequired({ settled: statusFigureSchema, processing: statusFigureSchema, rejected: statusFigureSchema }),
  sent: allRequired({ settled: statusFigureSchema, pending: statusFigureSchema, rejected: statusFigureSchema }),
} as const;

/** The daily totals of a period (docs/payments.md, "Daily totals"): each day's figures, and their sum. */
export const paymentTotalsSchema = closedObject(
  {
    from: DAY,
    to: DAY,
    customer_id: UUID,
    totals: allRequired(dayFiguresProperties),
    days: { type: 'array', items: allRequired({ date: DAY, ...dayFiguresProperties }) },
  },
  ['from', 'to', 'totals', 'days'],
);
