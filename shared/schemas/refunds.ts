/**
 * Refund schemas (docs/refunds.md): a merchant giving an INBOUND payment's money back to its payer,
 * in full or in parts (POST /v1/payments/{id}/refunds), reading and listing refunds.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { closedObject, moneySchema, text, TIMESTAMP, UUID } from './common';
import { listAnswer, listQueryUnderCustomer } from './lists';
import { paymentAmountSchema, paymentReviewSchema } from './payments';

/** PENDING: held and sent to the network; then SETTLED (the payer has it) or REJECTED (hold released). */
export const REFUND_STATUSES = ['PENDING', 'SETTLED', 'REJECTED'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/**
 * Why a refund was rejected: by the network, as a payment to another participant is; or, refunding
 * one of our own merchants, because its account or merchant can no longer receive it.
 */
export const REFUND_REJECTION_REASONS = ['NETWORK_REJECTED', 'NETWORK_REFUSED_ORDER', 'PAYER_INACTIVE'] as const;
export type RefundRejectionReason = (typeof REFUND_REJECTION_REASONS)[number];

/** The most characters of a refund's reason (design: text up to 140). */
export const MAX_REFUND_REASON_LENGTH = 140;

/** POST /v1/payments/{id}/refunds: without `amount`, what is left to refund of the payment. */
export const createRefundRequestSchema = closedObject({
  amount: paymentAmountSchema,
  reason: text(MAX_REFUND_REASON_LENGTH),
});

export type CreateRefundRequest = FromSchema<typeof createRefundRequestSchema>;

export const refundListQuerySchema = listQueryUnderCustomer({
  payment_id: UUID,
  status: { type: 'string', enum: REFUND_STATUSES },
});

export type RefundListQuery = FromSchema<typeof refundListQuerySchema>;

/** A refund, as every refund route and the refund events answer it (docs/refunds.md). */
export const refundSchema = closedObject(
  {
    id: UUID,
    payment_id: UUID,
    customer_id: UUID,
    account_id: UUID,
    amount: moneySchema,
    reason: text(MAX_REFUND_REASON_LENGTH),
    status: { type: 'string', enum: REFUND_STATUSES },
    rejection_reason: { type: 'string', enum: REFUND_REJECTION_REASONS },
    review: paymentReviewSchema,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  },
  ['id', 'payment_id', 'customer_id', 'account_id', 'amount', 'status', 'created_at', 'updated_at'],
);

export const refundListSchema = listAnswer('refunds', refundSchema);
