/**
 * Reversals (docs/network.md, "Reversals"): the sponsor bank takes back money it credited to one of
 * our merchants through the network (fraud, a mistaken credit). A reversal is applied once per
 * `reversal_id`, in full: the merchant's account is debited even below zero (the bank has already
 * taken the money; the NegativeBalances alarm tells an operator), the payment's `reversed_amount`
 * grows, and `payment.reversed` reports it. A payment is never taken back beyond what is left of it
 * after its refunds and earlier reversals.
 */
import type { ReversalAnswer, ReversalRequest } from '../schemas/network';
import type { NewRecords } from './clock';
import { AppError } from './errors';
import { newEvent, type DomainEvent } from './events';
import { cop, formatCents, parseCents } from './money';
import { creditPaymentId } from './network-credits';
import { publicPayment, remainingCents, type StoredPayment } from './payments';

export interface StoredReversal {
  readonly reversal_id: string;
  readonly tenant: string;
  readonly end_to_end_id: string;
  readonly payment_id: string;
  readonly account_id: string;
  readonly amount_cents: number;
  readonly reason: string;
  readonly created_at: string;
  /** What the reversal was answered: every copy of it is answered the same. */
  readonly answer: ReversalAnswer;
}

export type ReversalWriteResult =
  | { readonly written: true; readonly balanceCents: number | undefined }
  /** Another request kept this reversal_id first, or the payment's refunds or reversals changed since it was read. */
  | { readonly written: false; readonly reason: 'reversal_exists' | 'payment_changed' };

export interface ReversalStore {
  get(reversalId: string): Promise<StoredReversal | undefined>;
  /**
   * Writes `reversal` in one transaction with the payment's reversed amount (only while the payment's
   * refunded and reversed amounts are still those of `payment`), the merchant's debit and its
   * movement, and `events`; answers the account's available balance afterwards when it read it.
   */
  apply(reversal: StoredReversal, payment: StoredPayment, events: readonly DomainEvent[]): Promise<ReversalWriteResult>;
}

export interface ReverseCreditDeps extends NewRecords {
  readonly payments: { get(id: string): Promise<StoredPayment | undefined> };
  readonly reversals: ReversalStore;
}

/** What reversing `request` took: the answer, and the merchant's balance when it went below zero. */
export interface ReversalOutcome {
  readonly answer: ReversalAnswer;
  readonly negativeBalance?: { readonly accountId: string; readonly balanceCents: number };
}

/** How often a reversal reads the payment again when refunds or reversals raced it. */
const ATTEMPTS = 5;

function sameReversal(kept: StoredReversal, endToEndId: string, amountCents: number): ReversalAnswer {
  if (kept.end_to_end_id.toLowerCase() !== endToEndId.toLowerCase() || kept.amount_cents !== amountCents) {
    throw new AppError(
      'REVERSAL_ID_REUSED',
      `reversal_id ${kept.reversal_id} was given to a reversal of ${kept.end_to_end_id} for ${formatCents(kept.amount_cents)}`,
    );
  }
  return kept.answer;
}

/** The credit's payment: one the network credited under `endToEndId`, or 404. */
async function creditOf(deps: ReverseCreditDeps, endToEndId: string): Promise<StoredPayment> {
  const payment = await deps.payments.get(creditPaymentId(endToEndId));
  if (!payment || payment.direction !== 'INBOUND' || payment.end_to_end_id !== endToEndId) {
    throw new AppError('NOT_FOUND', `No credit of ours has end_to_end_id ${endToEndId}`);
  }
  return payment;
}

function exceeds(payment: StoredPayment, amountCents: number): AppError {
  const left = payment.status === 'SETTLED' ? remainingCents(payment) : 0;
  return new AppError(
    'REVERSAL_EXCEEDS_PAYMENT',
    payment.status === 'SETTLED'
      ? `Payment ${payment.id} has ${formatCents(left)} left after its refunds and reversals, not ${formatCents(amountCents)}`
      : `Payment ${payment.id} is ${payment.status}: nothing was credited, nothing can be taken back`,
    { payment_id: payment.id, remaining: cop(left) },
  );
}

/**
 * POST /network/v1/credits/{end_to_end_id}/reversals. A copy of a reversal (its reversal_id again,
 * for the same credit and amount) is answered as the first; the same id for anything else is 409.
 */
export async function reverseCredit(
  deps: ReverseCreditDeps,
  endToEndId: string,
  request: ReversalRequest,
): Promise<ReversalOutcome> {
  const amountCents = parseCents(request.amount.value);
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    const kept = await deps.reversals.get(request.reversal_id);
    if (kept) return { answer: sameReversal(kept, endToEndId, amountCents) };
    const payment = await creditOf(deps, endToEndId);
    if (payment.status !== 'SETTLED' || amountCents > remainingCents(payment)) throw exceeds(payment, amountCents);

    const now = deps.clock.now();
    const reversed: StoredPayment = {
      ...payment,
      reversed_amount_cents: (payment.reversed_amount_cents ?? 0) + amountCents,
    };
    const answer: ReversalAnswer = {
      reversal_id: request.reversal_id,
      end_to_end_id: payment.end_to_end_id!,
      payment_id: payment.id,
      amount: cop(amountCents),
      reversed_amount: cop(reversed.reversed_amount_cents!),
    };
    const reversal: StoredReversal = {
      reversal_id: request.reversal_id,
      tenant: payment.tenant,
      end_to_end_id: payment.end_to_end_id!,
      payment_id: payment.id,
      account_id: payment.account_id,
      amount_cents: amountCents,
      reason: request.reason,
      created_at: now,
      answer,
    };
    const event = newEvent(deps.ids, payment.tenant, 'payment.reversed', now, publicPayment(reversed));
    const result = await deps.reversals.apply(reversal, payment, [event]);
    if (result.written) {
      const below = result.balanceCents !== undefined && result.balanceCents < 0;
      return {
        answer,
        ...(below ? { negativeBalance: { accountId: payment.account_id, balanceCents: result.balanceCents! } } : {}),
      };
    }
    // reversal_exists: a copy kept it first, and is answered above; payment_changed: read it again.
  }
  throw new Error(`Reversal ${request.reversal_id}: the payment kept changing under it`);
}
