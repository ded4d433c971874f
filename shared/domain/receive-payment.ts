/**
 * Receiving an INBOUND payment (docs/inbound-approval.md): someone at another participant pays one of
 * the client's merchants, by a key or a QR code. With the client's approval off, the payment is
 * credited at once (SETTLED, approval NOT_REQUIRED) in one transaction with its checks and events.
 * With it on, the payment is written PROCESSING, nothing credited; the client's callback is asked;
 * and its decision is written in a second transaction that holds only while the payment is still
 * PROCESSING: SETTLED and credited, or REJECTED with nothing credited. Before the first write a job is
 * queued that decides the payment as a callback failure would, should the request die before its
 * decision is written (UNDECIDED_AFTER_MS later; a payment decided by then is left alone).
 */
import type { NewRecords } from './clock';
import { askApproval, fallbackDecision, type ApprovalCallbackDeps, type ApprovalDecision } from './approval-request';
import { AppError } from './errors';
import type { DomainEvent } from './events';
import { newEvent } from './events';
import type { ApprovalSettingsStore } from './inbound-approval';
import type { KeyStore } from './keys';
import type { RejectionReason } from '../schemas/payments';
import { checkPaymentLimit, later, paymentEvents, type PaymentReader, type StoredPayment } from './payments';
import { publicQrCode, type QrCodeStore, type StoredQrCode } from './qrcodes';

/** Why a payment could not be received: nothing was written. */
export type InboundRefusal = 'code_not_payable' | 'customer_inactive' | 'key_inactive';

/** already_received: a payment of this id is there (a network credit's retry or duplicate). */
export type InboundReceipt =
  { readonly written: true } | { readonly written: false; readonly reason: InboundRefusal | 'already_received' };

/** The first write of an inbound payment. */
export interface InboundArrival {
  /** SETTLED (approval off) or PROCESSING. */
  readonly payment: StoredPayment;
  /** When its decision job is due, for a PROCESSING payment (PaymentWrite.workDueAt). */
  readonly workDueAt?: string;
  /** The merchant's key the payment was sent to (a QR code's key): it must be ACTIVE. */
  readonly keyId: string;
  /** A QR payment's code: it must be ACTIVE; a DYNAMIC one becomes PAID when the payment is SETTLED. */
  readonly code?: StoredQrCode;
  readonly events: readonly DomainEvent[];
}

/** The decision's write: a PROCESSING payment as the decision leaves it. */
export interface InboundDecision {
  readonly answered: StoredPayment;
  /** The DYNAMIC code that the SETTLED payment pays: it becomes PAID, while it is still ACTIVE. */
  readonly code?: StoredQrCode;
  readonly events: readonly DomainEvent[];
}

/** written; decided_already: the payment is no longer PROCESSING; code_not_payable: the code was paid meanwhile. */
export type DecisionOutcome = 'written' | 'decided_already' | 'code_not_payable';

export interface InboundPaymentStore extends Pick<PaymentReader, 'get'> {
  /**
   * Writes an arriving payment with its events, its credit when SETTLED, and the checks that the
   * merchant, its key and the code can receive, in one transaction; nothing when a check fails.
   */
  receive(arrival: InboundArrival): Promise<InboundReceipt>;
  /** Writes a decision (the credit of a SETTLED payment with it) while the payment is PROCESSING. */
  decide(decision: InboundDecision): Promise<DecisionOutcome>;
}

/**
 * Runs the decision job of a payment later (the credit decisions queue: `{"payment_id"}`), apart from
 * the settlement queue's transfer orders, so that a slow connector does not delay a merchant's credit.
 */
export interface DecisionJobQueue {
  /** In the payment's tenant's message group (the payee's). */
  schedule(paymentId: string, delayMs: number, tenant: string): Promise<void>;
}

/**
 * When the decision job decides a payment still PROCESSING: no request deciding one outlives this
 * (API Gateway ends every request at 30 seconds; the approval callback has 3 of them).
 */
export const UNDECIDED_AFTER_MS = 30_000;

export interface DecideDeps extends NewRecords {
  readonly payments: Pick<InboundPaymentStore, 'get' | 'decide'>;
  readonly qrCodes: Pick<QrCodeStore, 'get'>;
}

export interface ReceivePaymentDeps extends DecideDeps {
  readonly payments: InboundPaymentStore;
  readonly keys: Pick<KeyStore, 'get'>;
  readonly approvalSettings: Pick<ApprovalSettingsStore, 'get'>;
  readonly approvalCallback: ApprovalCallbackDeps;
  readonly decisionJobs: DecisionJobQueue;
  /** The stage's per-payment maximum (MAX_PAYMENT_CENTS): no credit above it. */
  readonly maxPaymentCents: number;
}

/** A payment before it is received: everything but its state. */
export type ArrivingPayment = Omit<StoredPayment, 'status' | 'approval' | 'approval_error' | 'settled_at'>;

/** `qr_code.paid`: the DYNAMIC code as GET /v1/qrcodes/{id} answers it (its image is drawn on read). */
function codePaidEvent(deps: NewRecords, code: StoredQrCode, at: string): DomainEvent {
  const paid: StoredQrCode = { ...code, status: 'PAID', updated_at: at };
  return newEvent(deps.ids, code.tenant, 'qr_code.paid', at, publicQrCode(paid));
}

/** The events of a payment settled now: its confirmation, and the code it paid when DYNAMIC. */
function settledEvents(deps: NewRecords, payment: StoredPayment, code: StoredQrCode | undefined): DomainEvent[] {
  const events = paymentEvents(deps.ids, payment, 'payment.inbound.confirmed');
  return code?.type === 'DYNAMIC' ? [...events, codePaidEvent(deps, code, payment.updated_at)] : events;
}

/** Why a payment to the merchant `customerId`, its key `keyId` (and `code`) could not be received. */
export async function inboundRefusal(
  deps: Pick<ReceivePaymentDeps, 'qrCodes' | 'keys'>,
  reason: InboundRefusal,
  customerId: string,
  keyId: string,
  code: StoredQrCode | undefined,
): Promise<AppError> {
  switch (reason) {
    case 'code_not_payable': {
      const current = (await deps.qrCodes.get(code!.id)) ?? code!;
      return new AppError('QR_CODE_STATUS_CONFLICT', `A ${current.status} QR code cannot be paid`, {
        qr_code_status: current.status,
      });
    }
    case 'customer_inactive':
      return new AppError('CUSTOMER_INACTIVE', `Customer ${customerId} is inactive: it cannot receive payments`);
    case 'key_inactive': {
      const key = await deps.keys.get(keyId);
      return new AppError('KEY_STATUS_CONFLICT', `Key ${keyId} is not ACTIVE: it cannot receive payments`, {
        key_status: key?.status,
      });
    }
  }
}

/**
 * Receives `arriving` for the merchant's key `keyId` (and QR code `code`), and answers the payment
 * once decided: SETTLED or REJECTED. 400 CUSTOMER_INACTIVE, 409 KEY_STATUS_CONFLICT or
 * QR_CODE_STATUS_CONFLICT when it cannot be received (nothing written).
 */
export async function receivePayment(
  deps: ReceivePaymentDeps,
  arriving: ArrivingPayment,
  keyId: string,
  code?: StoredQrCode,
): Promise<StoredPayment> {
  checkPaymentLimit('amount.value', arriving.amount_cents, deps.maxPaymentCents);
  const settings = await deps.approvalSettings.get(arriving.tenant);
  const asking = settings?.enabled ? settings : undefined;
  const payment: StoredPayment = asking
    ? { ...arriving, status: 'PROCESSING' }
    : { ...arriving, status: 'SETTLED', approval: 'NOT_REQUIRED', settled_at: arriving.created_at };
  const received = paymentEvents(deps.ids, payment, 'payment.inbound.received');
  // Queued first: whatever happens to this request after its write, the payment gets decided. (A
  // route that has committed already, a payment to one of our merchants, lets a failed send go: the
  // write below makes the payment due work, which the sweeper decides: functions/after-commit.ts.)
  if (asking) await deps.decisionJobs.schedule(payment.id, UNDECIDED_AFTER_MS, payment.tenant);
  const receipt = await deps.payments.receive({
    payment,
    // Due with its decision job: should that job be lost too, the sweeper runs it.
    ...(asking ? { workDueAt: later(payment.created_at, UNDECIDED_AFTER_MS) } : {}),
    keyId,
    ...(code ? { code } : {}),
    events: asking ? received : [...received, ...settledEvents(deps, payment, code)],
  });
  if (!receipt.written) {
    if (receipt.reason === 'already_received') return firstReceived(deps, payment.id);
    throw await inboundRefusal(deps, receipt.reason, arriving.customer_id, keyId, code);
  }
  return asking ? decidePayment(deps, payment, await askApproval(deps, asking, payment), code) : payment;
}

/**
 * The payment the first of several deliveries of one credit wrote (its id follows from the credit):
 * answered as it stands, PROCESSING while the first one's approval is still deciding it.
 */
async function firstReceived(deps: Pick<ReceivePaymentDeps, 'payments'>, id: string): Promise<StoredPayment> {
  const first = await deps.payments.get(id);
  if (!first) throw new Error(`Payment ${id} was there when received again, and is gone`);
  return first;
}

const accepts = (decision: ApprovalDecision) =>
  decision.approval === 'ACCEPTED' || decision.approval === 'AUTO_APPROVED';

/**
 * Writes `decision` on a PROCESSING payment and answers the payment as it is afterwards (as another
 * decision left it, when that one was written first). An accepted payment of a DYNAMIC code that
 * another payment paid meanwhile is REJECTED (QR_CODE_NOT_PAYABLE): a code is paid once.
 */
export async function decidePayment(
  deps: DecideDeps,
  payment: StoredPayment,
  decision: ApprovalDecision,
  knownCode?: StoredQrCode,
): Promise<StoredPayment> {
  const now = deps.clock.now();
  const decided: StoredPayment = {
    ...payment,
    approval: decision.approval,
    ...(decision.error === undefined ? {} : { approval_error: decision.error }),
    updated_at: now,
  };
  const rejected = (reason: RejectionReason): InboundDecision => {
    const answered: StoredPayment = { ...decided, status: 'REJECTED', rejection_reason: reason };
    return { answered, events: paymentEvents(deps.ids, answered, 'payment.rejected') };
  };

  let write: InboundDecision;
  if (accepts(decision)) {
    const code = knownCode ?? (payment.qr_code_id ? await deps.qrCodes.get(payment.qr_code_id) : undefined);
    const answered: StoredPayment = { ...decided, status: 'SETTLED', settled_at: now };
    const paysCode = code?.type === 'DYNAMIC' ? { code } : {};
    write = { answered, ...paysCode, events: settledEvents(deps, answered, code) };
  } else {
    write = rejected(decision.approval === 'REFUSED' ? 'APPROVAL_REFUSED' : 'APPROVAL_FAILED');
  }
  let outcome = await deps.payments.decide(write);
  if (outcome === 'code_not_payable') {
    write = rejected('QR_CODE_NOT_PAYABLE');
    outcome = await deps.payments.decide(write);
  }
  if (outcome === 'written') return write.answered;
  const current = await deps.payments.get(payment.id);
  if (!current) throw new Error(`Payment ${payment.id} disappeared while being decided`);
  return current;
}

export interface DecisionJobDeps extends DecideDeps {
  readonly approvalSettings: Pick<ApprovalSettingsStore, 'get'>;
}

/**
 * The decision job of a payment still PROCESSING (its request ended without deciding it): decided as
 * a callback that gave no answer would be, under the client's auto_approve_on_error now.
 */
export async function decideUndecided(deps: DecisionJobDeps, payment: StoredPayment): Promise<StoredPayment> {
  const settings = await deps.approvalSettings.get(payment.tenant);
  const why = 'No decision was recorded: the request that asked the approval callback ended first';
  return decidePayment(deps, payment, fallbackDecision(settings ?? { auto_approve_on_error: false }, why));
}

/**
 * A message of the credit decisions queue: decides the payment when it is still PROCESSING, and
 * answers it as it is otherwise (decided by its request, or a payment of another kind: a PENDING one
 * is the settlement queue's, which asks the network). Undefined for a payment that does not exist: its
 * job is queued before its write, which can fail.
 */
export async function runDecisionJob(deps: DecisionJobDeps, paymentId: string): Promise<StoredPayment | undefined> {
  const payment = await deps.payments.get(paymentId);
  if (payment?.status !== 'PROCESSING') return payment;
  return decideUndecided(deps, payment);
}
