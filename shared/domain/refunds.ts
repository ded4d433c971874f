/**
 * Refunds (docs/refunds.md): a merchant gives an INBOUND payment's money back to the payer, in full or
 * in parts. A refund is an outbound transfer to the original payer: written PENDING with its amount
 * held (the merchant's debit made) and the payment's refunded_amount raised, in one transaction that
 * holds only while the refunds not REJECTED stay within the payment's amount; then the network
 * settles it (the debit stays) or rejects it (the hold is released and refunded_amount lowered)
 * (shared/domain/refund-settlement.ts). A refund to one of our own merchants settles by crediting its
 * account instead.
 */
import type { CreateRefundRequest, RefundListQuery, RefundRejectionReason, RefundStatus } from '../schemas/refunds';
import type { TransferReview } from '../schemas/payments';
import { uuidOf, type IdGenerator, type NewRecords } from './clock';
import { AppError } from './errors';
import { newEvent, type DomainEvent, type EventType } from './events';
import { listOf, optional, type RecordReader } from './lists';
import { cop, formatCents, parseCents, type Money } from './money';
import { ownReader } from './ownership';
import {
  later,
  paymentAmountCents,
  remainingCents,
  type Counterparty,
  type OwnPayer,
  type PaymentReader,
  type StoredPayment,
} from './payments';

export interface StoredRefund {
  readonly id: string;
  readonly tenant: string;
  readonly payment_id: string;
  /** The merchant (the payment's payee) and its account, which the refund debits. */
  readonly customer_id: string;
  readonly account_id: string;
  readonly amount_cents: number;
  readonly reason?: string;
  readonly status: RefundStatus;
  readonly rejection_reason?: RefundRejectionReason;
  /** A refund's transfer the network left unanswered too long (docs/network.md, "Review"). */
  readonly review?: TransferReview;
  /** Who gets the money: the payment's payer, as the payment names it (the transfer's creditor). */
  readonly counterparty: Counterparty;
  /**
   * When the payer is one of our own merchants: its payment and account, which the refund credits
   * instead of a transfer through the network (shared/domain/refund-settlement.ts). Internal.
   */
  readonly own_payer?: OwnPayer;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface PublicRefund {
  readonly id: string;
  readonly payment_id: string;
  readonly customer_id: string;
  readonly account_id: string;
  readonly amount: Money;
  readonly reason?: string;
  readonly status: RefundStatus;
  readonly rejection_reason?: RefundRejectionReason;
  readonly review?: TransferReview;
  readonly created_at: string;
  readonly updated_at: string;
}

export function publicRefund(refund: StoredRefund): PublicRefund {
  return {
    id: refund.id,
    payment_id: refund.payment_id,
    customer_id: refund.customer_id,
    account_id: refund.account_id,
    amount: cop(refund.amount_cents),
    ...(refund.reason === undefined ? {} : { reason: refund.reason }),
    status: refund.status,
    ...(refund.rejection_reason === undefined ? {} : { rejection_reason: refund.rejection_reason }),
    ...(refund.review === undefined ? {} : { review: refund.review }),
    created_at: refund.created_at,
    updated_at: refund.updated_at,
  };
}

/** The events of `types` reporting `refund` as it is now: `data` is the refund as GET answers it. */
export const refundEvents = (ids: IdGenerator, refund: StoredRefund, ...types: EventType[]): DomainEvent[] =>
  types.map((type) => newEvent(ids, refund.tenant, type, refund.updated_at, publicRefund(refund)));

const DAY_MS = 86_400_000;

/**
 * What is left to refund of `payment` at `now`: refused unless it is an INBOUND payment SETTLED
 * (PAYMENT_NOT_REFUNDABLE) created at most `windowDays` days before `now` (REFUND_WINDOW_EXPIRED).
 */
export function refundableCents(payment: StoredPayment, now: string, windowDays: number): number {
  if (payment.direction !== 'INBOUND' || payment.status !== 'SETTLED') {
    throw new AppError(
      'PAYMENT_NOT_REFUNDABLE',
      `Payment ${payment.id} is ${payment.direction} ${payment.status}: only a SETTLED INBOUND payment can be refunded`,
      { payment_id: payment.id },
    );
  }
  if (Date.parse(now) > Date.parse(payment.created_at) + windowDays * DAY_MS) {
    throw new AppError(
      'REFUND_WINDOW_EXPIRED',
      `Payment ${payment.id} was created more than ${windowDays} days ago: it can no longer be refunded`,
      { payment_id: payment.id },
    );
  }
  return remainingCents(payment);
}

export const exceedsRemaining = (paymentId: string, remainingCents: number): AppError =>
  new AppError(
    'REFUND_EXCEEDS_REMAINING',
    `What is left to refund of payment ${paymentId} is ${formatCents(remainingCents)}`,
    { payment_id: paymentId },
  );

/**
 * The merchant's balance cannot hold the refund: INSUFFICIENT_FUNDS as a conflict with the account's
 * state (409), where a payment answers it 400.
 */
const refundNotCovered = (accountId: string): AppError =>
  new AppError(
    'INSUFFICIENT_FUNDS',
    `The available balance of account ${accountId} does not cover the refund`,
    {},
    'conflict',
  );

/**
 * The cents a refund moves: `amount` when given (above zero, within the remainder), else the whole
 * remainder; nothing left is REFUND_EXCEEDS_REMAINING either way.
 */
export function refundAmountCents(paymentId: string, amount: Money | undefined, remainingCents: number): number {
  const cents = amount === undefined ? remainingCents : paymentAmountCents('amount.value', amount.value);
  if (cents <= 0 || cents > remainingCents) throw exceedsRemaining(paymentId, remainingCents);
  return cents;
}

/** The refund an Idempotency-Key makes: its id follows from the client and the key, so a key refunds once, ever. */
export const keyedRefundId = (tenant: string, idempotencyKey: string): string =>
  uuidOf(JSON.stringify(['refund', tenant, idempotencyKey]));

export interface RefundListFilters {
  readonly customerId?: string;
  readonly paymentId?: string;
  readonly status?: RefundStatus;
}

/** Its `get` is strongly consistent: a retry meets the refund its first request wrote. */
export type RefundReader = RecordReader<StoredRefund, RefundListFilters>;

/** A new refund's one transaction: the refund (due until answered), its hold, refunded_amount, the event. */
export interface RefundWrite {
  readonly refund: StoredRefund;
  /** The payment's amount: refunded_amount may not pass it. */
  readonly paymentAmountCents: number;
  /** The payment's reversed amount as read: the refund holds only while no reversal has grown it since. */
  readonly paymentReversedCents: number;
  readonly events: readonly DomainEvent[];
  /** When the settlement job should have answered it (the sweeper's index of due work). */
  readonly workDueAt: string;
}

export type RefundInsertResult =
  | { readonly written: true }
  | {
      readonly written: false;
      readonly reason:
        'refund_exists' | 'customer_inactive' | 'account_inactive' | 'exceeds_remaining' | 'insufficient_funds';
    };

export type RefundAnswerResult =
  { readonly written: true } | { readonly written: false; readonly reason: 'not_pending' | 'payer_account_missing' };

export interface RefundStore extends RefundReader {
  insert(write: RefundWrite): Promise<RefundInsertResult>;
  /**
   * Writes the answer to a PENDING refund with its events in one transaction: for a rejection, the
   * release of its hold and refunded_amount lowered; for a SETTLED refund to one of our own merchants,
   * the credit of the payer's account. Nothing is written when the refund is no longer PENDING
   * (`not_pending`) or that account does not exist (`payer_account_missing`).
   */
  answer(refund: StoredRefund, events: readonly DomainEvent[]): Promise<RefundAnswerResult>;
  /** Writes `reviewed` (the refund with its review) while it is PENDING and in no review yet; false otherwise. */
  markInReview(reviewed: StoredRefund): Promise<boolean>;
}

/** Runs a PENDING refund's settlement job later (the settlement queue, `{"refund_id"}`). */
export interface RefundQueue {
  /** In the refund's tenant's message group, as a payment's settlement job (SettlementQueue). */
  schedule(refundId: string, delayMs: number, tenant?: string): Promise<void>;
}

export interface CreateRefundDeps extends NewRecords {
  readonly payments: Pick<PaymentReader, 'get'>;
  readonly refunds: Pick<RefundStore, 'get' | 'insert'>;
  readonly queue: RefundQueue;
  /** How long the network takes to answer (SANDBOX_SETTLEMENT_DELAY_MS): the job's delay. */
  readonly delayMs: number;
  readonly windowDays: number;
  /** Our sponsor bank's NIT: a payment whose payer banks there came from one of our own merchants. */
  readonly participantNit: string;
}

/**
 * The payer to credit when `payment` came from one of our own merchants (its payer banks with our
 * sponsor bank): the network cannot carry such a refund, so the payer's account is credited. A payment
 * received before the payer's account was kept on it names none: refused (PAYMENT_NOT_REFUNDABLE)
 * rather than sent where the money would not arrive.
 */
function ownPayerOf(payment: StoredPayment, participantNit: string): OwnPayer | undefined {
  if (payment.counterparty.participant.identification_number !== participantNit) return undefined;
  if (payment.own_payer) return payment.own_payer;
  throw new AppError(
    'PAYMENT_NOT_REFUNDABLE',
    `Payment ${payment.id} came from a merchant of ours before its payer's account was kept: it cannot be refunded`,
    { payment_id: payment.id },
  );
}

/** One of the tenant's payments; another client's is as unknown as one that does not exist (404). */
async function refundedPayment(deps: CreateRefundDeps, tenant: string, paymentId: string): Promise<StoredPayment> {
  const payment = await deps.payments.get(paymentId.toLowerCase());
  if (!payment || payment.tenant !== tenant) throw new AppError('NOT_FOUND', `Payment ${paymentId} does not exist`);
  return payment;
}

/** A PENDING refund's settlement job is queued: the fast path (the commit made it due for the sweeper). */
async function sentToNetwork(deps: CreateRefundDeps, refund: StoredRefund): Promise<PublicRefund> {
  if (refund.status === 'PENDING') await deps.queue.schedule(refund.id, deps.delayMs, refund.tenant);
  return publicRefund(refund);
}

/**
 * The refund an Idempotency-Key already made, answered again as it is now (its job queued again while
 * PENDING); another request under that key is 409 IDEMPOTENCY_KEY_REUSED.
 */
async function answerAgain(
  deps: CreateRefundDeps,
  refund: StoredRefund,
  paymentId: string,
  request: CreateRefundRequest,
): Promise<PublicRefund> {
  const same =
    refund.payment_id === paymentId.toLowerCase() &&
    (request.amount === undefined || parseCents(request.amount.value) === refund.amount_cents) &&
    request.reason === refund.reason;
  if (!same) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key already made another refund', {
      payment_id: refund.payment_id,
    });
  }
  return sentToNetwork(deps, refund);
}

/** The refund `id` (its key's) made by a request that committed meanwhile, answered again; undefined when none did. */
async function madeMeanwhile(
  deps: CreateRefundDeps,
  id: string,
  paymentId: string,
  request: CreateRefundRequest,
): Promise<PublicRefund | undefined> {
  const made = await deps.refunds.get(id);
  return made && answerAgain(deps, made, paymentId, request);
}

/**
 * POST /v1/payments/{id}/refunds. Checks, in order: the Idempotency-Key (400), the key's refund made
 * already (answered again), the payment (404), refundable (409), within the window (409), the amount
 * within what is left (409), then the transaction: the merchant ACTIVE, its customer and its account
 * (409 CUSTOMER_INACTIVE, ACCOUNT_INACTIVE: a merchant deactivated, for fraud say, sends no money out),
 * the merchant's funds (409 INSUFFICIENT_FUNDS) and, against concurrent refunds, the remainder again
 * (409). Nothing is written by a refusal.
 */
export async function createRefund(
  deps: CreateRefundDeps,
  tenant: string,
  paymentId: string,
  request: CreateRefundRequest,
  idempotencyKey: string | undefined,
): Promise<PublicRefund> {
  if (idempotencyKey === undefined) {
    throw new AppError('IDEMPOTENCY_KEY_REQUIRED', 'A refund needs an Idempotency-Key: the key makes it unique', {
      errors: [{ field: 'Idempotency-Key', message: 'is required to refund a payment' }],
    });
  }
  const id = keyedRefundId(tenant, idempotencyKey);
  // The refund its key made, if any, and the payment, read together (one round trip); a refund made
  // already answers whatever the payment's read found.
  const [made, found] = await Promise.allSettled([deps.refunds.get(id), refundedPayment(deps, tenant, paymentId)]);
  if (made.status === 'rejected') throw made.reason;
  if (made.value) return answerAgain(deps, made.value, paymentId, request);
  if (found.status === 'rejected') throw found.reason;
  const payment = found.value;
  const now = deps.clock.now();
  const remaining = refundableCents(payment, now, deps.windowDays);
  const ownPayer = ownPayerOf(payment, deps.participantNit);
  let amountCents: number;
  try {
    amountCents = refundAmountCents(payment.id, request.amount, remaining);
  } catch (refusal) {
    // A request under the same key may have committed since its refund was looked for: the remainder
    // it took is its own, and its refund the answer.
    const answer = await madeMeanwhile(deps, id, paymentId, request);
    if (answer) return answer;
    throw refusal;
  }
  const refund: StoredRefund = {
    id,
    tenant,
    payment_id: payment.id,
    customer_id: payment.customer_id,
    account_id: payment.account_id,
    amount_cents: amountCents,
    ...(request.reason === undefined ? {} : { reason: request.reason }),
    status: 'PENDING',
    counterparty: payment.counterparty,
    ...(ownPayer === undefined ? {} : { own_payer: ownPayer }),
    created_at: now,
    updated_at: now,
  };
  const result = await deps.refunds.insert({
    refund,
    paymentAmountCents: payment.amount_cents,
    paymentReversedCents: payment.reversed_amount_cents ?? 0,
    events: refundEvents(deps.ids, refund, 'refund.created'),
    workDueAt: later(now, deps.delayMs),
  });
  if (result.written) return sentToNetwork(deps, refund);
  // A request under the same key may have committed meanwhile: its refund is the answer, whichever
  // condition this transaction met first (its hold may have taken the remainder or the funds).
  const answer = await madeMeanwhile(deps, id, paymentId, request);
  if (answer) return answer;
  switch (result.reason) {
    case 'refund_exists':
      throw new Error(`Refund ${id} refused as existing, then not found`);
    case 'exceeds_remaining': {
      // Another refund of the payment committed since it was read.
      const current = await deps.payments.get(payment.id);
      throw exceedsRemaining(payment.id, remainingCents(current ?? payment));
    }
    case 'insufficient_funds':
      throw refundNotCovered(payment.account_id);
    case 'customer_inactive':
      throw new AppError(
        'CUSTOMER_INACTIVE',
        `Customer ${payment.customer_id} is inactive: no money leaves it, refunds included`,
        {},
        'conflict',
      );
    case 'account_inactive':
      throw new AppError('ACCOUNT_INACTIVE', `Account ${payment.account_id} is not active`, {}, 'conflict');
  }
}

/** Reads one of the tenant's refunds: 404 when unknown, 403 when another client's. */
export const getOwnRefund = ownReader<StoredRefund>('Refund');

/** GET /v1/refunds: the tenant's refunds, a page at a time (docs/pagination.md). */
export const listRefunds = /* @__PURE__ */ listOf({
  name: 'refunds',
  filters: (query: RefundListQuery): RefundListFilters => ({
    ...optional('customerId', query.customer_id?.toLowerCase()),
    ...optional('paymentId', query.payment_id?.toLowerCase()),
    ...optional('status', query.status),
  }),
  toPublic: publicRefund,
});
