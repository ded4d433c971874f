/**
 * Settlement of payments to another participant (docs/payments.md, "States"): a payment written
 * PENDING, its amount held (the payer's debit made), waits for the network's answer. A job asks the
 * network and writes the answer: SETTLED, or REJECTED with the hold released by a compensating
 * credit, each with its event, in one transaction that holds only while the payment is PENDING. So a
 * job run twice, or two at once, answers once; and a payment left PENDING by a crash is answered by
 * the next job (a retry of its request schedules one).
 */
import type { RejectionReason } from '../schemas/payments';
import { paymentEvents, type PaymentReader, type PaymentWrite, type StoredPayment } from './payments';
import { decideUndecided, type DecisionJobDeps, type InboundPaymentStore } from './receive-payment';

export type NetworkAnswer =
  { readonly status: 'SETTLED' } | { readonly status: 'REJECTED'; readonly reason: RejectionReason };

/**
 * The Bre-B network as the payer's participant sees it, for a payment to another participant: the
 * sandbox simulator answers at once; the sponsor bank's connector takes the signed transfer order
 * (undefined: its answer comes later on the status route, shared/domain/transfer-orders.ts). Sending
 * the same payment again sends the same order (its end_to_end_id), so retries are harmless; a
 * failure to send throws, and the payment stays PENDING for the queue's retry or the sweeper.
 */
export interface SettlementNetwork {
  answer(transfer: NetworkTransfer): Promise<NetworkAnswer | undefined>;
}

/**
 * What the network is asked to move: a payment to another participant (a `TRANSFER`), or a refund as
 * its transfer (shared/domain/refund-settlement.ts), which is a `RETURN` of the credit the refunded
 * payment came by: `original_end_to_end_id` names that credit, and the network routes the money back
 * to its debtor (docs/network.md, "Returns").
 */
export interface NetworkTransfer extends StoredPayment {
  readonly kind?: 'TRANSFER' | 'RETURN';
  readonly original_end_to_end_id?: string;
}

/**
 * Runs the settlement job of a payment later: SQS with a delay on AWS, the process's timers locally;
 * in its tenant's message group, so that one client's backlog does not hold back another's jobs. (A
 * job the sweeper restarts goes without one: its index entry does not name the tenant.)
 */
export interface SettlementQueue {
  schedule(paymentId: string, delayMs: number, tenant?: string): Promise<void>;
}

/** The message of a settlement job, as a queue carries it (JSON): the payment to settle. */
export interface SettlementMessage {
  readonly payment_id: string;
}

/** When and where a PENDING payment's settlement job runs. */
export interface SettlementScheduling {
  readonly queue: SettlementQueue;
  /** How long the sandbox network takes to answer (SANDBOX_SETTLEMENT_DELAY_MS). */
  readonly delayMs: number;
}

export interface SettlementStore extends Pick<PaymentReader, 'get'>, Pick<InboundPaymentStore, 'decide'> {
  /**
   * Writes the network's answer (`answered`, the release of a rejected payment's hold, the events) in
   * one transaction; false, and nothing written, when the payment is no longer PENDING.
   */
  answer(write: PaymentWrite): Promise<boolean>;
  /** Writes `reviewed` (the payment with its review) while it is PENDING and in no review yet; false otherwise. */
  markInReview(reviewed: StoredPayment): Promise<boolean>;
}

/**
 * When a transfer the network leaves unanswered goes to review (docs/network.md, "Review"): past
 * TRANSFER_REVIEW_AFTER_MS, for the transfers it `applies` to (ours to another participant, through
 * the connector). Absent: no review (the sandbox answers at once).
 */
export interface ReviewPolicy {
  readonly afterMs: number;
  readonly applies: (transfer: Pick<StoredPayment, 'counterparty'>) => boolean;
}

export interface SettlePaymentDeps extends Omit<DecisionJobDeps, 'payments'> {
  readonly payments: SettlementStore;
  readonly network: SettlementNetwork;
  readonly review?: ReviewPolicy;
}

/** Whether a transfer made at `createdAt`, in no review yet, is due for one now. */
const dueForReview = (
  review: ReviewPolicy | undefined,
  transfer: Pick<StoredPayment, 'counterparty' | 'created_at' | 'review'>,
  now: string,
): boolean =>
  review !== undefined &&
  transfer.review === undefined &&
  Date.parse(now) - Date.parse(transfer.created_at) >= review.afterMs &&
  review.applies(transfer);

/** Where a transfer (a payment, or a refund) is put in review once, and read again when another job did. */
export interface ReviewStore<Transfer> {
  markInReview(reviewed: Transfer): Promise<boolean>;
  get(id: string): Promise<Transfer | undefined>;
}

/**
 * A PENDING transfer the network has left unanswered past the review's wait gains its review, once:
 * the transfer as it stands afterwards. Its amount stays held; the network may still answer it.
 */
export async function reviewedIfLate<
  Transfer extends Pick<StoredPayment, 'id' | 'counterparty' | 'created_at' | 'review' | 'updated_at'>,
>(review: ReviewPolicy | undefined, transfer: Transfer, now: string, store: ReviewStore<Transfer>): Promise<Transfer> {
  if (!dueForReview(review, transfer, now)) return transfer;
  const reviewed: Transfer = { ...transfer, review: { since: now, reason: 'NO_NETWORK_ANSWER' }, updated_at: now };
  if (await store.markInReview(reviewed)) return reviewed;
  return (await store.get(transfer.id)) ?? transfer;
}

/**
 * The sandbox's magic value: a payment whose amount ends in .99 (e.g. 10.99) is rejected by the
 * network, so clients can test their handling of rejections; every other payment settles.
 */
export const SANDBOX_REJECTED_CENTS = 99;

export const sandboxNetwork: SettlementNetwork = {
  answer: async (payment) =>
    payment.amount_cents % 100 === SANDBOX_REJECTED_CENTS
      ? { status: 'REJECTED', reason: 'NETWORK_REJECTED' }
      : { status: 'SETTLED' },
};

/** The payment as the network's answer leaves it. */
function answeredPayment(payment: StoredPayment, answer: NetworkAnswer, now: string): StoredPayment {
  if (answer.status === 'SETTLED') return { ...payment, status: 'SETTLED', updated_at: now, settled_at: now };
  return { ...payment, status: 'REJECTED', updated_at: now, rejection_reason: answer.reason };
}

/**
 * The settlement job of one payment: answers it when it is still PENDING (the network's answer) or
 * PROCESSING (an inbound payment its request left undecided: shared/domain/receive-payment.ts), and
 * answers the payment as it is afterwards (also when another job answered it first). Undefined for a
 * payment that does not exist: an inbound payment's job is queued before its write, which can fail.
 */
export async function settlePayment(deps: SettlePaymentDeps, paymentId: string): Promise<StoredPayment | undefined> {
  const payment = await deps.payments.get(paymentId);
  if (!payment) return undefined;
  if (payment.status === 'PROCESSING') return decideUndecided(deps, payment);
  if (payment.status !== 'PENDING') return payment;

  // Before the network is asked: a connector that does not answer either must not keep it from review.
  const current = await reviewedIfLate(deps.review, payment, deps.clock.now(), deps.payments);
  if (current.status !== 'PENDING') return current;
  const answer = await deps.network.answer(current);
  return answer ? (await answerPending(deps, current, answer)).payment : current;
}

/**
 * Writes the network's answer to a PENDING payment, once: the payment as it is afterwards, also when
 * another job or callback answered it first (`written` false).
 */
export async function answerPending(
  deps: Pick<SettlePaymentDeps, 'clock' | 'ids'> & { readonly payments: Pick<SettlementStore, 'get' | 'answer'> },
  payment: StoredPayment,
  answer: NetworkAnswer,
): Promise<{ readonly payment: StoredPayment; readonly written: boolean }> {
  const paymentId = payment.id;
  const answered = answeredPayment(payment, answer, deps.clock.now());
  const rejected = answered.status === 'REJECTED';
  const write: PaymentWrite = {
    payments: [],
    answered: [answered],
    // The hold was the debit: a rejection gives the payer its amount back, once.
    moves: rejected
      ? [{ accountId: payment.account_id, paymentId: payment.id, amountCents: payment.amount_cents }]
      : [],
    events: paymentEvents(deps.ids, answered, rejected ? 'payment.rejected' : 'payment.settled'),
  };
  if (await deps.payments.answer(write)) return { payment: answered, written: true };
  const current = await deps.payments.get(paymentId);
  if (!current) throw new Error(`Payment ${paymentId} disappeared while settling`);
  return { payment: current, written: false };
}
