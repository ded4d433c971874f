/**
 * An account's ledger (docs/reconciliation.md): GET /v1/accounts/{id}/movements and
 * GET /v1/accounts/{id}/statements/{date}.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, closedObject, COP, matching, moneySchema, TIMESTAMP, UUID } from './common';
import { listAnswer, pageQueryProperties } from './lists';

export const MOVEMENT_KINDS = ['OPENING_BALANCE', 'PAYMENT', 'REFUND', 'HOLD_RELEASE', 'REVERSAL'] as const;

/** A signed COP amount: a debit is negative, e.g. "-15000.00". */
export const signedMoneySchema = /* @__PURE__ */ allRequired({
  currency: COP,
  value: matching('^-?(0|[1-9][0-9]{0,14})\\.[0-9]{2}$', 'must be a signed amount with two decimals, e.g. -15000.00'),
});

/** Movements never change: they are listed by created_at only, without the updated_* parameters. */
export const movementListQuerySchema = /* @__PURE__ */ closedObject({
  page_size: pageQueryProperties.page_size,
  page_number: pageQueryProperties.page_number,
  order_key: { type: 'string', enum: ['created_at'] },
  order_direction: pageQueryProperties.order_direction,
  first_request_timestamp: pageQueryProperties.first_request_timestamp,
  created_at: pageQueryProperties.created_at,
  created_from: pageQueryProperties.created_from,
  created_to: pageQueryProperties.created_to,
});

export type MovementListQuery = FromSchema<typeof movementListQuerySchema>;

/** One change of an account's available balance and what caused it. */
export const movementSchema = /* @__PURE__ */ closedObject(
  {
    id: UUID,
    kind: { type: 'string', enum: MOVEMENT_KINDS },
    amount: signedMoneySchema,
    payment_id: UUID,
    refund_id: UUID,
    created_at: TIMESTAMP,
  },
  ['id', 'kind', 'amount', 'created_at'],
);

export const movementListSchema = /* @__PURE__ */ listAnswer('movements', movementSchema);

/** The day's credits, or its debits: how many, and their amounts added up (a positive amount). */
const dayTotalSchema = /* @__PURE__ */ allRequired({
  count: { type: 'integer', minimum: 0 },
  amount: moneySchema,
});

/** A Colombian day of an account: opening + credits - debits = closing. */
export const statementSchema = /* @__PURE__ */ allRequired({
  account_id: UUID,
  date: { type: 'string', format: 'date' },
  opening_balance: signedMoneySchema,
  closing_balance: signedMoneySchema,
  credits: dayTotalSchema,
  debits: dayTotalSchema,
});
