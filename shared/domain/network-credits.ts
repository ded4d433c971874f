/**
 * Credits from the network (docs/network.md, "Credits"): a shopper's bank pays one of our merchants'
 * keys or QR codes through `POST /network/v1/credits`. The credit runs the merchant's inbound
 * approval as any inbound payment does (shared/domain/receive-payment.ts), and is answered ACCEPTED
 * or REJECTED. Exactly once by `end_to_end_id`: the INBOUND payment's id follows from it and is
 * written only where none is, so a retry, a duplicate or a racing copy of a credit finds the first
 * one's payment and answers its decision; money moves once. Every answer is kept (CreditAnswerStore)
 * with what the credit said, so a refused credit's copy is refused again, and a copy that says
 * something else (another amount, creditor or debtor) is END_TO_END_ID_REUSED, not the first one's answer.
 */
import { createHash } from 'node:crypto';
import type { CreditAnswer, CreditRejectionReason, CreditRequest } from '../schemas/network';
import type { PayQrCodeRequest } from '../schemas/payments';
import { GUID_SUFFIX, REFERENCE_MARK } from '../qr/tags';
import { colombiaDay } from '../calendar/colombia-days';
import { newRecord, readWhile, type DecisionWait } from './clock';
import type { DirectoryStore } from './directory';
import { AppError, type ErrorCode } from './errors';
import { parseKey } from './key-formats';
import { parseCents } from './money';
import { qrCharge, type QrCharge } from './pay-qr-code';
import { paymentAmountCents, type Counterparty, type StoredPayment } from './payments';
import type { StoredQrCode } from './qrcodes';
import { receivePayment, type ArrivingPayment, type ReceivePaymentDeps } from './receive-payment';

/** Finds a merchant's QR code by the reference it was created with (unique per merchant). */
export interface QrCodeReferences {
  codeIdOf(customerId: string, reference: string): Promise<string | undefined>;
}

/** An answer to a credit, kept with the fingerprint of what the credit said (creditFingerprint). */
export interface KeptCreditAnswer {
  readonly fingerprint: string;
  readonly answer: CreditAnswer;
}

/** The answers given to credits, by `end_to_end_id`, kept at least 7 days (docs/network.md, "Credits"). */
export interface CreditAnswerStore {
  get(endToEndId: string): Promise<KeptCreditAnswer | undefined>;
  /** Keeps `kept` unless an answer is kept already (a racing copy's): the one kept, either way. */
  keep(endToEndId: string, kept: KeptCreditAnswer): Promise<KeptCreditAnswer>;
}

/**
 * What the network may credit one merchant in a Bogotá day (docs/network.md, "Limits"), counted as
 * credits arrive: a credit is held against the day's room before it is received, and given back if
 * it is refused.
 */
export interface MerchantCreditDays {
  /** Adds `cents` to the merchant's day unless that would pass `capCents`: whether it was added. */
  hold(customerId: string, day: string, cents: number, capCents: number): Promise<boolean>;
  release(customerId: string, day: string, cents: number): Promise<void>;
}

/** The stage's networkLimits, in cents; each absent when it sets none. */
export interface CreditLimits {
  readonly perCreditCents?: number;
  readonly perMerchantPerDayCents?: number;
  readonly days: MerchantCreditDays;
}

export interface ReceiveCreditDeps extends ReceivePaymentDeps {
  /** Absent: no cap but the stage's per-payment maximum. */
  readonly limits?: CreditLimits;
  readonly creditAnswers: CreditAnswerStore;
  readonly directory: Pick<DirectoryStore, 'get'>;
  readonly qrReferences: QrCodeReferences;
  /**
   * How long a copy of a credit waits for the first copy's decision (that copy is asking the
   * merchant's approval callback) before it answers 409 CREDIT_IN_PROGRESS, and how often it looks.
   */
  readonly decisionWait: DecisionWait;
}

/**
 * The INBOUND payment id of the credit `endToEndId`: the same for every copy of the credit, a UUID
 * (RFC 9562 version 8, made of the SHA-256 of the id) so that it lists and reads as any payment.
 */
export function creditPaymentId(endToEndId: string): string {
  const bytes = createHash('sha256').update(`network-credit:${endToEndId}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Sorted-key JSON: one spelling of a value, whatever order its bank wrote its fields in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What every copy of a credit must repeat: its amount (in cents, however written), creditor and
 * debtor. A copy whose fingerprint differs is another transfer under a reused id.
 */
export function creditFingerprint(credit: Pick<CreditRequest, 'amount' | 'creditor' | 'debtor'>): string {
  const said = { amount_cents: parseCents(credit.amount.value), creditor: credit.creditor, debtor: credit.debtor };
  return createHash('sha256').update(canonicalJson(said)).digest('base64url');
}

/** The 409 of a copy that is not the credit its end_to_end_id was first given to. */
function reused(endToEndId: string): AppError {
  return new AppError(
    'END_TO_END_ID_REUSED',
    `end_to_end_id ${endToEndId} was given to a credit of another amount, creditor or debtor`,
  );
}

const rejected = (reason: CreditRejectionReason, paymentId?: string): CreditAnswer => ({
  status: 'REJECTED',
  reason,
  ...(paymentId === undefined ? {} : { payment_id: paymentId }),
});

/** What a payment's state answers: SETTLED accepted; REJECTED for the reason it was rejected. */
function answerOf(payment: StoredPayment): CreditAnswer {
  if (payment.status === 'SETTLED') return { status: 'ACCEPTED', payment_id: payment.id };
  switch (payment.rejection_reason) {
    case 'APPROVAL_REFUSED':
    case 'APPROVAL_FAILED':
    case 'QR_CODE_NOT_PAYABLE':
      return rejected(payment.rejection_reason, payment.id);
    default:
      throw new Error(`Payment ${payment.id} of a credit is ${payment.status} (${payment.rejection_reason})`);
  }
}

/** The refusals of receivePayment (nothing written) as a credit's reasons. */
const REFUSALS: Partial<Record<ErrorCode, CreditRejectionReason>> = {
  AMOUNT_ABOVE_LIMIT: 'AMOUNT_ABOVE_LIMIT',
  CUSTOMER_INACTIVE: 'CUSTOMER_INACTIVE',
  KEY_STATUS_CONFLICT: 'KEY_INACTIVE',
  QR_CODE_STATUS_CONFLICT: 'QR_CODE_NOT_PAYABLE',
};

/** The payer as its bank named it: a credit carries no account, nor whether the payer is a person. */
function payerOf(debtor: CreditRequest['debtor']): Counterparty {
  return {
    owner: {
      ...(debtor.identification_type === undefined ? {} : { identification_type: debtor.identification_type }),
      ...(debtor.identification_number === undefined ? {} : { identification_number: debtor.identification_number }),
      name: debtor.name,
    },
    participant: { name: debtor.participant.name, identification_number: debtor.participant.identification_number },
  };
}

/** `CO.COM.<ACQ>.TRXID` + `P` + the merchant's reference: the reference, or undefined for another form. */
const REFERENCE_FORM = new RegExp(`^CO\\.COM\\.[A-Za-z0-9]+\\.${GUID_SUFFIX.transactionId}${REFERENCE_MARK}(.+)$`);

/**
 * What a credit of `amount` (of which `tip` is the tip) pays for `code`, checked by the rules a
 * wallet follows (shared/domain/pay-qr-code.ts); undefined when the amount is not the code's charge.
 */
function chargeOfCredit(code: StoredQrCode, amountCents: number, tipCents: number | undefined): QrCharge | undefined {
  const requested = code.tip?.tip_type === 'REQUEST';
  const tip = requested && tipCents ? { tip: { value: (tipCents / 100).toFixed(2), currency: 'COP' as const } } : {};
  // A static code's own tip is added to what the payer typed: the credit's amount less that tip.
  const ownTip = code.tip?.tip_type === 'FIXED' ? parseCents(code.tip.tip_value!) : 0;
  const base = amountCents - (tipCents ?? (requested ? 0 : ownTip));
  const request: PayQrCodeRequest = code.amount
    ? tip
    : { amount: { value: (base / 100).toFixed(2), currency: 'COP' }, ...tip };
  try {
    const charge = qrCharge(code, request);
    return charge.amountCents === amountCents ? charge : undefined;
  } catch (error) {
    if (error instanceof AppError) return undefined;
    throw error;
  }
}

/** The first copy's decision, waiting for it while that copy is still deciding (PROCESSING). */
export async function decisionOf(
  deps: Pick<ReceiveCreditDeps, 'payments' | 'decisionWait'>,
  payment: StoredPayment,
): Promise<CreditAnswer> {
  const processing = (current: StoredPayment) => current.status === 'PROCESSING';
  const current = await readWhile(payment, processing, () => deps.payments.get(payment.id), deps.decisionWait);
  if (processing(current)) {
    throw new AppError(
      'CREDIT_IN_PROGRESS',
      `Credit ${payment.end_to_end_id} is still being decided by the merchant: send it again`,
      { payment_id: payment.id },
    );
  }
  return answerOf(current);
}

/**
 * POST /network/v1/credits: ACCEPTED (credited), or REJECTED with its reason; a copy of a credit gets
 * the answer kept for the first (a refusal that wrote nothing too: the state may have changed since,
 * the network's answer may not), and one that says something else 409 END_TO_END_ID_REUSED.
 */
export async function receiveCredit(deps: ReceiveCreditDeps, credit: CreditRequest): Promise<CreditAnswer> {
  const fingerprint = creditFingerprint(credit);
  const kept = await deps.creditAnswers.get(credit.end_to_end_id);
  if (kept) return sameCredit(kept, fingerprint, credit.end_to_end_id).answer;
  const answer = await decideCredit(deps, credit, fingerprint);
  const first = await deps.creditAnswers.keep(credit.end_to_end_id, { fingerprint, answer });
  return sameCredit(first, fingerprint, credit.end_to_end_id).answer;
}

/** `kept`, when it was the answer to a credit that said what this copy says; else END_TO_END_ID_REUSED. */
function sameCredit(kept: KeptCreditAnswer, fingerprint: string, endToEndId: string): KeptCreditAnswer {
  if (kept.fingerprint !== fingerprint) throw reused(endToEndId);
  return kept;
}

/** The answer to a credit no answer is kept for yet: the first copy's payment's, or a new decision. */
async function decideCredit(
  deps: ReceiveCreditDeps,
  credit: CreditRequest,
  fingerprint: string,
): Promise<CreditAnswer> {
  const paymentId = creditPaymentId(credit.end_to_end_id);
  const first = await deps.payments.get(paymentId);
  if (first) {
    // A copy racing the first, before its answer was kept: the payment holds what the first one said.
    if (first.credit_fingerprint !== undefined && first.credit_fingerprint !== fingerprint)
      throw reused(credit.end_to_end_id);
    return decisionOf(deps, first);
  }

  const entry = await deps.directory.get(parseKey(credit.creditor.key, 'creditor.key'));
  const key = entry?.status === 'ACTIVE' && entry.key_id ? await deps.keys.get(entry.key_id) : undefined;
  if (!key) return rejected('KEY_NOT_FOUND');

  const amountCents = paymentAmountCents('amount.value', credit.amount.value);
  const tipCents = credit.tip ? parseCents(credit.tip.value) : undefined;
  let code: StoredQrCode | undefined;
  let charge: QrCharge = { amountCents, tipCents: 0 };
  if (credit.qr_code_reference !== undefined) {
    const reference = REFERENCE_FORM.exec(credit.qr_code_reference)?.[1];
    const codeId = reference ? await deps.qrReferences.codeIdOf(key.customer_id, reference) : undefined;
    code = codeId ? await deps.qrCodes.get(codeId) : undefined;
    if (!code || code.key_id !== key.id || code.qr_code_reference !== credit.qr_code_reference)
      return rejected('QR_CODE_NOT_FOUND');
    if (code.status !== 'ACTIVE') return rejected('QR_CODE_NOT_PAYABLE');
    const ofCode = chargeOfCredit(code, amountCents, tipCents);
    if (!ofCode) return rejected('AMOUNT_MISMATCH');
    charge = ofCode;
  }

  const arriving: ArrivingPayment = {
    ...newRecord(deps, key.tenant),
    id: paymentId,
    customer_id: key.customer_id,
    account_id: key.account_id,
    direction: 'INBOUND',
    amount_cents: charge.amountCents,
    ...(charge.tipCents > 0 ? { tip_cents: charge.tipCents } : {}),
    ...(credit.description === undefined ? {} : { description: credit.description }),
    ...(code ? { qr_code_id: code.id, qr_code_reference: code.qr_code_reference } : {}),
    end_to_end_id: credit.end_to_end_id,
    credit_fingerprint: fingerprint,
    counterparty: payerOf(credit.debtor),
  };
  return creditWithinLimits(deps, arriving, key.id, code);
}

/**
 * creditOnce within the stage's networkLimits: over the per-credit cap, or past the merchant's room for
 * the day, REJECTED with nothing written. Two copies racing before either is written may both hold
 * the amount, and a credit whose request fails keeps its hold: the day's room then shrinks by more
 * than was credited (stricter, never looser).
 */
async function creditWithinLimits(
  deps: ReceiveCreditDeps,
  arriving: ArrivingPayment,
  keyId: string,
  code: StoredQrCode | undefined,
): Promise<CreditAnswer> {
  const { limits } = deps;
  if (limits?.perCreditCents !== undefined && arriving.amount_cents > limits.perCreditCents) {
    return rejected('AMOUNT_ABOVE_LIMIT');
  }
  const cap = limits?.perMerchantPerDayCents;
  if (cap === undefined) return creditOnce(deps, arriving, keyId, code);
  const day = colombiaDay(arriving.created_at);
  if (!(await limits!.days.hold(arriving.customer_id, day, arriving.amount_cents, cap))) {
    return rejected('DAILY_LIMIT_REACHED');
  }
  const answer = await creditOnce(deps, arriving, keyId, code);
  // A refusal credited nothing: the room is given back. (A failure keeps it held: the payment may
  // have been written, and be accepted by its decision job.)
  if (answer.status === 'REJECTED') await limits!.days.release(arriving.customer_id, day, arriving.amount_cents);
  return answer;
}

/**
 * Receives `arriving`, a credit's INBOUND payment (its id follows from the credit's end_to_end_id), for
 * the merchant's key `keyId` (and QR code), and answers the merchant's decision: the first copy's,
 * for a copy. A refusal that wrote nothing is REJECTED with its reason.
 */
export async function creditOnce(
  deps: Omit<ReceiveCreditDeps, 'directory' | 'qrReferences' | 'creditAnswers'>,
  arriving: ArrivingPayment,
  keyId: string,
  code?: StoredQrCode,
): Promise<CreditAnswer> {
  try {
    return await decisionOf(deps, await receivePayment(deps, arriving, keyId, code));
  } catch (error) {
    const reason = error instanceof AppError ? REFUSALS[error.code] : undefined;
    if (reason) return rejected(reason);
    throw error;
  }
}
