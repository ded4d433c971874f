/**
 * Payments between two of our own merchants (docs/payments.md, "Paying one of our merchants"): the
 * payee's bank is ours, so the payment never reaches the network, but it goes through the payee's
 * inbound approval like any credit. The payer's payment is written PENDING with its amount held, as a
 * payment to another participant is; then the payee's credit is received as the network's would be
 * (shared/domain/network-credits.ts), exactly once by the payer's payment's end_to_end_id; and its
 * decision answers the payer's payment: SETTLED, or REJECTED with the hold released. The request that
 * pays runs this at once; should it die on the way, the payment's settlement job (the queue, then the
 * sweeper) runs it again, and the credit's one payment per end_to_end_id keeps it once.
 */
import type { RejectionReason } from '../schemas/payments';
import type { CreditAnswer } from '../schemas/network';
import type { AccountStore } from './accounts';
import type { CustomerStore } from './customers';
import type { DirectoryStore } from './directory';
import { creditOnce, creditPaymentId, decisionOf, type ReceiveCreditDeps } from './network-credits';
import type { StoredPayment } from './payments';
import { answerPending, type NetworkAnswer, type SettlementNetwork, type SettlePaymentDeps } from './settlement';
import { endToEndIdOf, type OwnParticipant } from './transfer-orders';

export interface OwnMerchantCreditDeps extends Omit<ReceiveCreditDeps, 'directory' | 'qrReferences' | 'creditAnswers'> {
  readonly directory: Pick<DirectoryStore, 'get'>;
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly participant: OwnParticipant;
  /** Called once the payee's credit is written, before the payer's payment is answered (a crash point). */
  readonly afterPayeeCredit?: () => void;
}

/** Whether `payment` pays one of our own merchants: its payee's participant is our sponsor bank. */
export const paysOwnMerchant = (payment: StoredPayment, participant: OwnParticipant): boolean =>
  payment.direction === 'OUTBOUND' && payment.counterparty.participant.identification_number === participant.nit;

/** The payer's reason for the payee's refusal: its approval's, or that it could not receive. */
function payerReason(reason: CreditAnswer['reason']): RejectionReason {
  return reason === 'APPROVAL_REFUSED' || reason === 'APPROVAL_FAILED' ? reason : 'PAYEE_INACTIVE';
}

const payeeGone: NetworkAnswer = { status: 'REJECTED', reason: 'PAYEE_INACTIVE' };

/**
 * The payee's decision on `payment`, a PENDING payment of one of our merchants to another: the payee's
 * INBOUND payment received (once) and decided by its approval. The payee is the key's merchant while
 * the key still pays into the account the payer's resolution showed; otherwise it cannot receive
 * (PAYEE_INACTIVE), as when its merchant or key is inactive.
 */
export async function ownMerchantAnswer(deps: OwnMerchantCreditDeps, payment: StoredPayment): Promise<NetworkAnswer> {
  const endToEndId = endToEndIdOf(payment.id);
  // A retry (the request died after the payee's credit): the credit made answers, whatever became of
  // the payee's key since. Checking the key first would release the payer's hold while the payee
  // keeps the money.
  const made = await deps.payments.get(creditPaymentId(endToEndId));
  if (made) return payerAnswerOf(await decisionOf(deps, made));
  const { key, account } = payment.counterparty;
  const entry = key ? await deps.directory.get(key) : undefined;
  const payeeKey = entry?.status === 'ACTIVE' && entry.key_id ? await deps.keys.get(entry.key_id) : undefined;
  const payeeAccount = payeeKey ? await deps.accounts.get(payeeKey.account_id) : undefined;
  if (!payeeKey || !payeeAccount || payeeAccount.number !== account?.account_number) return payeeGone;
  const payer = await deps.customers.get(payment.customer_id);
  const payerAccount = await deps.accounts.get(payment.account_id);
  if (!payer || !payerAccount) throw new Error(`Payment ${payment.id} names a payer that does not exist`);

  const now = deps.clock.now();
  const answer = await creditOnce(
    deps,
    {
      id: creditPaymentId(endToEndId),
      tenant: payeeKey.tenant,
      created_at: now,
      updated_at: now,
      customer_id: payeeKey.customer_id,
      account_id: payeeKey.account_id,
      direction: 'INBOUND',
      amount_cents: payment.amount_cents,
      ...(payment.description === undefined ? {} : { description: payment.description }),
      end_to_end_id: endToEndId,
      // The payer in full: one of our merchants, at our sponsor bank.
      counterparty: {
        owner: {
          identification_type: payer.identification_type,
          identification_number: payer.identification_number,
          type: 'BUSINESS',
          business_name: payer.business_name,
        },
        participant: { name: deps.participant.name, identification_number: deps.participant.nit },
        account: { account_number: payerAccount.number, account_type: payerAccount.type },
      },
      // What a refund of it credits (docs/refunds.md).
      own_payer: { payment_id: payment.id, account_id: payment.account_id },
    },
    payeeKey.id,
  );
  deps.afterPayeeCredit?.();
  return payerAnswerOf(answer);
}

/** The payer's answer of the payee's decision on its credit. */
const payerAnswerOf = (answer: CreditAnswer): NetworkAnswer =>
  answer.status === 'ACCEPTED' ? { status: 'SETTLED' } : { status: 'REJECTED', reason: payerReason(answer.reason) };

/** The network as the settlement job sees it: our own merchants answer through their approval, the rest through `stage`. */
export const routedNetwork = (deps: OwnMerchantCreditDeps, stage: SettlementNetwork): SettlementNetwork => ({
  answer: (payment) =>
    paysOwnMerchant(payment, deps.participant) ? ownMerchantAnswer(deps, payment) : stage.answer(payment),
});

/** Answers a PENDING payment to one of our merchants now, by its payee's decision: the payment as it is afterwards. */
export async function settleOwnMerchantPayment(
  credit: OwnMerchantCreditDeps,
  settlement: Pick<SettlePaymentDeps, 'payments' | 'clock' | 'ids'>,
  payment: StoredPayment,
): Promise<StoredPayment> {
  return (await answerPending(settlement, payment, await ownMerchantAnswer(credit, payment))).payment;
}
