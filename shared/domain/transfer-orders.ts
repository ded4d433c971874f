/**
 * Our side of the network connector for payments to other participants and refunds (docs/network.md):
 * the signed transfer order we POST to `<connector>/v1/transfers` (`transfer.requested`: a TRANSFER,
 * or a refund's RETURN), and the network's status callback applied to the transfer once. A transfer's
 * order always carries the same `end_to_end_id`, derived from its id, so that a retried order (a
 * queue's redelivery, the sweeper's restart) is the same transfer to the bank.
 */
import { AppError } from './errors';
import { cop, type Money } from './money';
import type { Counterparty, StoredPayment } from './payments';
import {
  answerPending,
  type NetworkAnswer,
  type NetworkTransfer,
  type SettlementNetwork,
  type SettlePaymentDeps,
} from './settlement';
import { sendToConnector, type ConnectorClient } from './connector';
import { answerPendingRefund } from './refund-settlement';
import type { RefundStore } from './refunds';

/** The Bre-B end-to-end id of our payment `paymentId`: 1 to 35 letters and digits, the same every time. */
export const endToEndIdOf = (paymentId: string): string => `E${paymentId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 35);

/** The participant that holds our merchants' accounts (the sponsor bank), as orders name the debtor's. */
export interface OwnParticipant {
  readonly name: string;
  readonly nit: string;
}

/** What every order carries, of either kind (shared/schemas/network.ts, transferOrderSchema). */
interface OrderFields {
  readonly type: 'transfer.requested';
  readonly transfer_id: string;
  readonly end_to_end_id: string;
  readonly amount: Money;
  readonly debtor: {
    readonly customer_id: string;
    readonly account_id: string;
    readonly participant: { readonly name: string; readonly identification_number: string };
  };
  readonly description?: string;
  readonly qr_code_reference?: string;
  readonly created_at: string;
}

/** A payment to another participant: the payee as the key's resolution showed it, its account too. */
export interface PaymentOrder extends OrderFields {
  readonly kind: 'TRANSFER';
  readonly creditor: Counterparty;
}

/**
 * A return: a refund of a credit that came from the network, to that credit's debtor, whose account
 * the network finds by the credit (a credit names none, so the creditor has no account).
 */
export interface ReturnOrder extends OrderFields {
  readonly kind: 'RETURN';
  /**
   * The credit's end_to_end_id. The published schema requires it: a return of a payment that came by
   * no credit (our bug) fails the check before sending and is never sent.
   */
  readonly original_end_to_end_id?: string;
  readonly creditor: Pick<Counterparty, 'owner' | 'participant'>;
}

export type TransferOrder = PaymentOrder | ReturnOrder;

/**
 * The order of `transfer`: a RETURN for a refund's transfer, a TRANSFER for a payment. Its members in
 * the order a reader expects them; the optional ones only when there.
 */
export function transferOrderOf(transfer: NetworkTransfer, participant: OwnParticipant): TransferOrder {
  const fields = {
    transfer_id: transfer.id,
    end_to_end_id: endToEndIdOf(transfer.id),
    amount: cop(transfer.amount_cents),
    debtor: {
      customer_id: transfer.customer_id,
      account_id: transfer.account_id,
      participant: { name: participant.name, identification_number: participant.nit },
    },
  };
  const rest = {
    ...(transfer.description === undefined ? {} : { description: transfer.description }),
    ...(transfer.qr_code_reference === undefined ? {} : { qr_code_reference: transfer.qr_code_reference }),
    created_at: transfer.created_at,
  };
  if (transfer.kind !== 'RETURN') {
    return { type: 'transfer.requested', kind: 'TRANSFER', ...fields, creditor: transfer.counterparty, ...rest };
  }
  const { owner, participant: creditorParticipant } = transfer.counterparty;
  return {
    type: 'transfer.requested',
    kind: 'RETURN',
    ...fields,
    ...(transfer.original_end_to_end_id === undefined
      ? {}
      : { original_end_to_end_id: transfer.original_end_to_end_id }),
    creditor: { owner, participant: creditorParticipant },
    ...rest,
  };
}

/** How long the connector has to take an order: it only records it, the network answers later. */
export const CONNECTOR_TIMEOUT_MS = 5_000;

export interface ConnectorDeps extends ConnectorClient {
  readonly participant: OwnParticipant;
  /**
   * Whether `order` is what the connector's published schema describes (the network document's
   * TransferOrder, the generated validator of shared/schemas/network.ts): one that is not is our bug,
   * never sent. The adapter logs why as an error.
   */
  readonly isPublishedOrder: (order: TransferOrder) => boolean;
  readonly timeoutMs?: number;
  /** How old a transfer must be before the connector is asked for it first (TRANSFER_INQUIRY_AFTER_MS). */
  readonly inquiryAfterMs: number;
  readonly nowMs: () => number;
}

/** What the connector knows of a transfer: `GET <connector>/v1/transfers/{end_to_end_id}`. */
type InquiryAnswer = 'PENDING' | 'SETTLED' | 'REJECTED' | 'NOT_FOUND';
const INQUIRY_ANSWERS: readonly string[] = ['PENDING', 'SETTLED', 'REJECTED', 'NOT_FOUND'];

/**
 * Asks the connector what became of a transfer. A 404 is NOT_FOUND too; anything else, or a status
 * outside the contract, throws: the transfer stays PENDING and due, and is asked for again.
 */
async function inquire(deps: ConnectorDeps, payment: StoredPayment, timeoutMs: number): Promise<InquiryAnswer> {
  const endToEndId = endToEndIdOf(payment.id);
  const result = await sendToConnector(
    deps,
    { method: 'GET', path: `v1/transfers/${endToEndId}`, messageId: `inquiry_${endToEndId}_${deps.nowMs()}` },
    '',
    timeoutMs,
  );
  if ('status' in result && result.status === 404) return 'NOT_FOUND';
  let status: unknown;
  try {
    status =
      'status' in result && result.status === 200
        ? (JSON.parse(result.body) as { status?: unknown }).status
        : undefined;
  } catch {
    status = undefined;
  }
  if (typeof status !== 'string' || !INQUIRY_ANSWERS.includes(status)) {
    const why = 'error' in result ? result.error : `it answered ${result.status} ${result.body.slice(0, 100)}`;
    throw new Error(`Transfer ${payment.id}: the connector's inquiry answer is not the contract's: ${why}`);
  }
  return status as InquiryAnswer;
}

/** The message id of a payment's order: the same at every send, so the connector dedupes on it too. */
export const orderMessageId = (paymentId: string): string => `transfer.requested_${endToEndIdOf(paymentId)}`;

/**
 * The sponsor bank's connector as the settlement port (docs/network.md, "Transfer orders"): the
 * PENDING payment POSTed as a signed `transfer.requested` order, which the connector takes with 202;
 * the network's answer comes back on the status route (undefined here). The message id and the
 * end_to_end_id are the payment's own, so an order sent again (the queue's retry, the sweeper's
 * restart while no answer came) is the same order to the bank. Every order is checked against the
 * published schema before it is sent; one that fails, or a 4xx other than 408 and 429, refuses the
 * order for good: the transfer ends REJECTED NETWORK_REFUSED_ORDER, its hold given back. Anything
 * else but 202, or no answer within the time limit, throws: the payment stays PENDING and due. Once
 * the transfer is older than the inquiry's wait, the sweeper's restarts ask the connector what became
 * of it instead ("Inquiry").
 */
export function connectorNetwork(deps: ConnectorDeps): SettlementNetwork {
  const timeoutMs = deps.timeoutMs ?? CONNECTOR_TIMEOUT_MS;
  return {
    async answer(payment) {
      // Past the inquiry's wait, a callback may have been lost: the connector is asked first, and its
      // answer is applied as a callback's would be. The order goes again only if it knows none.
      if (deps.nowMs() - Date.parse(payment.created_at) >= deps.inquiryAfterMs) {
        const known = await inquire(deps, payment, timeoutMs);
        if (known === 'PENDING') return undefined;
        if (known === 'SETTLED') return { status: 'SETTLED' };
        if (known === 'REJECTED') return { status: 'REJECTED', reason: 'NETWORK_REJECTED' };
      }
      const order = transferOrderOf(payment, deps.participant);
      // Our bug, not the bank's: sent again, the order would be the same. It is refused here for good,
      // as the connector would refuse it, and the transfer ends with its hold given back.
      if (!deps.isPublishedOrder(order)) return { status: 'REJECTED', reason: 'NETWORK_REFUSED_ORDER' };
      const body = JSON.stringify(order);
      const result = await sendToConnector(
        deps,
        { method: 'POST', path: 'v1/transfers', messageId: orderMessageId(payment.id) },
        body,
        timeoutMs,
      );
      if ('status' in result && result.status === 202) return undefined;
      // A refusal of the order itself is final: sent again, the same order would be refused again, its
      // amount held for ever. A timeout (408) or a limit (429) is not: the order goes again.
      if ('status' in result && result.status >= 400 && result.status < 500 && ![408, 429].includes(result.status)) {
        return { status: 'REJECTED', reason: 'NETWORK_REFUSED_ORDER' };
      }
      const why = 'error' in result ? result.error : `it answered ${result.status}`;
      throw new Error(`Transfer order ${payment.id} not taken by the connector: ${why}`);
    },
  };
}

/** The body of `POST /network/v1/transfers/{id}/status`. */
export interface TransferStatus {
  /** The transfer the callback is about: the path's, and its end-to-end id (else 422 TRANSFER_MISMATCH). */
  readonly transfer_id: string;
  readonly end_to_end_id: string;
  readonly status: 'SETTLED' | 'REJECTED';
  /** The network's words for a rejection: logged, the payment says NETWORK_REJECTED. */
  readonly reason?: string;
}

/** What the status route answers: the transfer as it stands after the callback. */
export interface TransferStatusAnswer {
  readonly transfer_id: string;
  readonly end_to_end_id: string;
  readonly status: 'PENDING' | 'SETTLED' | 'REJECTED';
  /** False when the transfer had already been answered: nothing changed. */
  readonly applied: boolean;
}

/**
 * Told how long the network took to answer a transfer, once, by the callback that answered it: from
 * the transfer's commit (the settlement job sends its order at once; its age is what the inquiry's
 * wait reads too) to the callback's arrival. A callback of a transfer already answered tells nothing.
 */
export interface CallbackLatency {
  record(ms: number): void;
}

export interface TransferStatusDeps extends Pick<SettlePaymentDeps, 'payments' | 'clock' | 'ids'> {
  readonly participant: OwnParticipant;
  /** A refund is a transfer too, ordered under its own id (shared/domain/refund-settlement.ts). */
  readonly refunds: Pick<RefundStore, 'get' | 'answer'>;
  /** Where the network's answer time goes (a metric on AWS); absent where nobody watches it. */
  readonly callbackLatency?: CallbackLatency;
}

/** Tells `deps.callbackLatency` of a transfer created at `createdAt` that this callback answered. */
function recordAnswerTime(deps: TransferStatusDeps, createdAt: string, applied: boolean): void {
  if (applied) deps.callbackLatency?.record(Math.max(0, Date.parse(deps.clock.now()) - Date.parse(createdAt)));
}

/**
 * The path is not signed: a callback names its transfer in the signed body, so that one captured for a
 * transfer cannot be replayed onto another. Ids are compared without regard to case, as the bank may
 * write them in either.
 */
function requireSameTransfer(transferId: string, status: TransferStatus): void {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  if (!same(status.transfer_id, transferId) || !same(status.end_to_end_id, endToEndIdOf(transferId))) {
    throw new AppError(
      'TRANSFER_MISMATCH',
      `The callback names transfer ${status.transfer_id} (${status.end_to_end_id}), not the path's ${transferId}`,
    );
  }
}

/**
 * A transfer is an OUTBOUND payment to a payee at another participant: a payment to one of our own
 * merchants never reaches the network, so the network cannot answer it.
 */
const isTransfer = (payment: StoredPayment, participant: OwnParticipant): boolean =>
  payment.direction === 'OUTBOUND' && payment.counterparty.participant.identification_number !== participant.nit;

/**
 * Applies the network's status to transfer `transferId` once: a PENDING payment is answered (settled,
 * or rejected with its hold released); one already answered is answered again as it stands, whatever
 * the status says. Undefined for a transfer we never ordered (the route's 404).
 */
export async function applyTransferStatus(
  deps: TransferStatusDeps,
  transferId: string,
  status: TransferStatus,
): Promise<TransferStatusAnswer | undefined> {
  requireSameTransfer(transferId, status);
  const answer: NetworkAnswer =
    status.status === 'SETTLED' ? { status: 'SETTLED' } : { status: 'REJECTED', reason: 'NETWORK_REJECTED' };
  const payment = await deps.payments.get(transferId);
  if (!payment) return applyRefundStatus(deps, transferId, answer);
  if (!isTransfer(payment, deps.participant)) return undefined;
  // Only a PENDING payment is answered; of two callbacks at once, the one whose write held applied it.
  const { payment: current, written } =
    payment.status === 'PENDING' ? await answerPending(deps, payment, answer) : { payment, written: false };
  recordAnswerTime(deps, payment.created_at, written);
  return {
    transfer_id: payment.id,
    end_to_end_id: endToEndIdOf(payment.id),
    status: current.status === 'SETTLED' || current.status === 'REJECTED' ? current.status : 'PENDING',
    applied: written,
  };
}

/**
 * The network's status applied to refund `refundId` once, as to a payment; undefined for no refund,
 * or one to our own merchant (credited, never ordered from the network).
 */
async function applyRefundStatus(
  deps: TransferStatusDeps,
  refundId: string,
  answer: NetworkAnswer,
): Promise<TransferStatusAnswer | undefined> {
  const refund = await deps.refunds.get(refundId);
  if (!refund || refund.own_payer) return undefined;
  const { refund: current, written } =
    refund.status === 'PENDING' ? await answerPendingRefund(deps, refund, answer) : { refund, written: false };
  recordAnswerTime(deps, refund.created_at, written);
  return { transfer_id: refund.id, end_to_end_id: endToEndIdOf(refund.id), status: current.status, applied: written };
}
