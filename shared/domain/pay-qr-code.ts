/**
 * POST /sandbox/qrcodes/{id}/pay (docs/payments.md): the sandbox's shopper, a person at another
 * participant, pays one of the client's QR codes. What moves follows the code: the amount of a
 * dynamic or hybrid code, which already includes its FIXED or PERCENTAGE tip (the amount includes it: docs/contract.md, QR codes), or
 * the amount the payer types for a static code, to which its FIXED or PERCENTAGE tip is added; and,
 * when the code asks for one (REQUEST), the tip the payer chooses. The merchant receives an INBOUND
 * payment carrying the code's prefixed reference, decided by its approval callback when the client
 * has one on (shared/domain/receive-payment.ts); when it is credited, a DYNAMIC code becomes PAID in
 * the same transaction: a code is paid once. The simulator pays it as a shopper's bank would: a credit
 * naming the code's reference (docs/network.md, "Credits").
 */
import type { PayQrCodeRequest } from '../schemas/payments';
import { AppError } from './errors';
import { FieldErrors } from './lists';
import { cop, parseCents } from './money';
import { paymentAmountCents, type PublicPayment } from './payments';
import { getOwnQrCode, type StoredQrCode } from './qrcodes';
import { sendSandboxCredit, type SandboxCreditDeps } from './sandbox-inbound';

/** What paying a QR code needs: reading the code, and the simulator's credit (sandbox-inbound.ts). */
export type PayQrCodeDeps = SandboxCreditDeps;

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
  idempotencyKey?: string,
): Promise<PublicPayment> {
  const code = await getOwnQrCode(deps.qrCodes, tenant, id);
  if (code.status !== 'ACTIVE') throw notPayable(code);
  const charge = qrCharge(code, request);

  // The shopper's bank sends what the wallet showed: the total, its tip part, and the code's reference.
  return sendSandboxCredit(
    deps,
    { tenant, customerId: code.customer_id, keyId: code.key_id, key: code.key, idempotencyKey },
    charge.amountCents,
    {
      qr_code_reference: code.qr_code_reference,
      ...(charge.tipCents > 0 ? { tip: cop(charge.tipCents) } : {}),
      code,
    },
  );
}
