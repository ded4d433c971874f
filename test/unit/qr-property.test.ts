/**
 * Property: any input within the rules encodes to a payload that decodes back to the input's values
 * (names and cities as their ASCII forms), with a valid CRC and signature and consistent lengths.
 * Inputs whose key or additional data cannot fit in one TLV (99 characters) must be refused instead,
 * naming the member; the oracle below predicts which from the tag table.
 */
import fc from 'fast-check';
import { formatCents } from '../../shared/domain/money';
import { hasNonAscii, merchantCityForQr, merchantNameForQr } from '../../shared/qr/ascii';
import { decodeEmvPayload, type DecodedAdditionalInfo } from '../../shared/qr/emv-decode';
import type { EmvPayloadInput, EmvSettings, QrAdditionalData } from '../../shared/qr/emv-input';
import { encodeEmvPayload, prefixedReference } from '../../shared/qr/emv-payload';
import { QrFieldError } from '../../shared/qr/errors';
import { renderQrPng } from '../../shared/qr/image';
import { CHANNELS, TRANSACTION_PURPOSES } from '../../shared/qr/tags';
import { parseTlv, serializeTlv } from '../../shared/qr/tlv';
import { readQrPng } from '../support/qr-fixtures';

const SEED = 20260515;

const latinWord = fc.stringMatching(/^[A-Za-zÁÉÍÓÚÑÜáéíóúñüÇçÀÈàèÂâ]{1,12}$/);
/** Free text with at least one letter that survives the ASCII cut, and any Unicode around it. */
const merchantText = (maxLength: number) =>
  fc.oneof(
    fc.array(latinWord, { minLength: 1, maxLength: 6 }).map((words) => words.join(' ')),
    fc
      .tuple(fc.string({ unit: 'binary', maxLength: 10 }), latinWord, fc.string({ unit: 'grapheme', maxLength }))
      .map(([before, word, after]) => `${before} ${word} ${after}`),
    fc.tuple(latinWord, fc.string({ unit: 'binary', maxLength })).map(([word, after]) => `${word}${after}`),
  );

const amount = (min: number) => fc.integer({ min, max: 999_999_999_999 }).map(formatCents);
const rate = (min: number) =>
  fc
    .tuple(fc.integer({ min, max: 99 }), fc.option(fc.stringMatching(/^[0-9]{1,5}$/)))
    .map(([whole, decimals]) => (decimals === null ? String(whole) : `${whole}.${decimals}`))
    .filter((value) => min === 0 || Number(value) > 0);
const printable = (maxLength: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7E]{1,${maxLength}}$`));

const key = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{1,18}$/).map((keyValue) => ({ keyType: 'ID' as const, keyValue })),
  fc.stringMatching(/^3[0-9]{9}$/).map((keyValue) => ({ keyType: 'PHONE' as const, keyValue })),
  fc
    .tuple(fc.stringMatching(/^[!-?A-~]{1,30}$/), fc.stringMatching(/^[A-Za-z0-9.-]{1,61}$/))
    .map(([local, domain]) => ({ keyType: 'EMAIL' as const, keyValue: `${local}@${domain}` })),
  fc.stringMatching(/^@[A-Za-z0-9]{5,20}$/).map((keyValue) => ({ keyType: 'ALPHA' as const, keyValue })),
  fc.stringMatching(/^00[0-9]{8}$/).map((keyValue) => ({ keyType: 'BCODE' as const, keyValue })),
);

const tip = fc.oneof(
  fc.constant({ type: 'REQUEST' as const }),
  amount(1).map((value) => ({ type: 'FIXED' as const, value })),
  rate(1).map((percentage) => ({ type: 'PERCENTAGE' as const, percentage })),
);

const taxValue = fc.oneof(
  fc.record({
    type: fc.constant('WALLET' as const),
    value: fc.option(fc.oneof(amount(0), rate(0)), { nil: undefined }),
  }),
  fc.record({ type: fc.constant('FIXED' as const), value: amount(0) }),
  fc.record({ type: fc.constant('PERCENTAGE' as const), value: rate(0) }),
);
const vat = fc
  .tuple(taxValue, fc.option(amount(0), { nil: undefined }))
  .map(([tax, baseValue]) => ({ ...dropUndefined(tax), ...dropUndefined({ baseValue }) }));
const inc = taxValue.map(dropUndefined);

const additional: fc.Arbitrary<QrAdditionalData> = fc.record(
  {
    invoiceNumber: printable(25),
    mobileNumber: fc.stringMatching(/^\+?[0-9]{7,15}$/),
    storeLabel: printable(25),
    loyaltyLabel: printable(25),
    referenceLabel: printable(25),
    customerLabel: printable(25),
    terminalLabel: printable(25),
    purpose: fc.constantFrom(...TRANSACTION_PURPOSES),
    customerInfo: fc.constantFrom('A' as const, 'M' as const, 'E' as const),
    channelPresentation: fc.stringMatching(/^[0-7][0-3][0-3]$/),
  },
  { requiredKeys: [] },
);

const input: fc.Arbitrary<EmvPayloadInput> = fc
  .record({
    type: fc.constantFrom('STATIC' as const, 'DYNAMIC' as const),
    key,
    merchant: fc.record(
      {
        name: merchantText(140),
        city: merchantText(40),
        postCode: printable(10),
        mcc: fc.stringMatching(/^[0-9]{4}$/),
        nit: fc.stringMatching(/^[0-9]{1,15}$/),
      },
      { requiredKeys: ['name', 'city', 'postCode', 'mcc'] },
    ),
    amount: fc.option(amount(1), { nil: undefined }),
    dynamicAmount: amount(1),
    tip: fc.option(tip, { nil: undefined }),
    vat: fc.option(vat, { nil: undefined }),
    inc: fc.option(inc, { nil: undefined }),
    channel: fc.constantFrom(...CHANNELS),
    reference: fc.stringMatching(/^[A-OQ-Za-oq-z0-9]{1,17}$/),
    additional: fc.option(additional, { nil: undefined }),
  })
  .map(({ dynamicAmount, ...rest }) =>
    dropUndefined({ ...rest, amount: rest.type === 'DYNAMIC' ? (rest.amount ?? dynamicAmount) : rest.amount }),
  );

const settings: fc.Arbitrary<EmvSettings> = fc.record({
  acquirerId: fc.stringMatching(/^[A-Z0-9]{1,4}$/),
  signingSecret: fc.oneof(
    fc.string({ minLength: 1, maxLength: 64 }),
    fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
  ),
});

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

const ADDITIONAL_NAMES: ReadonlyArray<readonly [keyof QrAdditionalData, keyof DecodedAdditionalInfo]> = [
  ['invoiceNumber', 'invoice_number'],
  ['mobileNumber', 'mobile_phone_number'],
  ['storeLabel', 'store_label'],
  ['loyaltyLabel', 'loyalty_label'],
  ['referenceLabel', 'reference_label'],
  ['customerLabel', 'customer_label'],
  ['terminalLabel', 'terminal_label'],
  ['purpose', 'transaction_purpose'],
  ['customerInfo', 'customer_info'],
  ['channelPresentation', 'channel_presentation'],
];

function expectedAdditional(value: EmvPayloadInput): DecodedAdditionalInfo | null {
  const out: Record<string, string> = {};
  for (const [from, to] of ADDITIONAL_NAMES) {
    const field = value.additional?.[from];
    if (field !== undefined) out[to] = field;
  }
  if (value.merchant.nit !== undefined) out['merchant_nit'] = value.merchant.nit;
  return Object.keys(out).length > 0 ? out : null;
}

/** Which member the encoder must refuse, from the tag table: a template over 99 characters. */
function expectedRefusal(value: EmvPayloadInput, acquirerId: string): string | undefined {
  const guidLength = `CO.COM.${acquirerId}.LLA`.length;
  if (4 + guidLength + 4 + value.key.keyValue.length > 99) return 'key.keyValue';
  const additional = expectedAdditional(value);
  const length = Object.values(additional ?? {}).reduce((sum, field) => sum + 4 + field.length, 0);
  return length > 99 ? 'additional' : undefined;
}

describe('encode then decode (property)', () => {
  test('gives back the input, with valid CRC and signature and consistent lengths', () => {
    let encoded = 0;
    let refused = 0;
    fc.assert(
      fc.property(input, settings, (value, config) => {
        const refusal = expectedRefusal(value, config.acquirerId);
        if (refusal !== undefined) {
          let error: unknown;
          try {
            encodeEmvPayload(value, config);
          } catch (thrown) {
            error = thrown;
          }
          expect(error).toBeInstanceOf(QrFieldError);
          expect((error as QrFieldError).field).toBe(refusal);
          refused += 1;
          return;
        }

        const payload = encodeEmvPayload(value, config);
        encoded += 1;

        // Lengths: printable ASCII throughout, every TLV (and every template's) rebuilt exactly.
        expect(payload).toMatch(/^[\x20-\x7E]+$/);
        const top = parseTlv(payload);
        expect(serializeTlv(top)).toBe(payload);
        const ids = top.map((field) => field.id);
        expect(ids.slice(-2)).toEqual(['91', '63']);
        expect([...ids.slice(0, -2)].sort()).toEqual(ids.slice(0, -2));
        expect(new Set(ids).size).toBe(ids.length);

        const decoded = decodeEmvPayload(payload, config);
        for (const tag of decoded.tags) if (tag.fields) expect(serializeTlv(tag.fields)).toBe(tag.value);

        const nonAscii = hasNonAscii(value.merchant.name) || hasNonAscii(value.merchant.city);
        expect(decoded).toEqual({
          payload_format_indicator: '01',
          point_of_initiation_method: value.type === 'STATIC' ? '11' : '12',
          type: value.type,
          key: { key_type: value.key.keyType, key_value: value.key.keyValue },
          merchant_accounts: expect.any(Array),
          acquirer_network_identifier: config.acquirerId,
          merchant_category_code: value.merchant.mcc,
          transaction_currency: '170',
          amount: value.amount ?? null,
          tip: value.tip
            ? {
                indicator: { REQUEST: '01', FIXED: '02', PERCENTAGE: '03' }[value.tip.type],
                tip_type: value.tip.type,
                ...(value.tip.value !== undefined ? { tip_value: value.tip.value } : {}),
                ...(value.tip.percentage !== undefined ? { tip_percentage: value.tip.percentage } : {}),
              }
            : null,
          country_code: 'CO',
          merchant_name: merchantNameForQr(value.merchant.name),
          merchant_city: merchantCityForQr(value.merchant.city),
          merchant_post_code: value.merchant.postCode,
          additional_info: expectedAdditional(value),
          language_template: nonAscii
            ? {
                language_preference: 'ES',
                merchant_name: merchantNameForQr(value.merchant.name),
                merchant_city: merchantCityForQr(value.merchant.city),
              }
            : null,
          channel: value.channel,
          vat: value.vat
            ? {
                vat_type: value.vat.type,
                ...(value.vat.value !== undefined ? { vat_value: value.vat.value } : {}),
                ...(value.vat.baseValue !== undefined ? { vat_base_value: value.vat.baseValue } : {}),
              }
            : null,
          inc: value.inc
            ? { inc_type: value.inc.type, ...(value.inc.value !== undefined ? { inc_value: value.inc.value } : {}) }
            : null,
          reference: value.reference,
          qr_code_reference: prefixedReference(config.acquirerId, value.reference),
          security_value: expect.stringMatching(/^[0-9a-f]{64}$/),
          crc: payload.slice(-4),
          crc_valid: true,
          signature_valid: true,
          acquirer_matches: true,
          tags: expect.any(Array),
          warnings: [],
        });
        expect(decodeEmvPayload(payload, { signingSecret: `${String(config.signingSecret)}!` }).signature_valid).toBe(
          false,
        );
      }),
      { numRuns: 400, seed: SEED },
    );
    // Most runs take the main path; the refusals are exercised too.
    expect(encoded).toBeGreaterThanOrEqual(200);
    expect(refused).toBeGreaterThan(0);
  });

  test('every generated image reads back as its payload (pngjs + jsQR)', async () => {
    await fc.assert(
      fc.asyncProperty(input, settings, async (value, config) => {
        fc.pre(expectedRefusal(value, config.acquirerId) === undefined);
        const payload = encodeEmvPayload(value, config);
        expect(readQrPng(await renderQrPng(payload)).text).toBe(payload);
      }),
      // jsQR takes 0.1 to 0.5 s a code: a few runs here, the fixed samples in qr-image.test.ts.
      { numRuns: 10, seed: SEED },
    );
  }, 90_000);
});
