/**
 * Payments (docs/payments.md): the record, its states and its money. A payment is a movement of one
 * account's available balance, written in the same transaction as the balance change, so an
 * account's balance is always the sum of its movements. Statuses follow the Bre-B providers'
 * vocabulary: PENDING until the payee's participant answers, then SETTLED or REJECTED.
 */
import type { KeyOwner } from '../schemas/keys';
import type {
  Approval,
  PaymentDirection,
  PaymentListQuery,
  PaymentStatus,
  RejectionReason,
  TransferReview,
} from '../schemas/payments';
import type { IdGenerator } from './clock';
import { ownerOf, type DirectoryEntry, type DirectoryKey } from './directory';
import { AppError, invalidField } from './errors';
import { newEvent, type DomainEvent, type EventType } from './events';
import { ownReader } from './ownership';
import { listOf, optional, type RecordReader } from './lists';
import { cop, formatCents, parseCents, type Money } from './money';

/**
 * Who the other side is, as far as it is known: all of a key's owner for a resolved payee, our
 * merchant or the sandbox's shopper; the `name` (and identification, when sent) of a payer whose bank
 * credited us through the network.
 */
export type CounterpartyOwner = Partial<KeyOwner> & { readonly name?: string };

/** The other side of a payment: the payee of an OUTBOUND payment, the payer of an INBOUND one. */
export interface Counterparty {
  /** The Bre-B key the payment was addressed to, when it was (a resolved key). */
  readonly key?: DirectoryKey;
  readonly owner: CounterpartyOwner;
  readonly participant: DirectoryEntry['participant'];
  /** Absent for a payer credited through the network: a credit names no payer's account. */
  readonly account?: DirectoryEntry['account'];
}

/** A counterparty known in full: a resolved payee, one of our merchants, the sandbox's shopper. */
export interface ResolvedCounterparty extends Counterparty {
  readonly owner: KeyOwner;
  readonly account: DirectoryEntry['account'];
}

export interface StoredPayment {
  readonly id: string;
  readonly tenant: string;
  readonly customer_id: string;
  /** The client's account the payment debits (OUTBOUND) or credits (INBOUND). */
  readonly account_id: string;
  readonly direction: PaymentDirection;
  readonly status: PaymentStatus;
  /** What moved: for a QR payment, the code's or the payer's amount plus the tip. */
  readonly amount_cents: number;
  /** The part of amount_cents that is the tip the payer added (QR payments). */
  readonly tip_cents?: number;
  readonly description?: string;
  /** OUTBOUND payments of a resolved key: the resolution, used once. */
  readonly resolution_id?: string;
  /** OUTBOUND payments of a recipient: the recipient (its key resolved again: resolution_id). */
  readonly recipient_id?: string;
  /** INBOUND payments of a QR code: the code, and its reference in the network's prefixed form. */
  readonly qr_code_id?: string;
  readonly qr_code_reference?: string;
  /** INBOUND payments credited through the network: the credit's Bre-B end-to-end id (its id follows from it). */
  readonly end_to_end_id?: string;
  /** Credits from the network: what the credit said (creditFingerprint), which every copy must repeat. Internal. */
  readonly credit_fingerprint?: string;
  readonly counterparty: Counterparty;
  readonly rejection_reason?: RejectionReason;
  /** OUTBOUND transfers the network left unanswered too long (docs/network.md, "Review"). */
  readonly review?: TransferReview;
  /** INBOUND payments: how they were decided (docs/inbound-approval.md), once they are. */
  readonly approval?: Approval;
  /** Why the approval callback's answer was not used, when it was not (AUTO_APPROVED, AUTO_REJECTED). */
  readonly approval_error?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly settled_at?: string;
  /**
   * INBOUND payments: the sum of their refunds not REJECTED (docs/refunds.md), kept by the refunds'
   * own transactions within amount_cents. Absent until the first refund.
   */
  readonly refunded_amount_cents?: number;
  /** INBOUND payments credited through the network: what the sponsor bank took back (reversals). */
  readonly reversed_amount_cents?: number;
  /**
   * INBOUND payments from one of our own merchants (shared/domain/own-merchant-payments.ts): the
   * payer's OUTBOUND payment and the account it debited, which a refund credits (docs/refunds.md).
   * Internal: never in the API's answer. Absent on such payments received before it was kept.
   */
  readonly own_payer?: OwnPayer;
}

/** One of our own merchants that paid: its OUTBOUND payment and the account that payment debited. */
export interface OwnPayer {
  readonly payment_id: string;
  readonly account_id: string;
}

/** The payment object the payment routes answer: amounts as money, and no client (tenant). */
export interface PublicPayment extends Omit<
  StoredPayment,
  'tenant' | 'amount_cents' | 'tip_cents' | 'refunded_amount_cents' | 'own_payer'
> {
  readonly amount: Money;
  readonly tip?: Money;
  /** INBOUND payments only: what was refunded of them ("0.00" before any refund). */
  readonly refunded_amount?: Money;
}

/**
 * A change of one account's available balance, written with the payment it belongs to (and kept as
 * a movement of the account). Negative amounts are debits: the write fails, and nothing is written,
 * unless the balance covers them.
 */
export interface BalanceMove {
  readonly accountId: string;
  readonly paymentId: string;
  readonly amountCents: number;
}

/**
 * One atomic write: new payment records, the answers to awaiting ones, the balance moves they cause,
 * and the events that report them.
 */
export interface PaymentWrite {
  readonly payments: readonly StoredPayment[];
  /**
   * Awaiting payments as their answer leaves them (SETTLED or REJECTED): the network's to a PENDING
   * OUTBOUND one, the approval's to a PROCESSING INBOUND one. The write holds only while each is
   * awaiting (PENDING or PROCESSING), so of two jobs answering one payment one writes.
   */
  readonly answered?: readonly StoredPayment[];
  readonly moves: readonly BalanceMove[];
  readonly events: readonly DomainEvent[];
  /**
   * When the later work of each new payment that awaits an answer (PENDING, PROCESSING) is due, by
   * payment id: written with it, so that a job lost after the commit is found and run again
   * (docs/reliability.md, "The sweeper").
   */
  readonly workDueAt?: Readonly<Record<string, string>>;
}

/** `at` plus `ms`, as an ISO time. */
export const later = (at: string, ms: number): string => new Date(Date.parse(at) + ms).toISOString();

export interface PaymentListFilters {
  readonly customerId?: string;
  readonly accountId?: string;
  readonly direction?: PaymentDirection;
  readonly status?: PaymentStatus;
  readonly qrCodeReference?: string;
  /** The amount exactly (a QR payment's: its code's or the payer's amount plus the tip). */
  readonly amountCents?: number;
  /** Words that each start one of the payment's (docs/payments.md, "Finding a payment"), or its id. */
  readonly search?: string;
}

/** Its `get` is strongly consistent: a payment is read right after the write that created it. */
export type PaymentReader = RecordReader<StoredPayment, PaymentListFilters>;

/**
 * The counterparty in one field order, whatever order it was stored in (DynamoDB keeps no order in
 * a map): the first answer of a payment and every later reading of it are the same bytes (a
 * recipient's payee is answered so too).
 */
export function publicCounterparty(counterparty: ResolvedCounterparty): ResolvedCounterparty;
export function publicCounterparty(counterparty: Counterparty): Counterparty;
export function publicCounterparty({ key, owner, participant, account }: Counterparty): Counterparty {
  return {
    ...(key ? { key: { key_type: key.key_type, key_value: key.key_value } } : {}),
    owner: { ...ownerOf(owner), ...(owner.name === undefined ? {} : { name: owner.name }) },
    participant: { name: participant.name, identification_number: participant.identification_number },
    ...(account ? { account: { account_number: account.account_number, account_type: account.account_type } } : {}),
  };
}

export function publicPayment(payment: StoredPayment): PublicPayment {
  return {
    id: payment.id,
    status: payment.status,
    direction: payment.direction,
    customer_id: payment.customer_id,
    account_id: payment.account_id,
    amount: cop(payment.amount_cents),
    ...optional('tip', payment.tip_cents === undefined ? undefined : cop(payment.tip_cents)),
    ...optional('description', payment.description),
    ...optional('resolution_id', payment.resolution_id),
    ...optional('recipient_id', payment.recipient_id),
    ...optional('qr_code_id', payment.qr_code_id),
    ...optional('qr_code_reference', payment.qr_code_reference),
    ...optional('end_to_end_id', payment.end_to_end_id),
    counterparty: publicCounterparty(payment.counterparty),
    ...optional('rejection_reason', payment.rejection_reason),
    ...optional('review', payment.review),
    ...optional('approval', payment.approval),
    ...optional('approval_error', payment.approval_error),
    created_at: payment.created_at,
    updated_at: payment.updated_at,
    ...optional('settled_at', payment.settled_at),
    // Only a payment received can be refunded: an OUTBOUND one carries no refunded_amount.
    ...(payment.direction === 'INBOUND' ? { refunded_amount: cop(payment.refunded_amount_cents ?? 0) } : {}),
    ...optional(
      'reversed_amount',
      payment.reversed_amount_cents === undefined ? undefined : cop(payment.reversed_amount_cents),
    ),
  };
}

/**
 * What is left of a received payment to give back: its amount less its refunds (not rejected) and the
 * sponsor bank's reversals. Refunds and reversals both take from it (docs/refunds.md, docs/network.md).
 */
export const remainingCents = (payment: StoredPayment): number =>
  payment.amount_cents - (payment.refunded_amount_cents ?? 0) - (payment.reversed_amount_cents ?? 0);

/** The events of `types` reporting `payment` as it is now: to its client, the payment as GET answers it. */
export const paymentEvents = (ids: IdGenerator, payment: StoredPayment, ...types: EventType[]): DomainEvent[] =>
  types.map((type) => newEvent(ids, payment.tenant, type, payment.updated_at, publicPayment(payment)));

/** The cents of a payment amount (its two-decimal format is the schema's): more than zero. */
export function paymentAmountCents(field: string, value: string): number {
  const cents = parseCents(value);
  if (cents <= 0) throw invalidField(field, 'must be greater than 0.00');
  return cents;
}

/**
 * The stage's per-payment maximum (MAX_PAYMENT_CENTS, infra/stages.ts): a larger amount, out or in,
 * is refused before anything is read or written, 400 AMOUNT_ABOVE_LIMIT naming the maximum.
 */
export function checkPaymentLimit(field: string, cents: number, maxCents: number): void {
  if (cents > maxCents) {
    throw new AppError(
      'AMOUNT_ABOVE_LIMIT',
      `${field} ${formatCents(cents)} is above the maximum of one payment, ${formatCents(maxCents)}`,
      { max_amount: cop(maxCents) },
    );
  }
}

export const insufficientFunds = (accountId: string) =>
  new AppError('INSUFFICIENT_FUNDS', `The available balance of account ${accountId} does not cover the amount`);

/** Reads one of the tenant's payments: 404 when unknown, 403 when another client's. */
export const getOwnPayment = ownReader<StoredPayment>('Payment');

/** GET /v1/payments: the tenant's payments, a page at a time (docs/pagination.md). */
export const listPayments = /* @__PURE__ */ listOf({
  name: 'payments',
  filters: (query: PaymentListQuery): PaymentListFilters => ({
    ...optional('customerId', query.customer_id?.toLowerCase()),
    ...optional('accountId', query.account_id?.toLowerCase()),
    ...optional('direction', query.direction),
    ...optional('status', query.status),
    ...optional('qrCodeReference', query.qr_code_reference),
    ...optional('amountCents', query.amount === undefined ? undefined : parseCents(query.amount)),
    ...optional('search', query.search),
  }),
  toPublic: publicPayment,
});
