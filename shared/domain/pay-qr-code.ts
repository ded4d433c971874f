/**
 * POST /sandbox/qrcodes/{id}/pay (docs/payments.md): the sandbox's shopper, a person at another
 * participant, pays one of the client's QR codes. What moves follows the code: the amount of a
 * dynamic or hybrid code, which already includes its FIXED or PERCENTAGE tip (the amount includes it: docs/contract.md, QR codes), or
 * the amount the payer types for a static code, to which its FIXED or PERCENTAGE tip is added; and,
 * when the code asks for one (REQUEST), the tip the payer chooses. The merchant's account is credited
 * and an INBOUND payment carrying the code's prefixed reference is recorded in one transaction with
 * the code's own change: a DYNAMIC code is paid once (PAID).
 */
import type { PayQrCodeRequest } from '../schemas/payments';
import { newRecord, type NewRecords } from './clock';
import { AppError } from './errors';
import type { KeyStore } from './keys';
import { FieldErrors } from './lists';
import { parseCents } from './money';
import { newEvent, type DomainEvent } from './events';
import {
  paymentAmountCents,
  paymentEvents,
  publicPayment,
  type Counterparty,
  type PublicPayment,
  type StoredPayment,
} from './payments';
import { getOwnQrCode, publicQrCode, type QrCodeStore, type StoredQrCode } from './qrcodes';

/** Who pays in the sandbox: the person of the sandbox directory, at Banco Ejemplo. */
export const SANDBOX_SHOPPER: Counterparty = {
  owner: {
    identification_type: 'CC',
    identification_number: '1020304050',
    type: 'PERSON',
    first_name: 'Ana',
    second_name: 'María',
    first_last_name: 'Gómez',
    second_last_name: 'Pérez',
  },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
};

export type QrPaymentResult =
  | { readonly written: true }
  /** The code is not ACTIVE any more (a DYNAMIC code paid meanwhile, or deleted). */
  | { readonly written: false; readonly reason: 'code_not_payable' | 'customer_inactive' | 'key_inactive' };

export interface QrPaymentStore {
  /**
   * Credits the code's account with the payment and records it, in one transaction with the code's
   * change (a DYNAMIC code becomes PAID) and checks that the code is ACTIVE and the merchant and the
   * code's key can receive, with `events`; nothing when one of them fails.
   */
  insert(payment: StoredPayment, code: StoredQrCode, events: readonly DomainEvent[]): Promise<QrPaymentResult>;
}

export interface PayQrCodeDeps extends NewRecords {
  readonly qrCodes: Pick<QrCodeStore, 'get'>;
  readonly keys: Pick<KeyStore, 'get'>;
  readonly payments: QrPaymentStore;
}

/** What a payment of a code moves: the amount (tip included) and the tip part of it. */
export interface QrCharge {
  readonly amountCents: number;
  readonly tipCents: number;
}

/** A percentage with five decimals ("10.00000") of an amount of cents, rounded half up: integer only. */
function percentageOf(cents: number, percentage: string): number {
  const hundredThousandthsOfAPercent = BigInt(percentage.replace('.', ''));
  return Number((BigInt(cents) * hundredThousandthsOfAPercent + 5_000_000n) / 10_000_000n);
}

/**
 * The charge for a payment of `code` (the code's fields passed their checks when it was created).
 * 400 for an amount sent to a code that has one or missing for one that has none, and for a tip sent
 * to a code that does not ask for one.
 */
export function qrCharge(code: Pick<StoredQrCode, 'amount' | 'tip'>, request: PayQrCodeRequest): QrCharge {
  const errors = new FieldErrors('The payment of the QR code');
  if (code.amount && request.amount) errors.add('amount', 'must not be sent: the code carries its amount');
  if (!code.amount && !request.amount) errors.add('amount', 'is required: the code carries no amount');
  if (request.tip && code.tip?.tip_type !== 'REQUEST') {
    errors.add(
      'tip',
      code.tip ? 'must not be sent: the code sets its tip' : 'must not be sent: the code asks for no tip',
    );
  }
  errors.throwIfAny();

  const base = code.amount ? parseCents(code.amount.value) : paymentAmountCents('amount.value', request.amount!.value);
  let tip = 0;
  if (request.tip) tip = paymentAmountCents('tip.value', request.tip.value);
  // A code with an amount includes its FIXED or PERCENTAGE tip; a static one adds it to what is typed.
  else if (!code.amount && code.tip?.tip_type === 'FIXED') tip = parseCents(code.tip.tip_value!);
  else if (!code.amount && code.tip?.tip_type === 'PERCENTAGE') tip = percentageOf(base, code.tip.tip_percentage!);
  return { amountCents: base + tip, tipCents: tip };
}

/**
 * The merchant receives the payment and, as it settles in the same write, its confirmation; a
 * DYNAMIC code becomes PAID (its data is the code as GET /v1/qrcodes/{id} answers it, without the
 * image: an event reports the change, the image is drawn on read).
 */
function qrPaymentEvents(deps: NewRecords, payment: StoredPayment, code: StoredQrCode): DomainEvent[] {
  const events = paymentEvents(deps.ids, payment, 'payment.inbound.received', 'payment.inbound.confirmed');
  if (code.type !== 'DYNAMIC') return events;
  const paid: StoredQrCode = { ...code, status: 'PAID', updated_at: payment.created_at };
  return [...events, newEvent(deps.ids, code.tenant, 'qr_code.paid', paid.updated_at, publicQrCode(paid))];
}

const notPayable = (code: Pick<StoredQrCode, 'id' | 'status'>) =>
  new AppError('QR_CODE_STATUS_CONFLICT', `A ${code.status} QR code cannot be paid`, { qr_code_status: code.status });

/**
 * POST /sandbox/qrcodes/{id}/pay. Unknown code 404, another client's 403, a code that is not ACTIVE
 * (a paid DYNAMIC code, a deleted code) 409 QR_CODE_STATUS_CONFLICT, a charge that breaks the code's
 * rules 400, an inactive merchant 400 CUSTOMER_INACTIVE, a key that stopped being ACTIVE 409
 * KEY_STATUS_CONFLICT. Answers the merchant's INBOUND payment.
 */
export async function payQrCode(
  deps: PayQrCodeDeps,
  tenant: string,
  id: string,
  request: PayQrCodeRequest,
): Promise<PublicPayment> {
  const code = await getOwnQrCode(deps.qrCodes, tenant, id);
  if (code.status !== 'ACTIVE') throw notPayable(code);
  const charge = qrCharge(code, request);

  const record = newRecord(deps, code.tenant);
  const payment: StoredPayment = {
    ...record,
    customer_id: code.customer_id,
    account_id: code.account_id,
    direction: 'INBOUND',
    // The payer's participant has debited the shopper; ours credits the merchant in the same write.
    status: 'SETTLED',
    amount_cents: charge.amountCents,
    ...(charge.tipCents > 0 ? { tip_cents: charge.tipCents } : {}),
    qr_code_id: code.id,
    qr_code_reference: code.qr_code_reference,
    counterparty: SANDBOX_SHOPPER,
    settled_at: record.created_at,
  };
  const result = await deps.payments.insert(payment, code, qrPaymentEvents(deps, payment, code));
  if (!result.written) {
    switch (result.reason) {
      case 'code_not_payable': {
        const current = await deps.qrCodes.get(code.id);
        throw notPayable(current ?? code);
      }
      case 'customer_inactive':
        throw new AppError('CUSTOMER_INACTIVE', `Customer ${code.customer_id} is inactive: it cannot receive payments`);
      case 'key_inactive': {
        const key = await deps.keys.get(code.key_id);
        throw new AppError('KEY_STATUS_CONFLICT', `Key ${code.key_id} of the code is not ACTIVE: it cannot be paid`, {
          key_status: key?.status,
        });
      }
    }
  }
  return publicPayment(payment);
}
