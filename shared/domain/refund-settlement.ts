/**
 * A refund's settlement (docs/refunds.md): a PENDING refund is an outbound transfer from the merchant
 * to the payment's payer (to the network, a RETURN of the credit the payment came by), answered by the stage's network as a payment to another participant is
 * (shared/domain/settlement.ts): the sandbox simulator at once (rejecting amounts ending in .99), the
 * sponsor bank's connector later, on the status route, from a signed transfer order whose
 * end_to_end_id follows from the refund's id. The answer is written once, while the refund is
 * PENDING: SETTLED keeps the debit; REJECTED releases the hold and lowers refunded_amount.
 *
 * A refund to one of our own merchants (`own_payer`) never reaches the network: it settles by crediting
 * the payer's account in the same transaction as its SETTLED answer, or is REJECTED (PAYER_INACTIVE)
 * when that account or its merchant can no longer receive it.
 */
import type { RefundRejectionReason } from '../schemas/refunds';
import type { AccountStore } from './accounts';
import type { NewRecords } from './clock';
import type { OwnPayer, PaymentReader } from './payments';
import { refundEvents, type RefundStore, type StoredRefund } from './refunds';
import {
  reviewedIfLate,
  type NetworkAnswer,
  type NetworkTransfer,
  type ReviewPolicy,
  type SettlementNetwork,
} from './settlement';

export interface SettleRefundDeps extends NewRecords {
  readonly refunds: Pick<RefundStore, 'get' | 'answer' | 'markInReview'>;
  readonly network: SettlementNetwork;
  /** The refunded payments: a refund returns the credit its payment came by (its end_to_end_id). */
  readonly payments: Pick<PaymentReader, 'get'>;
  readonly review?: ReviewPolicy;
  /** The accounts of our own merchants that refunds credit. */
  readonly accounts: Pick<AccountStore, 'get'>;
}

/** What writing an answer takes: a callback's too, which never puts a refund in review. */
type AnswerDeps = NewRecords & { readonly refunds: Pick<RefundStore, 'get' | 'answer'> };

interface Answered {
  readonly refund: StoredRefund;
  readonly written: boolean;
}

/**
 * The refund as the network sees it: a RETURN of the credit the refunded payment came by
 * (`originalEndToEndId`, that credit's end_to_end_id), from the merchant's account to the payer,
 * under the refund's own id (so its order's end_to_end_id is the refund's, the same at every send).
 */
export const refundTransfer = (refund: StoredRefund, originalEndToEndId: string | undefined): NetworkTransfer => ({
  id: refund.id,
  tenant: refund.tenant,
  customer_id: refund.customer_id,
  account_id: refund.account_id,
  direction: 'OUTBOUND',
  status: 'PENDING',
  amount_cents: refund.amount_cents,
  ...(refund.reason === undefined ? {} : { description: refund.reason }),
  counterparty: refund.counterparty,
  kind: 'RETURN',
  ...(originalEndToEndId === undefined ? {} : { original_end_to_end_id: originalEndToEndId }),
  created_at: refund.created_at,
  updated_at: refund.updated_at,
});

/**
 * Writes the network's answer to a PENDING refund, once: the refund as it is afterwards, also when
 * another job or callback answered it first (`written` false).
 */
export async function answerPendingRefund(
  deps: AnswerDeps,
  refund: StoredRefund,
  answer: NetworkAnswer,
): Promise<Answered> {
  const written = await writeAnswer(
    deps,
    answer.status === 'SETTLED'
      ? settled(deps, refund)
      : rejected(deps, refund, answer.reason === 'NETWORK_REFUSED_ORDER' ? answer.reason : 'NETWORK_REJECTED'),
  );
  if (!written) throw new Error(`Refund ${refund.id} settled through the network names a payer of ours`);
  return written;
}

const settled = (deps: AnswerDeps, refund: StoredRefund): StoredRefund => ({
  ...refund,
  status: 'SETTLED',
  updated_at: deps.clock.now(),
});

const rejected = (deps: AnswerDeps, refund: StoredRefund, reason: RefundRejectionReason): StoredRefund => ({
  ...refund,
  status: 'REJECTED',
  rejection_reason: reason,
  updated_at: deps.clock.now(),
});

/**
 * Writes `answered` (with its event) while the refund is PENDING: the refund as it is afterwards,
 * also when another job or callback answered it first (`written` false); undefined, nothing written,
 * when it credits one of our merchants whose account does not exist.
 */
async function writeAnswer(deps: AnswerDeps, answered: StoredRefund): Promise<Answered | undefined> {
  const type = answered.status === 'SETTLED' ? 'refund.settled' : 'refund.rejected';
  const result = await deps.refunds.answer(answered, refundEvents(deps.ids, answered, type));
  if (result.written) return { refund: answered, written: true };
  if (result.reason === 'payer_account_missing') return undefined;
  const current = await deps.refunds.get(answered.id);
  if (!current) throw new Error(`Refund ${answered.id} disappeared while settling`);
  return { refund: current, written: false };
}

/**
 * Settles a PENDING refund to one of our own merchants by crediting the payer's account (once: its
 * SETTLED answer and the credit are one transaction); REJECTED (PAYER_INACTIVE), its hold released,
 * when the account is gone or its merchant is not ACTIVE.
 */
async function creditOwnPayer(deps: SettleRefundDeps, refund: StoredRefund, payer: OwnPayer): Promise<StoredRefund> {
  const account = await deps.accounts.get(payer.account_id);
  const credited = account?.customer_status === 'ACTIVE' ? await writeAnswer(deps, settled(deps, refund)) : undefined;
  if (credited) return credited.refund;
  const released = await writeAnswer(deps, rejected(deps, refund, 'PAYER_INACTIVE'));
  if (!released) throw new Error(`Refund ${refund.id} rejected, and its rejection refused for the payer's account`);
  return released.refund;
}

/**
 * The settlement job of one refund (a `{"refund_id"}` message of the settlement queue, or the
 * sweeper's restart): asks the network while the refund is PENDING and writes its answer. Undefined
 * for a refund that does not exist.
 */
export async function settleRefund(deps: SettleRefundDeps, refundId: string): Promise<StoredRefund | undefined> {
  const refund = await deps.refunds.get(refundId);
  if (!refund || refund.status !== 'PENDING') return refund;
  if (refund.own_payer) return creditOwnPayer(deps, refund, refund.own_payer);
  // As a payment's: in review past its wait, before the network is asked.
  const current = await reviewedIfLate(deps.review, refund, deps.clock.now(), deps.refunds);
  if (current.status !== 'PENDING') return current;
  // The credit returned, read at each send rather than kept on the refund: refunds written before
  // returns were ordered have it too. A payment that came by no credit leaves the return without it,
  // and the order check refuses it (our bug: never sent).
  const payment = await deps.payments.get(current.payment_id);
  const answer = await deps.network.answer(refundTransfer(current, payment?.end_to_end_id));
  return answer ? (await answerPendingRefund(deps, current, answer)).refund : current;
}
