/** Decoding: our payloads, another Bre-B acquirer's, another scheme's (Pix), and broken ones. */
import fc from 'fast-check';
import { crc16Hex } from '../../shared/qr/crc';
import { DecodeError } from '../../shared/qr/decode-error';
import { QrFieldError } from '../../shared/qr/errors';
import { decodeEmvPayload, MAX_PAYLOAD_LENGTH } from '../../shared/qr/emv-decode';
import type { EmvPayloadInput } from '../../shared/qr/emv-input';
import { encodeEmvPayload } from '../../shared/qr/emv-payload';
import { parseTlv, serializeTlv } from '../../shared/qr/tlv';

// The BCB Pix specification's static example (CRC 1D3D, checked in qr-crc.test.ts).
const PIX_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
// A Bre-B payload of another acquirer (VISI), published as an SDK example (CRC 5B8F).
const BREB_EXAMPLE =
  '00020101021226330015CO.COM.VISI.LLA0210301334848649270015CO.COM.VISI.RED0104VISI520404125303170540810000.005802CO5914Merchant QYSRF6004Cali610610101062970103123021035035034560308sasc0193040412340503abc060400010702010802020905EMAIL1009205633311110340080290017CO.COM.VISI.CANAL0104MPOS81260016CO.COM.VISI.CIVA01020282290015CO.COM.VISI.IVA0106100.0083290016CO.COM.VISI.BASE0105100.084260016CO.COM.VISI.CINC01020285280015CO.COM.VISI.INC010510.0090350017CO.COM.VISI.TRXID0110P78569478491870015CO.COM.VISI.SEC0164474ba16e2433a928a69b7a6eb54efbabecba7c0aef862d39fca7b379d057ba1b63045B8F';

const SETTINGS = { acquirerId: 'RBM', signingSecret: 'decode-secret' };
const OURS_INPUT: EmvPayloadInput = {
  type: 'DYNAMIC',
  key: { keyType: 'PHONE', keyValue: '3001234567' },
  merchant: { name: 'Droguería Ñapanga', city: 'Pasto', postCode: '520001', mcc: '5912', nit: '900123456' },
  amount: '42500.00',
  tip: { type: 'FIXED', value: '2000.00' },
  vat: { type: 'FIXED', value: '6785.71', baseValue: '35714.29' },
  inc: { type: 'PERCENTAGE', value: '8.00000' },
  channel: 'APP',
  reference: 'R20260001',
  additional: { terminalLabel: 'POS7', purpose: '00', customerInfo: 'M', channelPresentation: '601' },
};
const OURS = encodeEmvPayload(OURS_INPUT, SETTINGS);

/** Re-seals a modified payload with a correct CRC, as a forger who knows EMVCo would. */
function withFreshCrc(payloadWithoutCrc: string): string {
  return `${payloadWithoutCrc}6304${crc16Hex(`${payloadWithoutCrc}6304`)}`;
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe('decodeEmvPayload: our payloads', () => {
  const decoded = decodeEmvPayload(OURS, SETTINGS);

  test('gives back every field', () => {
    expect(decoded).toMatchObject({
      payload_format_indicator: '01',
      point_of_initiation_method: '12',
      type: 'DYNAMIC',
      key: { key_type: 'PHONE', key_value: '3001234567' },
      acquirer_network_identifier: 'RBM',
      merchant_category_code: '5912',
      transaction_currency: '170',
      amount: '42500.00',
      tip: { indicator: '02', tip_type: 'FIXED', tip_value: '2000.00' },
      country_code: 'CO',
      merchant_name: 'Drogueria Napanga',
      merchant_city: 'Pasto',
      merchant_post_code: '520001',
      additional_info: {
        terminal_label: 'POS7',
        transaction_purpose: '00',
        customer_info: 'M',
        merchant_nit: '900123456',
        channel_presentation: '601',
      },
      language_template: { language_preference: 'ES', merchant_name: 'Drogueria Napanga', merchant_city: 'Pasto' },
      channel: 'APP',
      vat: { vat_type: 'FIXED', vat_value: '6785.71', vat_base_value: '35714.29' },
      inc: { inc_type: 'PERCENTAGE', inc_value: '8.00000' },
      reference: 'R20260001',
      qr_code_reference: 'CO.COM.RBM.TRXIDPR20260001',
      crc: OURS.slice(-4),
      crc_valid: true,
      signature_valid: true,
      acquirer_matches: true,
      warnings: [],
    });
    expect(decoded.security_value).toMatch(/^[0-9a-f]{64}$/);
  });

  test('lists the raw tags in payload order, templates with their sub-fields', () => {
    expect(decoded.tags.map((tag) => tag.id)).toEqual([
      '00',
      '01',
      '26',
      '49',
      '52',
      '53',
      '54',
      '55',
      '56',
      '58',
      '59',
      '60',
      '61',
      '62',
      '64',
      '80',
      '81',
      '82',
      '83',
      '84',
      '85',
      '90',
      '91',
      '63',
    ]);
    expect(decoded.tags.find((tag) => tag.id === '49')?.fields).toEqual([
      { id: '00', value: 'CO.COM.RBM.RED' },
      { id: '01', value: 'RBM' },
    ]);
    expect(serializeTlv(decoded.tags)).toBe(OURS);
  });

  test('signature_valid is there only with a secret, and false with another secret', () => {
    expect(decodeEmvPayload(OURS)).not.toHaveProperty('signature_valid');
    expect(decodeEmvPayload(OURS, { signingSecret: 'not-the-secret' }).signature_valid).toBe(false);
    expect(decodeEmvPayload(OURS, { acquirerId: 'CRB' }).acquirer_matches).toBe(false);
  });

  test('a changed amount with a recomputed CRC keeps a valid CRC but fails the signature', () => {
    const forged = withFreshCrc(OURS.slice(0, -8).replace('540842500.00', '54041.00'));
    const result = decodeEmvPayload(forged, SETTINGS);
    expect(result.amount).toBe('1.00');
    expect(result.crc_valid).toBe(true);
    expect(result.signature_valid).toBe(false);
  });

  test('a tag slipped in after tag 91 fails the signature even with a recomputed CRC', () => {
    const forged = withFreshCrc(`${OURS.slice(0, -8)}99041234`);
    const result = decodeEmvPayload(forged, SETTINGS);
    expect(result.crc_valid).toBe(true);
    expect(result.signature_valid).toBe(false);
  });

  test('a payload without tag 91 reports no signature, even with a secret', () => {
    const unsigned = withFreshCrc(serializeTlv(parseTlv(OURS).filter((f) => f.id !== '91' && f.id !== '63')));
    const result = decodeEmvPayload(unsigned, SETTINGS);
    expect(result.crc_valid).toBe(true);
    expect(result).not.toHaveProperty('signature_valid');
  });
});

describe('decodeEmvPayload: third-party payloads', () => {
  test('the BCB Pix example: CRC valid, generic fields, the Pix account as a raw merchant account', () => {
    const result = decodeEmvPayload(PIX_EXAMPLE, SETTINGS);
    expect(result).toMatchObject({
      payload_format_indicator: '01',
      point_of_initiation_method: null,
      type: null,
      key: null,
      merchant_accounts: [
        {
          tag: '26',
          guid: 'br.gov.bcb.pix',
          fields: [
            { id: '00', value: 'br.gov.bcb.pix' },
            { id: '01', value: '123e4567-e12b-12d1-a456-426655440000' },
          ],
        },
      ],
      acquirer_network_identifier: null,
      merchant_category_code: '0000',
      transaction_currency: '986',
      amount: null,
      tip: null,
      country_code: 'BR',
      merchant_name: 'Fulano de Tal',
      merchant_city: 'BRASILIA',
      merchant_post_code: null,
      additional_info: { reference_label: '***' },
      language_template: null,
      channel: null,
      vat: null,
      inc: null,
      reference: null,
      qr_code_reference: null,
      crc: '1D3D',
      crc_valid: true,
      acquirer_matches: false,
      warnings: [],
    });
    expect(result).not.toHaveProperty('signature_valid');
  });

  test('another Bre-B acquirer: every Colombian field, CRC valid, not our signature', () => {
    const result = decodeEmvPayload(BREB_EXAMPLE, SETTINGS);
    expect(result).toMatchObject({
      type: 'DYNAMIC',
      key: { key_type: 'PHONE', key_value: '3013348486' },
      acquirer_network_identifier: 'VISI',
      merchant_category_code: '0412',
      transaction_currency: '170',
      amount: '10000.00',
      country_code: 'CO',
      merchant_name: 'Merchant QYSRF',
      merchant_city: 'Cali',
      merchant_post_code: '101010',
      additional_info: {
        invoice_number: '123',
        mobile_phone_number: '3503503456',
        store_label: 'sasc0193',
        loyalty_label: '1234',
        reference_label: 'abc',
        customer_label: '0001',
        terminal_label: '01',
        transaction_purpose: '02',
        customer_info: 'EMAIL',
        merchant_nit: '205633311',
        channel_presentation: '400',
      },
      channel: 'MPOS',
      vat: { vat_type: 'FIXED', vat_value: '100.00', vat_base_value: '100.0' },
      inc: { inc_type: 'FIXED', inc_value: '10.00' },
      reference: '785694784',
      qr_code_reference: 'CO.COM.VISI.TRXIDP785694784',
      security_value: '474ba16e2433a928a69b7a6eb54efbabecba7c0aef862d39fca7b379d057ba1b',
      crc: '5B8F',
      crc_valid: true,
      signature_valid: false,
      acquirer_matches: false,
      warnings: [],
    });
    expect(decodeEmvPayload(BREB_EXAMPLE, { acquirerId: 'VISI' }).acquirer_matches).toBe(true);
  });

  test.each([
    ['Pix', PIX_EXAMPLE],
    ['Bre-B', BREB_EXAMPLE],
    ['ours', OURS],
  ])('%s: one changed character makes the CRC invalid', (_name, payload) => {
    const at = payload.indexOf('6004') >= 0 ? payload.indexOf('Cali') : payload.indexOf('BRASILIA');
    const index = at >= 0 ? at + 1 : 40;
    const tampered = `${payload.slice(0, index)}${payload[index] === 'x' ? 'y' : 'x'}${payload.slice(index + 1)}`;
    expect(tampered).not.toBe(payload);
    expect(decodeEmvPayload(tampered).crc_valid).toBe(false);
  });

  test.each([
    ['Pix', PIX_EXAMPLE],
    ['Bre-B', BREB_EXAMPLE],
    ['ours', OURS],
  ])('%s: shuffled tags still decode to the same fields, with an invalid CRC', (_name, payload) => {
    const original = decodeEmvPayload(payload, SETTINGS);
    const fields = parseTlv(payload);
    for (const seed of [1, 2, 3, 4, 5]) {
      let order = shuffled(fields, seed);
      // Keep the shuffle a real one: the CRC must not stay last by chance.
      if (order.at(-1)?.id === '63') order = [order.at(-1)!, ...order.slice(0, -1)];
      const result = decodeEmvPayload(serializeTlv(order), SETTINGS);
      expect(result.crc_valid).toBe(false);
      const { tags, warnings, crc_valid, signature_valid, merchant_accounts, ...rest } = result;
      const {
        tags: originalTags,
        warnings: originalWarnings,
        crc_valid: originalCrc,
        signature_valid: originalSignature,
        merchant_accounts: originalAccounts,
        ...originalRest
      } = original;
      expect(rest).toEqual(originalRest);
      expect(new Set(tags.map((t) => t.id))).toEqual(new Set(originalTags.map((t) => t.id)));
      expect(warnings).toContain('tag 63 is not the last field');
      if (signature_valid !== undefined) expect(signature_valid).toBe(false);
    }
  });
});

describe('decodeEmvPayload: what is not a payload', () => {
  test.each([
    ['an empty string', '', 'EMPTY'],
    ['a truncated payload', OURS.slice(0, -3), 'TRUNCATED'],
    ['a non-digit id', `AB${OURS.slice(2)}`, 'MALFORMED_ID'],
    ['a non-digit length', `00X2${OURS.slice(4)}`, 'MALFORMED_LENGTH'],
    ['trailing white space', `${OURS}\n`, 'TRUNCATED'],
    ['a payload longer than any QR code holds', '9999'.repeat(MAX_PAYLOAD_LENGTH), 'TOO_LONG'],
    ['not a string', 42 as unknown as string, 'NOT_A_STRING'],
  ])('%s is a DecodeError (%s)', (_name, payload, reason) => {
    let thrown: unknown;
    try {
      decodeEmvPayload(payload);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DecodeError);
    expect((thrown as DecodeError).reason).toBe(reason);
    expect((thrown as QrFieldError).field).toBe('qr_code_data');
  });

  test('a template that does not parse is kept raw, with a warning, not an error', () => {
    const payload = withFreshCrc('000201' + '5802CO' + '6203XYZ' + '8005hello');
    const result = decodeEmvPayload(payload);
    expect(result.crc_valid).toBe(true);
    expect(result.additional_info).toBeNull();
    expect(result.tags.find((tag) => tag.id === '62')).toEqual({ id: '62', value: 'XYZ' });
    expect(result.warnings).toEqual([
      expect.stringMatching(/^tag 62 is not a list of sub-fields/),
      expect.stringMatching(/^tag 80 is not a list of sub-fields/),
    ]);
  });

  test('duplicate tags: the first one is used, and a warning says so', () => {
    const payload = withFreshCrc('000201' + '540510.00' + '540599.00');
    const result = decodeEmvPayload(payload);
    expect(result.amount).toBe('10.00');
    expect(result.warnings).toContain('tag 54 appears more than once; the first is used');
  });

  test('a Colombian template id with a foreign GUID is not read as Bre-B', () => {
    const payload = withFreshCrc('000201' + '8021' + '0011com.example' + '01020X');
    const result = decodeEmvPayload(payload);
    expect(result.channel).toBeNull();
    expect(result.tags[1]?.fields).toEqual([
      { id: '00', value: 'com.example' },
      { id: '01', value: '0X' },
    ]);
  });

  test('any string at all either decodes or throws a DecodeError, nothing else', () => {
    const noise = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 300 }),
      fc.stringMatching(/^[0-9]{0,120}$/),
      // Mutations of a real payload: cut, spliced, characters replaced.
      fc
        .tuple(fc.nat(OURS.length), fc.nat(OURS.length), fc.string({ maxLength: 6 }))
        .map(([a, b, insert]) => OURS.slice(0, Math.min(a, b)) + insert + OURS.slice(Math.max(a, b))),
    );
    fc.assert(
      fc.property(noise, (payload) => {
        try {
          const result = decodeEmvPayload(payload, SETTINGS);
          expect(typeof result.crc_valid).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(DecodeError);
        }
      }),
      { numRuns: 1000, seed: 4242 },
    );
  });
});
