/**
 * The rules of a QR code request beyond its schema, and the request's values surviving the whole
 * way: request -> encoder input -> payload -> decoder gives back what the client sent, for any valid
 * request (fast-check).
 */
import fc from 'fast-check';
import { checkQrCodeRequest, emvInputFor } from '../../shared/domain/qr-request';
import { decodeEmvPayload } from '../../shared/qr/emv-decode';
import { encodeEmvPayload } from '../../shared/qr/emv-payload';
import { CHANNELS, TRANSACTION_PURPOSES } from '../../shared/qr/tags';
import type { CreateQrCodeRequest } from '../../shared/schemas/qrcodes';
import { appErrorFrom } from '../support/thrown';

/** The EMVCo letter 62-09 carries for each of the request's codes and words. */
const EMV_CUSTOMER_INFO: Record<string, string> = { A: 'A', ADDRESS: 'A', E: 'E', EMAIL: 'E', P: 'M', PHONE: 'M' };

const SETTINGS = { acquirerId: 'RBM', signingSecret: 'unit-secret-of-enough-length' };
const KEY = { keyType: 'ALPHA', keyValue: '@tienda123' } as const;
const MERCHANT = { name: 'Tienda Uno', city: 'Cali', postCode: '760001', mcc: '5411', nit: '900123456' };

const base: CreateQrCodeRequest = {
  key_id: '7d7c5a1e-0000-4000-8000-000000000001',
  customer_id: '7d7c5a1e-0000-4000-8000-000000000002',
  type: 'STATIC',
  channel: 'POS',
  qr_code_reference: 'ABC123',
};

const dynamic: CreateQrCodeRequest = {
  ...base,
  type: 'DYNAMIC',
  amount: { value: '1190.00' },
  vat: { vat_type: 'FIXED', vat_value: '190.00', vat_base_value: '1000.00' },
  inc: { inc_type: 'WALLET' },
  additional_info: { transaction_purpose: '00', terminal_label: 'T1' },
};

const violations = (request: CreateQrCodeRequest) => {
  const error = appErrorFrom(() => checkQrCodeRequest(request));
  expect(error.code).toBe('VALIDATION_FAILED');
  return (error.extensions.errors ?? []).map((e) => `${e.field}: ${e.message}`);
};

describe('checkQrCodeRequest', () => {
  test('a plain STATIC request and a full DYNAMIC one pass', () => {
    expect(() => checkQrCodeRequest(base)).not.toThrow();
    expect(() => checkQrCodeRequest(dynamic)).not.toThrow();
  });

  test('every violation is reported at once, with its field path', () => {
    const fields = violations({
      ...base,
      type: 'DYNAMIC',
      qr_code_reference: 'PAGO1',
      tip: { tip_type: 'PERCENTAGE', tip_value: '1.00' },
      additional_info: { store_label: 'Añil', channel_presentation: '099' },
    }).map((line) => line.split(':')[0]);
    expect(fields).toEqual([
      'qr_code_reference',
      'amount',
      'additional_info.transaction_purpose',
      'additional_info.terminal_label',
      'tip.tip_percentage',
      'tip.tip_value',
      'additional_info.store_label',
      'additional_info.channel_presentation',
    ]);
  });

  test.each([
    ['-1.00000', false],
    ['0.00000', true],
    ['100.00000', true],
    ['99.99999', true],
    ['100.00001', false],
    ['19.0000', false],
    ['019.00000', false],
    ['19', false],
  ])('a PERCENTAGE VAT of %s is accepted: %s (0-100, five decimals)', (value, accepted) => {
    const request = { ...dynamic, vat: { vat_type: 'PERCENTAGE' as const, vat_value: value, vat_base_value: '1.00' } };
    if (accepted) expect(() => checkQrCodeRequest(request)).not.toThrow();
    else expect(violations(request)).toEqual([expect.stringMatching(/^vat\.vat_value: must be a percentage/)]);
  });

  test.each([
    ['1.00', true],
    ['19.00000', true],
    ['abc', false],
  ])('a WALLET VAT value of %s (amount or rate) is accepted: %s', (value, accepted) => {
    const request = { ...dynamic, vat: { vat_type: 'WALLET' as const, vat_value: value, vat_base_value: '1.00' } };
    if (accepted) expect(() => checkQrCodeRequest(request)).not.toThrow();
    else expect(violations(request)).toHaveLength(1);
  });

  test('an INC value is optional for WALLET only', () => {
    expect(() => checkQrCodeRequest({ ...dynamic, inc: { inc_type: 'WALLET' } })).not.toThrow();
    expect(violations({ ...dynamic, inc: { inc_type: 'PERCENTAGE' } })).toEqual([
      'inc.inc_value: is required for inc_type PERCENTAGE',
    ]);
  });

  test('rule 1: the amount covers its FIXED VAT, INC and tip, to the cent', () => {
    const parts = {
      vat: { vat_type: 'FIXED' as const, vat_value: '0.10', vat_base_value: '0.00' },
      inc: { inc_type: 'FIXED' as const, inc_value: '0.10' },
      tip: { tip_type: 'FIXED' as const, tip_value: '0.10' },
    };
    // 0.1 + 0.1 + 0.1 is not 0.3 in floating point; in cents it is.
    expect(() => checkQrCodeRequest({ ...dynamic, ...parts, amount: { value: '0.30' } })).not.toThrow();
    expect(violations({ ...dynamic, ...parts, amount: { value: '0.29' } })).toEqual([
      expect.stringMatching(/^amount\.value: must include the FIXED VAT, INC and tip/),
    ]);
    // PERCENTAGE parts are not amounts: they do not count.
    const percentage = { ...parts.vat, vat_type: 'PERCENTAGE' as const, vat_value: '50.00000' };
    expect(() => checkQrCodeRequest({ ...dynamic, vat: percentage, amount: { value: '0.01' } })).not.toThrow();
  });

  test('a STATIC code may carry a tip and taxes without an amount (the payer types it)', () => {
    expect(() =>
      checkQrCodeRequest({ ...base, tip: { tip_type: 'FIXED', tip_value: '500.00' }, inc: { inc_type: 'WALLET' } }),
    ).not.toThrow();
  });
});

const amountText = fc
  .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 99 }))
  .map(([units, cents]) => `${units}.${String(cents).padStart(2, '0')}`);
const percentageText = fc
  .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99_999 }))
  .map(([units, fraction]) => `${units}.${String(fraction).padStart(5, '0')}`);
const label = fc.stringMatching(/^[\x21-\x7E][\x20-\x7E]{0,23}[\x21-\x7E]$/);
const referenceText = fc.stringMatching(/^[A-OQ-Za-oq-z0-9]{1,17}$/);

const validRequest: fc.Arbitrary<CreateQrCodeRequest> = fc
  .record({
    type: fc.constantFrom('STATIC' as const, 'DYNAMIC' as const),
    channel: fc.constantFrom(...CHANNELS),
    reference: referenceText,
    amount: amountText.filter((value) => value !== '0.00'),
    withAmount: fc.boolean(),
    vat: fc.oneof(
      fc.record({
        vat_type: fc.constant('FIXED' as const),
        vat_value: fc.constant('0.00'),
        vat_base_value: amountText,
      }),
      fc.record({
        vat_type: fc.constant('PERCENTAGE' as const),
        vat_value: percentageText,
        vat_base_value: amountText,
      }),
    ),
    inc: fc.oneof(
      fc.record({ inc_type: fc.constant('WALLET' as const) }),
      fc.record({ inc_type: fc.constant('PERCENTAGE' as const), inc_value: percentageText }),
    ),
    tip: fc.option(
      fc.oneof(
        fc.record({ tip_type: fc.constant('REQUEST' as const) }),
        fc.record({
          tip_type: fc.constant('PERCENTAGE' as const),
          tip_percentage: percentageText.filter((v) => v !== '0.00000'),
        }),
      ),
      { nil: undefined },
    ),
    info: fc.record(
      {
        transaction_purpose: fc.constantFrom(...TRANSACTION_PURPOSES),
        terminal_label: label,
        invoice_number: label,
        store_label: label,
        customer_info: fc.constantFrom('A', 'E', 'P', 'ADDRESS', 'EMAIL', 'PHONE'),
        channel_presentation: fc.stringMatching(/^[0-7][0-3][0-3]$/),
      },
      { requiredKeys: ['transaction_purpose', 'terminal_label'] },
    ),
  })
  .map(({ type, channel, reference, amount, withAmount, vat, inc, tip, info }) => {
    const priced = type === 'DYNAMIC' || withAmount;
    return {
      ...base,
      type,
      channel,
      qr_code_reference: reference,
      ...(priced ? { amount: { value: amount }, vat, inc } : {}),
      ...(tip ? { tip } : {}),
      ...(type === 'DYNAMIC' || withAmount ? { additional_info: info } : {}),
    };
  });

test('any valid request encodes to a payload that decodes to its values, with a valid CRC and signature', () => {
  fc.assert(
    fc.property(validRequest, (request) => {
      checkQrCodeRequest(request);
      const payload = encodeEmvPayload(emvInputFor(request, KEY, MERCHANT), SETTINGS);
      const decoded = decodeEmvPayload(payload, { signingSecret: SETTINGS.signingSecret });
      expect(decoded.crc_valid).toBe(true);
      expect(decoded.signature_valid).toBe(true);
      expect(decoded.type).toBe(request.type);
      expect(decoded.channel).toBe(request.channel);
      expect(decoded.reference).toBe(request.qr_code_reference);
      expect(decoded.amount).toBe(request.amount?.value ?? null);
      expect(decoded.vat).toEqual(request.vat ?? null);
      expect(decoded.inc).toEqual(request.inc ?? null);
      if (request.tip) expect(decoded.tip).toMatchObject(request.tip);
      else expect(decoded.tip).toBeNull();
      const info = request.additional_info;
      if (info) {
        expect(decoded.additional_info).toMatchObject({
          transaction_purpose: info.transaction_purpose,
          terminal_label: info.terminal_label,
          ...(info.invoice_number ? { invoice_number: info.invoice_number } : {}),
          ...(info.store_label ? { store_label: info.store_label } : {}),
          ...(info.channel_presentation ? { channel_presentation: info.channel_presentation } : {}),
          ...(info.customer_info ? { customer_info: EMV_CUSTOMER_INFO[info.customer_info] } : {}),
        });
      }
    }),
    { seed: 20261122, numRuns: 300 },
  );
});
