/**
 * A transfer in review answered by an operator (docs/network.md, "Review"): when the network never
 * answered, the bank's confirmed answer (SETTLED or REJECTED) is applied as the network's callback
 * would have been, once. Whoever applies it, and on what evidence, is the audit trail's (the command
 * runs as the operator: tools/ops-transfer-status.ts).
 */
import type { NewRecords } from './clock';
import { answerPendingRefund } from './refund-settlement';
import type { RefundStore, StoredRefund } from './refunds';
import { answerPending, type NetworkAnswer, type SettlementStore } from './settlement';
import type { StoredPayment } from './payments';

export interface OperatorAnswerDeps extends NewRecords {
  readonly payments: Pick<SettlementStore, 'get' | 'answer'>;
  readonly refunds: Pick<RefundStore, 'get' | 'answer'>;
}

export type OperatorAnswered =
  | { readonly kind: 'payment'; readonly transfer: StoredPayment; readonly applied: boolean }
  | { readonly kind: 'refund'; readonly transfer: StoredRefund; readonly applied: boolean };

/**
 * Applies `status` to the PENDING transfer `id` (a payment to another participant, or a refund's):
 * `applied` false when it was answered already (it is told as it stands, nothing changes). Throws, saying
 * why, for no such transfer, or one that never awaits the network (an INBOUND payment, a refund to one
 * of our own merchants).
 */
export async function applyOperatorAnswer(
  deps: OperatorAnswerDeps,
  id: string,
  status: 'SETTLED' | 'REJECTED',
): Promise<OperatorAnswered> {
  const answer: NetworkAnswer =
    status === 'SETTLED' ? { status: 'SETTLED' } : { status: 'REJECTED', reason: 'NETWORK_REJECTED' };
  const payment = await deps.payments.get(id);
  if (payment) {
    if (payment.direction !== 'OUTBOUND') {
      throw new Error(`Payment ${id} is INBOUND: no transfer of ours waits for the network`);
    }
    if (payment.status !== 'PENDING') return { kind: 'payment', transfer: payment, applied: false };
    const { payment: answered, written } = await answerPending(deps, payment, answer);
    return { kind: 'payment', transfer: answered, applied: written };
  }
  const refund = await deps.refunds.get(id);
  if (!refund) throw new Error(`No payment or refund has the id ${id}`);
  if (refund.status !== 'PENDING') return { kind: 'refund', transfer: refund, applied: false };
  if (refund.own_payer) {
    throw new Error(`Refund ${id} credits one of our own merchants: the network never carries it`);
  }
  const { refund: answered, written } = await answerPendingRefund(deps, refund, answer);
  return { kind: 'refund', transfer: answered, applied: written };
}
