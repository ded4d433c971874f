/**
 * Reconciliation with the sponsor bank (docs/reconciliation.md, "Against the bank"): a Bogotá day's
 * settlement file from the bank, matched with the client's payments and refunds, answered as the
 * day's summary and its breaks, each client seeing only its own accounts'.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, closedObject, moneySchema, TIMESTAMP, UUID } from './common';
import { END_TO_END_ID } from './payments';
import { listAnswer, listQuery } from './lists';

/**
 * NOT_RECEIVED: the bank sent no file for the day; PENDING: a file (or a new one replacing it) is
 * being matched; MATCHED: every movement on the client's accounts agrees; BREAKS: some do not.
 */
export const RECONCILIATION_STATUSES = ['NOT_RECEIVED', 'PENDING', 'MATCHED', 'BREAKS'] as const;
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number];

/**
 * Why a movement does not match: the bank settled it and we have no such transfer (MISSING_HERE); we
 * settled it that day and the bank did not list it (MISSING_AT_BANK); both have it with other amounts
 * (AMOUNT_MISMATCH); the bank settled it and here it is not SETTLED (STATUS_MISMATCH).
 */
export const BREAK_KINDS = ['MISSING_HERE', 'MISSING_AT_BANK', 'AMOUNT_MISMATCH', 'STATUS_MISMATCH'] as const;
export type BreakKind = (typeof BREAK_KINDS)[number];

/** A day in Colombia (America/Bogota), as the path names it. */
const DAY = { type: 'string', format: 'date' } as const;

/** `GET /v1/settlement-reconciliations/{date}`: the day, for the caller's accounts only. */
export const settlementReconciliationSchema = allRequired({
  date: DAY,
  status: { type: 'string', enum: RECONCILIATION_STATUSES },
  /** The bank's lines that matched a transfer of the client's, and their amounts added up. */
  matched: allRequired({ count: { type: 'integer', minimum: 0 }, amount: moneySchema }),
  breaks: allRequired({ count: { type: 'integer', minimum: 0 } }),
});

export type SettlementReconciliation = FromSchema<typeof settlementReconciliationSchema>;

/** One break: the movement, the side that has it, and each side's amount where it has one. */
export const settlementBreakSchema = closedObject(
  {
    id: UUID,
    kind: { type: 'string', enum: BREAK_KINDS },
    end_to_end_id: END_TO_END_ID,
    /** The account's side of the movement: CREDIT money in, DEBIT money out. */
    direction: { type: 'string', enum: ['CREDIT', 'DEBIT'] },
    /** Our transfer, when we have one: a payment, or a refund. */
    payment_id: UUID,
    refund_id: UUID,
    account_id: UUID,
    /** Our amount (absent for MISSING_HERE). */
    amount_here: moneySchema,
    /** The bank's amount, its lines of the movement added up (absent for MISSING_AT_BANK). */
    amount_at_bank: moneySchema,
    created_at: TIMESTAMP,
  },
  ['id', 'kind', 'end_to_end_id', 'direction', 'account_id', 'created_at'],
);

export type SettlementBreak = FromSchema<typeof settlementBreakSchema>;

/** The list conventions: pages, order by creation, the date filters. */
export const settlementBreakListQuerySchema = listQuery({});

export type SettlementBreakListQuery = FromSchema<typeof settlementBreakListQuerySchema>;

export const settlementBreakListSchema = listAnswer('breaks', settlementBreakSchema);
