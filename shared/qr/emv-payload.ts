/**
 * The Bre-B QR payload (docs/qr-payload.md): tags in ascending order, then 91 (signature), then 63
 * (CRC) last. Pure: the same input and settings give the same string.
 */
import { QrFieldError } from './errors';
import { hasNonAscii, merchantCityForQr, merchantNameForQr } from './ascii';
import { crc16Hex } from './crc';
import { validateEmvInput, validateSettings, type EmvPayloadInput, type EmvSettings } from './emv-input';
import { signPayload } from './signature';
import {
  ADDITIONAL_SUBTAG,
  COUNTRY_CO,
  CURRENCY_COP,
  GUID_SUFFIX,
  guid,
  INITIATION_CODE,
  KEY_SUBTAG,
  LANGUAGE_ES,
  PAYLOAD_FORMAT,
  REFERENCE_MARK,
  TAG,
  TAX_CODE,
  TIP_CODE,
} from './tags';
import { encodeTemplate, encodeTlv } from './tlv';

export type * from './emv-input';

/** qr_code_reference as the network returns it: `CO.COM.<ACQ>.TRXIDP<reference>`. */
export function prefixedReference(acquirerId: string, reference: string): string {
  return `${guid(acquirerId, GUID_SUFFIX.transactionId)}${REFERENCE_MARK}${reference}`;
}

/**
 * A template of the Colombian profile: 00 is the GUID `CO.COM.<ACQ>.<suffix>` that names it, 01 its
 * one value (tag 26 is the exception: the key's value sits under its type's sub-tag). `field` names
 * the input a value too long for the tag came from.
 */
function colombianTemplate(
  acquirerId: string,
  template: Exclude<keyof typeof GUID_SUFFIX, 'key'>,
  value: string,
  field?: string,
): string {
  return encodeTemplate(
    TAG[template],
    [
      ['00', guid(acquirerId, GUID_SUFFIX[template])],
      ['01', value],
    ],
    field,
  );
}

/** The text tag 91 signs: the payload from tag 00 through tag 90. Exposed for tests and tools. */
export function encodeUnsignedPayload(input: EmvPayloadInput, settings: EmvSettings): string {
  validateSettings(settings);
  validateEmvInput(input);
  const acq = settings.acquirerId;
  const { merchant, additional = {} } = input;

  const name = merchantNameForQr(merchant.name);
  const city = merchantCityForQr(merchant.city);
  if (name.length === 0) throw new QrFieldError('merchant.name', 'has no character that can be written in the QR');
  if (city.length === 0) throw new QrFieldError('merchant.city', 'has no character that can be written in the QR');

  const out: string[] = [
    encodeTlv(TAG.payloadFormat, PAYLOAD_FORMAT),
    encodeTlv(TAG.initiationMethod, INITIATION_CODE[input.type]),
    encodeTemplate(
      TAG.key,
      [
        ['00', guid(acq, GUID_SUFFIX.key)],
        [KEY_SUBTAG[input.key.keyType], input.key.keyValue],
      ],
      'key.keyValue',
    ),
    colombianTemplate(acq, 'network', acq),
    encodeTlv(TAG.mcc, merchant.mcc, 'merchant.mcc'),
    encodeTlv(TAG.currency, CURRENCY_COP),
  ];
  if (input.amount !== undefined) out.push(encodeTlv(TAG.amount, input.amount, 'amount'));
  if (input.tip) {
    out.push(encodeTlv(TAG.tipIndicator, TIP_CODE[input.tip.type]));
    if (input.tip.type === 'FIXED') out.push(encodeTlv(TAG.tipFixed, input.tip.value!, 'tip.value'));
    if (input.tip.type === 'PERCENTAGE') {
      out.push(encodeTlv(TAG.tipPercentage, input.tip.percentage!, 'tip.percentage'));
    }
  }
  out.push(
    encodeTlv(TAG.country, COUNTRY_CO),
    encodeTlv(TAG.merchantName, name, 'merchant.name'),
    encodeTlv(TAG.merchantCity, city, 'merchant.city'),
    encodeTlv(TAG.postalCode, merchant.postCode, 'merchant.postCode'),
  );

  const additionalFields: Array<readonly [string, string]> = [];
  const add = (subTag: string, value: string | undefined): void => {
    if (value !== undefined) additionalFields.push([subTag, value]);
  };
  add(ADDITIONAL_SUBTAG.invoiceNumber, additional.invoiceNumber);
  add(ADDITIONAL_SUBTAG.mobileNumber, additional.mobileNumber);
  add(ADDITIONAL_SUBTAG.storeLabel, additional.storeLabel);
  add(ADDITIONAL_SUBTAG.loyaltyLabel, additional.loyaltyLabel);
  add(ADDITIONAL_SUBTAG.referenceLabel, additional.referenceLabel);
  add(ADDITIONAL_SUBTAG.customerLabel, additional.customerLabel);
  add(ADDITIONAL_SUBTAG.terminalLabel, additional.terminalLabel);
  add(ADDITIONAL_SUBTAG.purpose, additional.purpose);
  add(ADDITIONAL_SUBTAG.customerInfo, additional.customerInfo);
  add(ADDITIONAL_SUBTAG.merchantNit, merchant.nit);
  add(ADDITIONAL_SUBTAG.channelPresentation, additional.channelPresentation);
  if (additionalFields.length > 0) out.push(encodeTemplate(TAG.additionalData, additionalFields, 'additional'));

  // Tag 64 tells a reader the merchant's own name has letters the ASCII tags could not carry.
  if (hasNonAscii(merchant.name) || hasNonAscii(merchant.city)) {
    out.push(
      encodeTemplate(TAG.language, [
        ['00', LANGUAGE_ES],
        ['01', name],
        ['02', city],
      ]),
    );
  }

  out.push(colombianTemplate(acq, 'channel', input.channel));
  if (input.vat) {
    out.push(colombianTemplate(acq, 'vatCondition', TAX_CODE[input.vat.type]));
    if (input.vat.value !== undefined) out.push(colombianTemplate(acq, 'vatValue', input.vat.value, 'vat.value'));
    if (input.vat.baseValue !== undefined) {
      out.push(colombianTemplate(acq, 'vatBase', input.vat.baseValue, 'vat.baseValue'));
    }
  }
  if (input.inc) {
    out.push(colombianTemplate(acq, 'incCondition', TAX_CODE[input.inc.type]));
    if (input.inc.value !== undefined) out.push(colombianTemplate(acq, 'incValue', input.inc.value, 'inc.value'));
  }
  out.push(colombianTemplate(acq, 'transactionId', `${REFERENCE_MARK}${input.reference}`, 'reference'));
  return out.join('');
}

/** The whole payload: tags 00 to 90, tag 91 (HMAC of those), tag 63 (CRC of everything before it). */
export function encodeEmvPayload(input: EmvPayloadInput, settings: EmvSettings): string {
  const unsigned = encodeUnsignedPayload(input, settings);
  const signed =
    unsigned + colombianTemplate(settings.acquirerId, 'security', signPayload(unsigned, settings.signingSecret));
  const withCrcTag = `${signed}${TAG.crc}04`;
  return withCrcTag + crc16Hex(withCrcTag);
}
