/**
 * A refund's settlement (docs/refunds.md): a PENDING refund is an outbound transfer from the merchant
 * to the payment's payer, answered by the stage's network as a payment to another participant is
 * (shared/domain/settlement.ts): the sandbox simulator at once (rejecting amounts ending in .99), the
 * sponsor bank's connector later, on the status route, from a signed transfer order whose
 * end_to_end_id follows from the refund's id. The answer is written once, while the refund is
 * PENDING: SETTLED keeps the debit; REJECTED releases the hold and lowers refunded_amount.
 */
import type { NewRecords } from './clock';
import type { StoredPayment } from './payments';
import { refundEvents, type RefundStore, type StoredRefund } from './refunds';
import type { NetworkAnswer, SettlementNetwork } from './settlement';

export interface SettleRefundDeps extends NewRecords {
  readonly refunds: Pick<RefundStore, 'get' | 'answer'>;
  readonly network: SettlementNetwork;
}

/**
 * The refund as the network sees it: an OUTBOUND transfer of the merchant's account to the payer,
 * under the refund's own id (so its order's end_to_end_id is the refund's, the same at every send).
 */
export const refundTransfer = (refund: StoredRefund): StoredPayment => ({
  id: refund.id,
  tenant: refund.tenant,
  customer_id: refund.customer_id,
  account_id: refund.account_id,
  direction: 'OUTBOUND',
  status: 'PENDING',
  amount_cents: refund.amount_cents,
  ...(refund.reason === undefined ? {} : { description: refund.reason }),
  counterparty: refund.counterparty,
  created_at: refund.created_at,
  updated_at: refund.updated_at,
});

/**
 * Writes the network's answer to a PENDING refund, once: the refund as it is afterwards, also when
 * another job or callback answered it first (`written` false).
 */
export async function answerPendingRefund(
  deps: Omit<SettleRefundDeps, 'network'>,
  refund: StoredRefund,
  answer: NetworkAnswer,
): Promise<{ readonly refund: StoredRefund; readonly written: boolean }> {
  const now = deps.clock.now();
  const answered: StoredRefund =
    answer.status === 'SETTLED'
      ? { ...refund, status: 'SETTLED', updated_at: now }
      : { ...refund, status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED', updated_at: now };
  const type = answered.status === 'SETTLED' ? 'refund.settled' : 'refund.rejected';
  if (await deps.refunds.answer(answered, refundEvents(deps.ids, answered, type))) {
    return { refund: answered, written: true };
  }
  const current = await deps.refunds.get(refund.id);
  if (!current) throw new Error(`Refund ${refund.id} disappeared while settling`);
  return { refund: current, written: false };
}

/**
 * The settlement job of one refund (a `{"refund_id"}` message of the settlement queue, or the
 * sweeper's restart): asks the network while the refund is PENDING and writes its answer. Undefined
 * for a refund that does not exist.
 */
export async function settleRefund(deps: SettleRefundDeps, refundId: string): Promise<StoredRefund | undefined> {
  const refund = await deps.refunds.get(refundId);
  if (!refund || refund.status !== 'PENDING') return refund;
  const answer = await deps.network.answer(refundTransfer(refund));
  return answer ? (await answerPendingRefund(deps, refund, answer)).refund : refund;
}
