/**
 * The rules of a QR code request beyond its schema (docs/qrcodes.md), and its translation
 * into the encoder's input. Every violation is reported at once, with the request's field path.
 */
import {
  customerInfoCode,
  REFERENCE_PATTERN,
  type EmvPayloadInput,
  type QrKey,
  type QrMerchant,
} from '../qr/emv-input';
import type { CreateQrCodeRequest, QrIncRequest, QrVatRequest } from '../schemas/qrcodes';
import { FieldErrors } from './lists';
import { parseCents } from './money';

/** Two decimals, at most 13 characters: what EMVCo tag 54 (and 56, 82, 83, 85) can hold. */
const AMOUNT = /^(0|[1-9][0-9]{0,9})\.[0-9]{2}$/;
/** A percentage from 0 to 100 with exactly five decimals (a rate with five decimals: docs/qrcodes.md). */
const PERCENTAGE = /^(100\.00000|[1-9]?[0-9]\.[0-9]{5})$/;
/** Written into the payload as sent, so printable ASCII only: every reader shows the same bytes. */
const PRINTABLE_ASCII = /^[\x20-\x7E]+$/;
/** Medium 0-7, location 0-3, presentation 0-3 (docs/qrcodes.md). */
const CHANNEL_PRESENTATION = /^[0-7][0-3][0-3]$/;

const AMOUNT_MESSAGE = 'must be a COP amount with two decimals and at most 10 integer digits, e.g. 15000.00';
const PERCENTAGE_MESSAGE = 'must be a percentage from 0 to 100 with five decimals, e.g. 19.00000';

const LABELS = [
  'terminal_label',
  'invoice_number',
  'mobile_phone_number',
  'store_label',
  'loyalty_label',
  'reference_label',
  'customer_label',
] as const;

const isZero = (value: string): boolean => /^0+(\.0+)?$/.test(value);

/** Cents of a FIXED value that passed its format check, else 0 (its error is already reported). */
const fixedCents = (type: string, value: string | undefined): number =>
  type === 'FIXED' && value !== undefined && AMOUNT.test(value) ? parseCents(value) : 0;

class RequestCheck {
  readonly errors = new FieldErrors('The QR code request');

  amount(field: string, value: string, positive: boolean): void {
    if (!AMOUNT.test(value)) this.errors.add(field, AMOUNT_MESSAGE);
    else if (positive && isZero(value)) this.errors.add(field, 'must be greater than 0.00');
  }

  percentage(field: string, value: string, positive: boolean): void {
    if (!PERCENTAGE.test(value)) this.errors.add(field, PERCENTAGE_MESSAGE);
    else if (positive && isZero(value)) this.errors.add(field, 'must be greater than 0.00000');
  }

  /** A FIXED value is an amount, a PERCENTAGE value a rate; WALLET (set by the wallet) takes either. */
  taxValue(field: string, type: string, value: string): void {
    if (type === 'FIXED') this.amount(field, value, false);
    else if (type === 'PERCENTAGE') this.percentage(field, value, false);
    else if (!AMOUNT.test(value) && !PERCENTAGE.test(value)) {
      this.errors.add(field, `${AMOUNT_MESSAGE}, or ${PERCENTAGE_MESSAGE}`);
    }
  }

  required(field: string, present: boolean, why: string): void {
    if (!present) this.errors.add(field, `is required ${why}`);
  }

  forbidden(field: string, present: boolean, why: string): void {
    if (present) this.errors.add(field, `is only sent ${why}`);
  }
}

function checkVat(check: RequestCheck, vat: QrVatRequest): void {
  check.taxValue('vat.vat_value', vat.vat_type, vat.vat_value);
  check.amount('vat.vat_base_value', vat.vat_base_value, false);
}

function checkInc(check: RequestCheck, inc: QrIncRequest): void {
  if (inc.inc_value !== undefined) check.taxValue('inc.inc_value', inc.inc_type, inc.inc_value);
  else check.required('inc.inc_value', inc.inc_type === 'WALLET', `for inc_type ${inc.inc_type}`);
}

/**
 * Throws VALIDATION_FAILED listing every rule the request breaks: the reference's letters, what a
 * DYNAMIC code and a code with an amount need, value formats by type, labels the payload can carry,
 * and the amount covering the FIXED VAT, INC and tip it includes (docs/contract.md, QR codes).
 */
export function checkQrCodeRequest(request: CreateQrCodeRequest): void {
  const check = new RequestCheck();
  const { errors } = check;
  const { type, amount, vat, inc, tip, additional_info: info } = request;

  if (!REFERENCE_PATTERN.test(request.qr_code_reference)) {
    errors.add('qr_code_reference', 'must be 1 to 17 letters or digits, without the letter P (the network adds it)');
  }

  if (type === 'DYNAMIC') {
    check.required('amount', amount !== undefined, 'for a DYNAMIC code');
    check.required('additional_info', info !== undefined, 'for a DYNAMIC code');
    if (info) {
      check.required(
        'additional_info.transaction_purpose',
        info.transaction_purpose !== undefined,
        'for a DYNAMIC code',
      );
      check.required('additional_info.terminal_label', info.terminal_label !== undefined, 'for a DYNAMIC code');
    }
  }
  if (amount) {
    check.amount('amount.value', amount.value, true);
    // An amount comes with its taxes (docs/contract.md, QR codes), also on a STATIC ("hybrid") code.
    check.required('vat', vat !== undefined, 'when the code carries an amount');
    check.required('inc', inc !== undefined, 'when the code carries an amount');
  }
  if (vat) checkVat(check, vat);
  if (inc) checkInc(check, inc);

  if (tip) {
    const { tip_type: tipType, tip_value: value, tip_percentage: percentage } = tip;
    if (tipType === 'FIXED') {
      if (value === undefined) check.required('tip.tip_value', false, 'for tip_type FIXED');
      else check.amount('tip.tip_value', value, true);
    }
    if (tipType === 'PERCENTAGE') {
      if (percentage === undefined) check.required('tip.tip_percentage', false, 'for tip_type PERCENTAGE');
      else check.percentage('tip.tip_percentage', percentage, true);
    }
    check.forbidden('tip.tip_value', tipType !== 'FIXED' && value !== undefined, 'with tip_type FIXED');
    check.forbidden(
      'tip.tip_percentage',
      tipType !== 'PERCENTAGE' && percentage !== undefined,
      'with tip_type PERCENTAGE',
    );
  }

  for (const label of LABELS) {
    const value = info?.[label];
    if (value !== undefined && !PRINTABLE_ASCII.test(value)) {
      errors.add(`additional_info.${label}`, 'must be printable ASCII (letters without accents, digits, punctuation)');
    }
  }
  if (info?.channel_presentation !== undefined && !CHANNEL_PRESENTATION.test(info.channel_presentation)) {
    errors.add('additional_info.channel_presentation', 'must be 3 digits: medium 0-7, location 0-3, presentation 0-3');
  }

  if (amount && AMOUNT.test(amount.value) && !isZero(amount.value)) {
    const included =
      fixedCents(vat?.vat_type ?? '', vat?.vat_value) +
      fixedCents(inc?.inc_type ?? '', inc?.inc_value) +
      fixedCents(tip?.tip_type ?? '', tip?.tip_value);
    if (parseCents(amount.value) < included) {
      errors.add('amount.value', 'must include the FIXED VAT, INC and tip it carries: it is smaller');
    }
  }
  errors.throwIfAny();
}

/** The encoder's input for a request that passed checkQrCodeRequest (absent members stay undefined). */
export function emvInputFor(request: CreateQrCodeRequest, key: QrKey, merchant: QrMerchant): EmvPayloadInput {
  const { amount, vat, inc, tip, additional_info: info } = request;
  return {
    type: request.type,
    key,
    merchant,
    channel: request.channel,
    reference: request.qr_code_reference,
    amount: amount?.value,
    tip: tip && { type: tip.tip_type, value: tip.tip_value, percentage: tip.tip_percentage },
    vat: vat && { type: vat.vat_type, value: vat.vat_value, baseValue: vat.vat_base_value },
    inc: inc && { type: inc.inc_type, value: inc.inc_value },
    additional: info && {
      invoiceNumber: info.invoice_number,
      mobileNumber: info.mobile_phone_number,
      storeLabel: info.store_label,
      loyaltyLabel: info.loyalty_label,
      referenceLabel: info.reference_label,
      customerLabel: info.customer_label,
      terminalLabel: info.terminal_label,
      purpose: info.transaction_purpose,
      customerInfo: info.customer_info === undefined ? undefined : customerInfoCode(info.customer_info),
      channelPresentation: info.channel_presentation,
    },
  };
}
