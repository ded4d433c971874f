/**
 * What the encoder takes: a plain domain object (no request JSON, no AWS types), and the rules each
 * member must meet to be written into the payload. The API layer validates the request against its
 * schema first; these checks are the payload's own limits (lengths, characters, codes) and answer
 * VALIDATION_FAILED naming the member, so nothing malformed can reach a printed code.
 */
import { QrFieldError } from './errors';
import { KEY_PATTERNS, KEY_TYPES } from './key-formats';
import { hasNonAscii } from './ascii';
import { assertSecret, type SigningSecret } from './signature';
import {
  CHANNELS,
  TRANSACTION_PURPOSES,
  type Channel,
  type CustomerInfoCode,
  type InitiationMethod,
  type KeyType,
  type TaxType,
  type TipType,
  type TransactionPurpose,
} from './tags';

export interface QrKey {
  readonly keyType: KeyType;
  readonly keyValue: string;
}

export interface QrMerchant {
  /** The business name, any text; written as ASCII cut to 25 (tag 59). */
  readonly name: string;
  /** Any text; written as ASCII cut to 15 (tag 60). */
  readonly city: string;
  readonly postCode: string;
  /** Merchant category code, 4 digits. */
  readonly mcc: string;
  /** Written in 62-10 when given. */
  readonly nit?: string;
}

export interface QrTip {
  readonly type: TipType;
  /** FIXED only: an amount with two decimals. */
  readonly value?: string;
  /** PERCENTAGE only: a rate with up to five decimals, e.g. "10.00000". */
  readonly percentage?: string;
}

export interface QrVat {
  readonly type: TaxType;
  /** FIXED: an amount; PERCENTAGE: a rate; WALLET: optional, either. Written in tag 82. */
  readonly value?: string;
  /** An amount; written in tag 83. */
  readonly baseValue?: string;
}

export interface QrInc {
  readonly type: TaxType;
  /** As for VAT; written in tag 85. */
  readonly value?: string;
}

export interface QrAdditionalData {
  readonly invoiceNumber?: string;
  readonly mobileNumber?: string;
  readonly storeLabel?: string;
  readonly loyaltyLabel?: string;
  readonly referenceLabel?: string;
  readonly customerLabel?: string;
  readonly terminalLabel?: string;
  readonly purpose?: TransactionPurpose;
  /** EMVCo letter; see customerInfoCode() for the request's codes and words. */
  readonly customerInfo?: CustomerInfoCode;
  /** Three digits: medium, location, presentation. */
  readonly channelPresentation?: string;
}

export interface EmvPayloadInput {
  readonly type: InitiationMethod;
  readonly key: QrKey;
  readonly merchant: QrMerchant;
  /** COP with two decimals; required for DYNAMIC, optional for STATIC (a "hybrid" code). */
  readonly amount?: string;
  readonly tip?: QrTip;
  readonly vat?: QrVat;
  readonly inc?: QrInc;
  readonly channel: Channel;
  /** qr_code_reference: 1 to 17 letters or digits, no P. */
  readonly reference: string;
  readonly additional?: QrAdditionalData;
}

export interface EmvSettings {
  /** The acquirer network id, 1 to 4 upper-case letters or digits (e.g. RBM). */
  readonly acquirerId: string;
  /** The HMAC key of tag 91. */
  readonly signingSecret: SigningSecret;
}

/** Bre-B key formats: one definition, in ./key-formats.ts. */
export { KEY_PATTERNS };

export const REFERENCE_PATTERN = /^[A-OQ-Za-oq-z0-9]{1,17}$/;
export const ACQUIRER_PATTERN = /^[A-Z0-9]{1,4}$/;
const AMOUNT = /^(0|[1-9][0-9]{0,14})\.[0-9]{2}$/;
/** EMVCo tag 54 holds at most 13 characters. */
const AMOUNT_MAX_LENGTH = 13;
const RATE = /^(0|[1-9][0-9]{0,2})(\.[0-9]{1,5})?$/;
const MCC = /^[0-9]{4}$/;
const NIT = /^[0-9]{1,15}$/;
const POST_CODE = /^[\x20-\x7E]{1,10}$/;
const CHANNEL_PRESENTATION = /^[0-7][0-3][0-3]$/;
const ADDITIONAL_TEXT = /^[\x20-\x7E]{1,25}$/;
const TAX_TYPES = new Set<string>(['WALLET', 'FIXED', 'PERCENTAGE']);
const TIP_TYPES = new Set<string>(['REQUEST', 'FIXED', 'PERCENTAGE']);

const isZero = (value: string): boolean => /^0(\.0+)?$/.test(value);

function amount(field: string, value: string, { positive }: { positive: boolean }): void {
  if (!AMOUNT.test(value)) throw new QrFieldError(field, 'must be an amount with two decimals, e.g. 15000.00');
  if (value.length > AMOUNT_MAX_LENGTH) {
    throw new QrFieldError(field, `must have at most ${AMOUNT_MAX_LENGTH} characters in the QR payload`);
  }
  if (positive && isZero(value)) throw new QrFieldError(field, 'must be greater than 0.00');
}

function rate(field: string, value: string, { positive }: { positive: boolean }): void {
  if (!RATE.test(value) || Number(value) > 100) {
    throw new QrFieldError(field, 'must be a rate from 0 to 100 with up to five decimals, e.g. 19.00000');
  }
  if (positive && isZero(value)) throw new QrFieldError(field, 'must be greater than 0');
}

function absent(field: string, value: unknown, why: string): void {
  if (value !== undefined) throw new QrFieldError(field, why);
}

function taxValue(field: string, type: TaxType, value: string | undefined): void {
  if (type === 'WALLET') {
    if (value !== undefined && !AMOUNT.test(value) && !RATE.test(value)) {
      throw new QrFieldError(field, 'must be an amount with two decimals or a rate with up to five decimals');
    }
    return;
  }
  if (value === undefined) throw new QrFieldError(field, `is required for ${type}`);
  if (type === 'FIXED') amount(field, value, { positive: false });
  else rate(field, value, { positive: false });
}

function tax(prefix: string, tax: { type: TaxType; value?: string }): void {
  if (!TAX_TYPES.has(tax.type)) throw new QrFieldError(`${prefix}.type`, 'must be WALLET, FIXED or PERCENTAGE');
  taxValue(`${prefix}.value`, tax.type, tax.value);
}

export function validateSettings(settings: EmvSettings): void {
  if (!ACQUIRER_PATTERN.test(settings.acquirerId)) {
    throw new TypeError(`acquirerId must be 1 to 4 upper-case letters or digits, not '${settings.acquirerId}'`);
  }
  assertSecret(settings.signingSecret);
}

export function validateEmvInput(input: EmvPayloadInput): void {
  if (input.type !== 'STATIC' && input.type !== 'DYNAMIC') throw new QrFieldError('type', 'must be STATIC or DYNAMIC');

  const { keyType, keyValue } = input.key;
  if (!(KEY_TYPES as readonly string[]).includes(keyType))
    throw new QrFieldError('key.keyType', 'must be ID, PHONE, EMAIL, ALPHA or BCODE');
  if (!KEY_PATTERNS[keyType].test(keyValue) || hasNonAscii(keyValue)) {
    throw new QrFieldError('key.keyValue', `is not a valid ${keyType} key`);
  }

  const { merchant } = input;
  if (merchant.name.trim().length === 0) throw new QrFieldError('merchant.name', 'must not be empty');
  if (merchant.city.trim().length === 0) throw new QrFieldError('merchant.city', 'must not be empty');
  if (!POST_CODE.test(merchant.postCode)) {
    throw new QrFieldError('merchant.postCode', 'must be 1 to 10 printable ASCII characters');
  }
  if (!MCC.test(merchant.mcc)) throw new QrFieldError('merchant.mcc', 'must be 4 digits');
  if (merchant.nit !== undefined && !NIT.test(merchant.nit))
    throw new QrFieldError('merchant.nit', 'must be 1 to 15 digits');

  if (input.amount !== undefined) amount('amount', input.amount, { positive: true });
  else if (input.type === 'DYNAMIC') throw new QrFieldError('amount', 'is required for a DYNAMIC code');

  if (input.tip) {
    const { type, value, percentage } = input.tip;
    if (!TIP_TYPES.has(type)) throw new QrFieldError('tip.type', 'must be REQUEST, FIXED or PERCENTAGE');
    if (type === 'FIXED') {
      if (value === undefined) throw new QrFieldError('tip.value', 'is required for FIXED');
      amount('tip.value', value, { positive: true });
    } else absent('tip.value', value, 'is only sent for FIXED');
    if (type === 'PERCENTAGE') {
      if (percentage === undefined) throw new QrFieldError('tip.percentage', 'is required for PERCENTAGE');
      rate('tip.percentage', percentage, { positive: true });
    } else absent('tip.percentage', percentage, 'is only sent for PERCENTAGE');
  }

  if (input.vat) {
    tax('vat', input.vat);
    if (input.vat.baseValue !== undefined) amount('vat.baseValue', input.vat.baseValue, { positive: false });
  }
  if (input.inc) tax('inc', input.inc);

  if (!CHANNELS.includes(input.channel)) throw new QrFieldError('channel', `must be one of ${CHANNELS.join(', ')}`);
  if (!REFERENCE_PATTERN.test(input.reference)) {
    throw new QrFieldError('reference', 'must be 1 to 17 letters or digits, without the letter P');
  }

  const additional = input.additional ?? {};
  const texts = [
    'invoiceNumber',
    'mobileNumber',
    'storeLabel',
    'loyaltyLabel',
    'referenceLabel',
    'customerLabel',
    'terminalLabel',
  ] as const;
  for (const name of texts) {
    const value = additional[name];
    if (value !== undefined && !ADDITIONAL_TEXT.test(value)) {
      throw new QrFieldError(`additional.${name}`, 'must be 1 to 25 printable ASCII characters');
    }
  }
  if (additional.purpose !== undefined && !TRANSACTION_PURPOSES.includes(additional.purpose)) {
    throw new QrFieldError('additional.purpose', `must be one of ${TRANSACTION_PURPOSES.join(', ')}`);
  }
  if (additional.customerInfo !== undefined && !['A', 'M', 'E'].includes(additional.customerInfo)) {
    throw new QrFieldError('additional.customerInfo', 'must be A, M or E');
  }
  if (additional.channelPresentation !== undefined && !CHANNEL_PRESENTATION.test(additional.channelPresentation)) {
    throw new QrFieldError(
      'additional.channelPresentation',
      'must be 3 digits: medium 0-7, location 0-3, presentation 0-3',
    );
  }
}

/**
 * The request's customer_info (the contract's codes A, E, P or the words ADDRESS, EMAIL, PHONE; EMVCo's M and
 * MOBILE too) as the EMVCo letter written in 62-09.
 */
export function customerInfoCode(value: string, field = 'additional_info.customer_info'): CustomerInfoCode {
  switch (value.trim().toUpperCase()) {
    case 'A':
    case 'ADDRESS':
      return 'A';
    case 'E':
    case 'EMAIL':
      return 'E';
    case 'P':
    case 'PHONE':
    case 'M':
    case 'MOBILE':
      return 'M';
    default:
      throw new QrFieldError(field, 'must be A (address), E (email) or P (phone)');
  }
}
