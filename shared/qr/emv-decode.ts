/**
 * Reads any EMVCo merchant-presented payload: ours, another Bre-B acquirer's, or another scheme's
 * (Pix and the like). Tags may come in any order. Structure errors (an id or length that is not two
 * digits, a field running past the end) throw DecodeError; everything else is reported: the fields
 * this profile knows, every raw tag including unknown ones, whether the CRC checks out and, given
 * the secret, whether our tag 91 signature does. The result uses the API's snake_case names so a
 * decode endpoint can answer with it directly.
 */
import { crc16Hex } from './crc';
import { DecodeError } from './decode-error';
import { verifySignature, type SigningSecret } from './signature';
import {
  ADDITIONAL_SUBTAG,
  GUID_SUFFIX,
  INITIATION_CODE,
  invert,
  KEY_SUBTAG,
  parseGuid,
  REFERENCE_MARK,
  TAG,
  TAX_CODE,
  TIP_CODE,
  type InitiationMethod,
  type KeyType,
  type TaxType,
  type TipType,
} from './tags';
import { codePointLength, parseTlv, serializeTlv, type TlvField } from './tlv';

/** The most any QR code holds (version 40, level L, bytes): nothing longer was ever scanned. */
export const MAX_PAYLOAD_LENGTH = 2953;

export interface DecodeOptions {
  /** Ours: when given, `acquirer_matches` says whether the payload names this acquirer. */
  readonly acquirerId?: string;
  /**
   * When given and tag 91 is present, `signature_valid` is computed: true when any of the secrets
   * verifies it (the current key, then the previous one while a rotation is under way).
   */
  readonly signingSecret?: SigningSecret | readonly SigningSecret[];
}

export interface DecodedTag {
  readonly id: string;
  readonly value: string;
  /** Sub-fields, for the template tags (26-51, 62, 64, 80-99) whose value parses as TLV. */
  readonly fields?: readonly TlvField[];
}

export interface MerchantAccount {
  readonly tag: string;
  /** Sub-tag 00, the globally unique id of the scheme (e.g. CO.COM.RBM.LLA, br.gov.bcb.pix). */
  readonly guid: string | null;
  readonly fields: readonly TlvField[];
}

export interface DecodedAdditionalInfo {
  readonly invoice_number?: string;
  readonly mobile_phone_number?: string;
  readonly store_label?: string;
  readonly loyalty_label?: string;
  readonly reference_label?: string;
  readonly customer_label?: string;
  readonly terminal_label?: string;
  readonly transaction_purpose?: string;
  /** 62-09 as written: EMVCo letters (A, M, E); some issuers write a word (EMAIL). */
  readonly customer_info?: string;
  readonly merchant_nit?: string;
  readonly channel_presentation?: string;
}

export interface DecodedEmvPayload {
  readonly payload_format_indicator: string | null;
  readonly point_of_initiation_method: string | null;
  /** From tag 01: 11 STATIC, 12 DYNAMIC; null when absent or another code. */
  readonly type: InitiationMethod | null;
  /** The Bre-B key (tag 26-51 template whose GUID is CO.COM.<ACQ>.LLA). */
  readonly key: { readonly key_type: KeyType; readonly key_value: string } | null;
  /** Every merchant account template (tags 26 to 51), whatever the scheme. */
  readonly merchant_accounts: readonly MerchantAccount[];
  readonly acquirer_network_identifier: string | null;
  readonly merchant_category_code: string | null;
  readonly transaction_currency: string | null;
  readonly amount: string | null;
  readonly tip: {
    readonly indicator: string;
    readonly tip_type: TipType | null;
    readonly tip_value?: string;
    readonly tip_percentage?: string;
  } | null;
  readonly country_code: string | null;
  readonly merchant_name: string | null;
  readonly merchant_city: string | null;
  readonly merchant_post_code: string | null;
  readonly additional_info: DecodedAdditionalInfo | null;
  readonly language_template: {
    readonly language_preference?: string;
    readonly merchant_name?: string;
    readonly merchant_city?: string;
  } | null;
  readonly channel: string | null;
  readonly vat: {
    readonly vat_type: TaxType | null;
    readonly vat_value?: string;
    readonly vat_base_value?: string;
  } | null;
  readonly inc: { readonly inc_type: TaxType | null; readonly inc_value?: string } | null;
  /** qr_code_reference as the merchant sent it (tag 90-01 without its leading P). */
  readonly reference: string | null;
  /** The network's form, CO.COM.<ACQ>.TRXIDP<reference>. */
  readonly qr_code_reference: string | null;
  /** Tag 91-01 as written. */
  readonly security_value: string | null;
  /** Tag 63's value as written. */
  readonly crc: string | null;
  /** Tag 63 is the last field and matches the CRC of everything before its value. */
  readonly crc_valid: boolean;
  /** Only with a signing secret and a tag 91: our HMAC over tags before 91, and only 63 after it. */
  readonly signature_valid?: boolean;
  /** Only with options.acquirerId: the payload's acquirer network id is that one. */
  readonly acquirer_matches?: boolean;
  /** Every top-level tag in payload order, unknown ones included. */
  readonly tags: readonly DecodedTag[];
  /** Oddities that did not stop the decoding (duplicate tags, templates that do not parse...). */
  readonly warnings: readonly string[];
}

const KEY_TYPE_BY_SUBTAG = invert(KEY_SUBTAG);
const TIP_TYPE_BY_CODE = invert(TIP_CODE);
const TAX_TYPE_BY_CODE = invert(TAX_CODE);
const METHOD_BY_CODE = invert(INITIATION_CODE);
const ADDITIONAL_NAME: ReadonlyMap<string, keyof DecodedAdditionalInfo> = new Map([
  [ADDITIONAL_SUBTAG.invoiceNumber, 'invoice_number'],
  [ADDITIONAL_SUBTAG.mobileNumber, 'mobile_phone_number'],
  [ADDITIONAL_SUBTAG.storeLabel, 'store_label'],
  [ADDITIONAL_SUBTAG.loyaltyLabel, 'loyalty_label'],
  [ADDITIONAL_SUBTAG.referenceLabel, 'reference_label'],
  [ADDITIONAL_SUBTAG.customerLabel, 'customer_label'],
  [ADDITIONAL_SUBTAG.terminalLabel, 'terminal_label'],
  [ADDITIONAL_SUBTAG.purpose, 'transaction_purpose'],
  [ADDITIONAL_SUBTAG.customerInfo, 'customer_info'],
  [ADDITIONAL_SUBTAG.merchantNit, 'merchant_nit'],
  [ADDITIONAL_SUBTAG.channelPresentation, 'channel_presentation'],
]);

const isTemplate = (id: string): boolean => {
  const n = Number(id);
  return (n >= 26 && n <= 51) || n === 62 || n === 64 || n >= 80;
};

const sub = (fields: readonly TlvField[] | undefined, id: string): string | undefined =>
  fields?.find((field) => field.id === id)?.value;

export function decodeEmvPayload(payload: string, options: DecodeOptions = {}): DecodedEmvPayload {
  if (typeof payload !== 'string') throw new DecodeError('NOT_A_STRING', 0, 'must be a string');
  if (payload.length === 0) throw new DecodeError('EMPTY', 0, 'must not be empty');
  const length = codePointLength(payload);
  if (length > MAX_PAYLOAD_LENGTH) {
    throw new DecodeError(
      'TOO_LONG',
      MAX_PAYLOAD_LENGTH,
      `has ${length} characters; no QR code holds more than ${MAX_PAYLOAD_LENGTH}`,
    );
  }

  const warnings: string[] = [];
  const top = parseTlv(payload);
  let position = 0;
  const tags: DecodedTag[] = top.map(({ id, value }) => {
    const start = position;
    position += 4 + codePointLength(value);
    if (!isTemplate(id)) return { id, value };
    try {
      return { id, value, fields: parseTlv(value, { offset: start + 4, path: id }) };
    } catch (error) {
      if (!(error instanceof DecodeError)) throw error;
      warnings.push(`tag ${id} is not a list of sub-fields: ${error.message}`);
      return { id, value };
    }
  });

  const first = new Map<string, DecodedTag>();
  for (const tag of tags) {
    if (first.has(tag.id)) warnings.push(`tag ${tag.id} appears more than once; the first is used`);
    else first.set(tag.id, tag);
  }
  if (tags[0]?.id !== TAG.payloadFormat) warnings.push('tag 00 is not the first field');
  if (tags.at(-1)?.id !== TAG.crc) warnings.push('tag 63 is not the last field');

  const value = (id: string): string | null => first.get(id)?.value ?? null;
  /** A Colombian template's fields, when its GUID (sub-tag 00) has the expected suffix. */
  const colombian = (id: string, suffix: string): readonly TlvField[] | undefined => {
    const fields = first.get(id)?.fields;
    const guidValue = sub(fields, '00');
    return guidValue !== undefined && parseGuid(guidValue)?.suffix === suffix ? fields : undefined;
  };

  const merchantAccounts: MerchantAccount[] = tags
    .filter((tag) => Number(tag.id) >= 26 && Number(tag.id) <= 51 && tag.fields)
    .map((tag) => ({ tag: tag.id, guid: sub(tag.fields, '00') ?? null, fields: tag.fields! }));

  // The key: the first account template with a CO.COM.<ACQ>.LLA GUID and a key sub-tag.
  let key: DecodedEmvPayload['key'] = null;
  let keyGuidAcquirer: string | undefined;
  for (const account of merchantAccounts) {
    const parsed = account.guid ? parseGuid(account.guid) : undefined;
    if (parsed?.suffix !== GUID_SUFFIX.key) continue;
    keyGuidAcquirer = parsed.acquirerId;
    const keyField = account.fields.find((field) => KEY_TYPE_BY_SUBTAG.has(field.id));
    if (keyField) {
      key = { key_type: KEY_TYPE_BY_SUBTAG.get(keyField.id)!, key_value: keyField.value };
      break;
    }
    warnings.push(`tag ${account.tag} has the Bre-B key GUID but no key sub-tag (01 to 05)`);
  }

  const network = colombian(TAG.network, GUID_SUFFIX.network);
  const acquirer = sub(network, '01') ?? keyGuidAcquirer ?? null;

  const tipIndicator = value(TAG.tipIndicator);
  const tip: DecodedEmvPayload['tip'] =
    tipIndicator === null
      ? null
      : {
          indicator: tipIndicator,
          tip_type: TIP_TYPE_BY_CODE.get(tipIndicator) ?? null,
          ...optional('tip_value', value(TAG.tipFixed)),
          ...optional('tip_percentage', value(TAG.tipPercentage)),
        };

  const additionalFields = first.get(TAG.additionalData)?.fields;
  let additional: Record<string, string> | null = null;
  if (additionalFields) {
    additional = {};
    for (const field of additionalFields) {
      const name = ADDITIONAL_NAME.get(field.id);
      if (name && !(name in additional)) additional[name] = field.value;
    }
  }

  const languageFields = first.get(TAG.language)?.fields;
  const language: DecodedEmvPayload['language_template'] = languageFields
    ? {
        ...optional('language_preference', sub(languageFields, '00')),
        ...optional('merchant_name', sub(languageFields, '01')),
        ...optional('merchant_city', sub(languageFields, '02')),
      }
    : null;

  const vatCondition = colombian(TAG.vatCondition, GUID_SUFFIX.vatCondition);
  const vatValue = colombian(TAG.vatValue, GUID_SUFFIX.vatValue);
  const vatBase = colombian(TAG.vatBase, GUID_SUFFIX.vatBase);
  const vat: DecodedEmvPayload['vat'] =
    vatCondition || vatValue || vatBase
      ? {
          vat_type: taxType(sub(vatCondition, '01')),
          ...optional('vat_value', sub(vatValue, '01')),
          ...optional('vat_base_value', sub(vatBase, '01')),
        }
      : null;
  const incCondition = colombian(TAG.incCondition, GUID_SUFFIX.incCondition);
  const incValue = colombian(TAG.incValue, GUID_SUFFIX.incValue);
  const inc: DecodedEmvPayload['inc'] =
    incCondition || incValue
      ? { inc_type: taxType(sub(incCondition, '01')), ...optional('inc_value', sub(incValue, '01')) }
      : null;

  const transaction = colombian(TAG.transactionId, GUID_SUFFIX.transactionId);
  const transactionValue = sub(transaction, '01');
  let reference: string | null = null;
  if (transactionValue !== undefined) {
    if (transactionValue.startsWith(REFERENCE_MARK)) reference = transactionValue.slice(REFERENCE_MARK.length);
    else {
      reference = transactionValue;
      warnings.push(`tag 90-01 does not start with ${REFERENCE_MARK}`);
    }
  }

  const security = colombian(TAG.security, GUID_SUFFIX.security);
  const securityValue = sub(security, '01') ?? null;

  const last = top.at(-1);
  const crcValue = value(TAG.crc);
  const crcValid =
    last !== undefined &&
    last.id === TAG.crc &&
    last.value.length === 4 &&
    crc16Hex(`${serializeTlv(top.slice(0, -1))}${TAG.crc}04`) === last.value.toUpperCase();

  const result: DecodedEmvPayload = {
    payload_format_indicator: value(TAG.payloadFormat),
    point_of_initiation_method: value(TAG.initiationMethod),
    type: METHOD_BY_CODE.get(value(TAG.initiationMethod) ?? '') ?? null,
    key,
    merchant_accounts: merchantAccounts,
    acquirer_network_identifier: acquirer,
    merchant_category_code: value(TAG.mcc),
    transaction_currency: value(TAG.currency),
    amount: value(TAG.amount),
    tip,
    country_code: value(TAG.country),
    merchant_name: value(TAG.merchantName),
    merchant_city: value(TAG.merchantCity),
    merchant_post_code: value(TAG.postalCode),
    additional_info: additional,
    language_template: language,
    channel: sub(colombian(TAG.channel, GUID_SUFFIX.channel), '01') ?? null,
    vat,
    inc,
    reference,
    qr_code_reference: transactionValue === undefined ? null : `${sub(transaction, '00') ?? ''}${transactionValue}`,
    security_value: securityValue,
    crc: crcValue,
    crc_valid: crcValid,
    ...(options.signingSecret !== undefined && first.has(TAG.security)
      ? { signature_valid: signatureValid(top, securityValue, options.signingSecret) }
      : {}),
    ...(options.acquirerId !== undefined ? { acquirer_matches: acquirer === options.acquirerId } : {}),
    tags,
    warnings,
  };
  return result;
}

/** Tag 91 must be the second to last field, 63 the last, and the HMAC of all before 91 match. */
function signatureValid(
  top: readonly TlvField[],
  signature: string | null,
  secret: SigningSecret | readonly SigningSecret[],
): boolean {
  if (signature === null || top.length < 2) return false;
  const securityIndex = top.length - 2;
  if (top[securityIndex]!.id !== TAG.security || top[securityIndex + 1]!.id !== TAG.crc) return false;
  if (top.findIndex((field) => field.id === TAG.security) !== securityIndex) return false;
  const signed = serializeTlv(top.slice(0, securityIndex));
  const secrets: readonly SigningSecret[] = Array.isArray(secret) ? secret : [secret];
  return secrets.some((candidate) => verifySignature(signed, signature, candidate));
}

function taxType(code: string | undefined): TaxType | null {
  return code === undefined ? null : (TAX_TYPE_BY_CODE.get(code) ?? null);
}

function optional<K extends string>(name: K, value: string | null | undefined): { [P in K]?: string } {
  return (value === null || value === undefined ? {} : { [name]: value }) as { [P in K]?: string };
}
