/**
 * The encoder against payloads written out by hand from the tag table (docs/qr-payload.md), one
 * TLV per line with its length counted by hand. Only the signature (node:crypto, here) and the CRC
 * (the crc module, tested on its own) are computed.
 */
import { createHmac } from 'node:crypto';
import { crc16Hex } from '../../shared/qr/crc';
import { customerInfoCode, type EmvPayloadInput } from '../../shared/qr/emv-input';
import { encodeEmvPayload, encodeUnsignedPayload, prefixedReference } from '../../shared/qr/emv-payload';
import { QrFieldError } from '../../shared/qr/errors';

const SETTINGS = { acquirerId: 'RBM', signingSecret: 'golden-secret' };

/** Appends tag 91 (HMAC computed here with node:crypto) and tag 63 (CRC) to the hand-written tags. */
function seal(unsigned: string, secret = SETTINGS.signingSecret): string {
  const hmac = createHmac('sha256', secret).update(unsigned).digest('hex');
  const signed = `${unsigned}9186` + '0014CO.COM.RBM.SEC' + `0164${hmac}`;
  return `${signed}6304${crc16Hex(`${signed}6304`)}`;
}

const STATIC_INPUT: EmvPayloadInput = {
  type: 'STATIC',
  key: { keyType: 'ALPHA', keyValue: '@tienda123' },
  merchant: { name: 'Panadería La Esperanza del Norte', city: 'Bogotá D.C.', postCode: '110111', mcc: '5462' },
  channel: 'POS',
  reference: 'ABC123',
  additional: { terminalLabel: 'T001', purpose: '00' },
};

// prettier-ignore
const STATIC_UNSIGNED =
  '000201' + // 00 payload format indicator
  '010211' + // 01 STATIC
  '2632' + '0014CO.COM.RBM.LLA' + '0410@tienda123' + // 26 key: GUID (14) + ALPHA under 04 (10)
  '4925' + '0014CO.COM.RBM.RED' + '0103RBM' + // 49 network: 18 + 7
  '52045462' + // 52 MCC
  '5303170' + // 53 COP
  '5802CO' + // 58 country
  '5925Panaderia La Esperanza de' + // 59 name: ASCII, cut to 25
  '6011Bogota D.C.' + // 60 city: ASCII
  '6106110111' + // 61 postal code
  '6214' + '0704T001' + '080200' + // 62: terminal label (8) + purpose (6)
  '6450' + '0002ES' + '0125Panaderia La Esperanza de' + '0211Bogota D.C.' + // 64: the name had accents
  '8027' + '0016CO.COM.RBM.CANAL' + '0103POS' + // 80 channel: 20 + 7
  '9031' + '0016CO.COM.RBM.TRXID' + '0107PABC123'; // 90 transaction id: 20 + 11

const HYBRID_INPUT: EmvPayloadInput = {
  type: 'STATIC',
  key: { keyType: 'ID', keyValue: '1020304050' },
  merchant: { name: 'Cafe Central', city: 'Medellin', postCode: '050021', mcc: '5814' },
  amount: '15000.00',
  tip: { type: 'REQUEST' },
  vat: { type: 'FIXED', value: '2394.96', baseValue: '12605.04' },
  inc: { type: 'WALLET' },
  channel: 'IM',
  reference: '9876543210',
};

// prettier-ignore
const HYBRID_UNSIGNED =
  '000201' +
  '010211' + // a STATIC code with an amount: "hybrid"
  '2632' + '0014CO.COM.RBM.LLA' + '01101020304050' + // 26: ID under 01 (10)
  '4925' + '0014CO.COM.RBM.RED' + '0103RBM' +
  '52045814' +
  '5303170' +
  '540815000.00' + // 54 amount
  '550201' + // 55 tip: the payer's app asks (REQUEST)
  '5802CO' +
  '5912Cafe Central' +
  '6008Medellin' +
  '6106050021' + // no 62 (no additional data, no NIT), no 64 (ASCII name and city)
  '8026' + '0016CO.COM.RBM.CANAL' + '0102IM' +
  '8125' + '0015CO.COM.RBM.CIVA' + '010202' + // 81 VAT condition FIXED: 19 + 6
  '8229' + '0014CO.COM.RBM.IVA' + '01072394.96' + // 82 VAT value: 18 + 11
  '8331' + '0015CO.COM.RBM.BASE' + '010812605.04' + // 83 VAT base: 19 + 12
  '8425' + '0015CO.COM.RBM.CINC' + '010201' + // 84 INC condition WALLET; no 85 (no value)
  '9035' + '0016CO.COM.RBM.TRXID' + '0111P9876543210'; // 20 + 15

const DYNAMIC_INPUT: EmvPayloadInput = {
  type: 'DYNAMIC',
  key: { keyType: 'EMAIL', keyValue: 'pagos@tienda.co' },
  merchant: { name: 'Ñandú Store', city: 'Cali', postCode: '760001', mcc: '5411', nit: '900123456' },
  amount: '58000.00',
  tip: { type: 'PERCENTAGE', percentage: '10.00000' },
  vat: { type: 'PERCENTAGE', value: '19.00000' },
  inc: { type: 'FIXED', value: '1000.00' },
  channel: 'ECOMM',
  reference: 'ORD2026X1',
  additional: {
    invoiceNumber: 'FV-1001',
    mobileNumber: '+573001234567',
    storeLabel: 'Sede Norte',
    terminalLabel: 'CAJA01',
    purpose: '00',
    customerInfo: 'E',
    channelPresentation: '520',
  },
};

// prettier-ignore
const DYNAMIC_UNSIGNED =
  '000201' +
  '010212' + // DYNAMIC
  '2637' + '0014CO.COM.RBM.LLA' + '0315pagos@tienda.co' + // 26: EMAIL under 03 (15): 18 + 19
  '4925' + '0014CO.COM.RBM.RED' + '0103RBM' +
  '52045411' +
  '5303170' +
  '540858000.00' +
  '550203' + // tip as a percentage...
  '570810.00000' + // ...in 57
  '5802CO' +
  '5911Nandu Store' +
  '6004Cali' +
  '6106760001' +
  '6283' + // 62: 11 + 17 + 14 + 10 + 6 + 5 + 13 + 7 = 83
    '0107FV-1001' + // 01 invoice number
    '0213+573001234567' + // 02 mobile number
    '0310Sede Norte' + // 03 store label
    '0706CAJA01' + // 07 terminal label
    '080200' + // 08 purpose: purchase
    '0901E' + // 09 customer data: email
    '1009900123456' + // 10 merchant NIT
    '1103520' + // 11 channel presentation
  '6429' + '0002ES' + '0111Nandu Store' + '0204Cali' + // 64: 6 + 15 + 8
  '8029' + '0016CO.COM.RBM.CANAL' + '0105ECOMM' +
  '8125' + '0015CO.COM.RBM.CIVA' + '010203' + // VAT as a percentage
  '8230' + '0014CO.COM.RBM.IVA' + '010819.00000' + // 18 + 12; no 83 (no base)
  '8425' + '0015CO.COM.RBM.CINC' + '010202' + // INC fixed
  '8529' + '0014CO.COM.RBM.INC' + '01071000.00' + // 18 + 11
  '9034' + '0016CO.COM.RBM.TRXID' + '0110PORD2026X1'; // 20 + 14

describe('encodeEmvPayload: golden payloads written by hand', () => {
  test.each([
    ['STATIC', STATIC_INPUT, STATIC_UNSIGNED],
    ['hybrid (STATIC with an amount)', HYBRID_INPUT, HYBRID_UNSIGNED],
    ['DYNAMIC', DYNAMIC_INPUT, DYNAMIC_UNSIGNED],
  ])('%s', (_name, input, unsigned) => {
    expect(encodeUnsignedPayload(input, SETTINGS)).toBe(unsigned);
    expect(encodeEmvPayload(input, SETTINGS)).toBe(seal(unsigned));
  });

  test('the STATIC golden, complete, with its CRC', () => {
    // The signature is fixed by the secret; written out once to pin the whole string.
    const payload = encodeEmvPayload(STATIC_INPUT, SETTINGS);
    expect(payload.startsWith(STATIC_UNSIGNED + '91860014CO.COM.RBM.SEC0164')).toBe(true);
    expect(payload).toMatch(/91860014CO\.COM\.RBM\.SEC0164[0-9a-f]{64}6304[0-9A-F]{4}$/);
    expect(payload).toHaveLength(STATIC_UNSIGNED.length + 90 + 8);
  });

  test('the signature depends on the secret, and the acquirer id is in every GUID', () => {
    const other = encodeEmvPayload(STATIC_INPUT, { acquirerId: 'VISI', signingSecret: Buffer.from('another') });
    expect(other).toContain('0015CO.COM.VISI.LLA');
    expect(other).toContain('0015CO.COM.VISI.RED0104VISI');
    expect(other).toContain('0017CO.COM.VISI.TRXID0107PABC123');
    expect(other).toContain('0015CO.COM.VISI.SEC0164');
    expect(encodeEmvPayload(STATIC_INPUT, { ...SETTINGS, signingSecret: 'x' })).not.toBe(
      encodeEmvPayload(STATIC_INPUT, SETTINGS),
    );
  });

  test('the same input gives the same payload', () => {
    expect(encodeEmvPayload(DYNAMIC_INPUT, SETTINGS)).toBe(encodeEmvPayload(DYNAMIC_INPUT, SETTINGS));
  });
});

describe('prefixedReference', () => {
  test('is the network form of qr_code_reference', () => {
    expect(prefixedReference('RBM', 'ABC123')).toBe('CO.COM.RBM.TRXIDPABC123');
    expect(prefixedReference('VISI', '785694784')).toBe('CO.COM.VISI.TRXIDP785694784');
  });
});

describe('encodeEmvPayload: what it refuses', () => {
  const fieldOf = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(QrFieldError);
      return (error as QrFieldError).field;
    }
    throw new Error('expected a validation error');
  };
  const withInput = (patch: Partial<EmvPayloadInput>) => () =>
    encodeEmvPayload({ ...HYBRID_INPUT, ...patch } as EmvPayloadInput, SETTINGS);

  test.each<[string, Partial<EmvPayloadInput>, string]>([
    ['a reference with P', { reference: 'ABCP1' }, 'reference'],
    ['a reference with p', { reference: 'abcp1' }, 'reference'],
    ['a reference of 18 characters', { reference: '1'.repeat(18) }, 'reference'],
    ['a reference with a dash', { reference: 'AB-1' }, 'reference'],
    ['an empty reference', { reference: '' }, 'reference'],
    ['an amount with one decimal', { amount: '150.5' }, 'amount'],
    ['an amount of zero', { amount: '0.00' }, 'amount'],
    ['an amount longer than tag 54 holds', { amount: '12345678901.00' }, 'amount'],
    ['a DYNAMIC code without an amount', { type: 'DYNAMIC', amount: undefined }, 'amount'],
    ['a phone key that is not a mobile', { key: { keyType: 'PHONE', keyValue: '6012345678' } }, 'key.keyValue'],
    ['an ALPHA key without @', { key: { keyType: 'ALPHA', keyValue: 'tienda123' } }, 'key.keyValue'],
    ['a BCODE key not starting with 00', { key: { keyType: 'BCODE', keyValue: '1012345678' } }, 'key.keyValue'],
    [
      'an email key too long for tag 26',
      { key: { keyType: 'EMAIL', keyValue: `${'a'.repeat(30)}@${'b'.repeat(50)}.co` } },
      'key.keyValue',
    ],
    ['a three-digit MCC', { merchant: { ...HYBRID_INPUT.merchant, mcc: '581' } }, 'merchant.mcc'],
    ['a name with nothing ASCII', { merchant: { ...HYBRID_INPUT.merchant, name: '東京' } }, 'merchant.name'],
    ['an empty city', { merchant: { ...HYBRID_INPUT.merchant, city: ' ' } }, 'merchant.city'],
    [
      'a post code of 11 characters',
      { merchant: { ...HYBRID_INPUT.merchant, postCode: '12345678901' } },
      'merchant.postCode',
    ],
    ['a NIT with a dash', { merchant: { ...HYBRID_INPUT.merchant, nit: '900123456-7' } }, 'merchant.nit'],
    ['a FIXED tip without a value', { tip: { type: 'FIXED' } }, 'tip.value'],
    ['a REQUEST tip with a value', { tip: { type: 'REQUEST', value: '100.00' } }, 'tip.value'],
    ['a PERCENTAGE tip over 100', { tip: { type: 'PERCENTAGE', percentage: '100.5' } }, 'tip.percentage'],
    ['a PERCENTAGE tip with six decimals', { tip: { type: 'PERCENTAGE', percentage: '10.000001' } }, 'tip.percentage'],
    ['a FIXED VAT without a value', { vat: { type: 'FIXED' } }, 'vat.value'],
    ['a VAT base with no decimals', { vat: { type: 'FIXED', value: '1.00', baseValue: '100' } }, 'vat.baseValue'],
    ['an unknown INC type', { inc: { type: 'OTHER' as never } }, 'inc.type'],
    ['an unknown channel', { channel: 'WEB' as never }, 'channel'],
    [
      'a terminal label of 26 characters',
      { additional: { terminalLabel: 'T'.repeat(26) } },
      'additional.terminalLabel',
    ],
    ['a store label with an accent', { additional: { storeLabel: 'Peña' } }, 'additional.storeLabel'],
    ['purpose 01 (not a code)', { additional: { purpose: '01' as never } }, 'additional.purpose'],
    [
      'customer info P (the request code, not EMVCo)',
      { additional: { customerInfo: 'P' as never } },
      'additional.customerInfo',
    ],
    [
      'a channel presentation of 4 digits',
      { additional: { channelPresentation: '0000' } },
      'additional.channelPresentation',
    ],
    [
      'a channel presentation with location 4',
      { additional: { channelPresentation: '040' } },
      'additional.channelPresentation',
    ],
    [
      'additional data over 99 characters in tag 62',
      {
        additional: {
          invoiceNumber: 'I'.repeat(25),
          storeLabel: 'S'.repeat(25),
          terminalLabel: 'T'.repeat(25),
          referenceLabel: 'R'.repeat(25),
        },
      },
      'additional',
    ],
  ])('%s', (_name, patch, field) => {
    expect(fieldOf(withInput(patch))).toBe(field);
  });

  test.each([
    [{ acquirerId: 'rbm', signingSecret: 's' }],
    [{ acquirerId: 'TOOLONG', signingSecret: 's' }],
    [{ acquirerId: 'RBM', signingSecret: '' }],
  ])('settings %j are a configuration error, not a request error', (settings) => {
    expect(() => encodeEmvPayload(HYBRID_INPUT, settings)).toThrow(TypeError);
  });
});

describe('customerInfoCode', () => {
  test.each([
    ['A', 'A'],
    ['ADDRESS', 'A'],
    ['E', 'E'],
    ['email', 'E'],
    ['P', 'M'],
    ['PHONE', 'M'],
    ['M', 'M'],
    ['MOBILE', 'M'],
  ])('%s -> %s', (input, expected) => {
    expect(customerInfoCode(input)).toBe(expected);
  });

  test('anything else names the request field', () => {
    expect(() => customerInfoCode('X')).toThrow(/additional_info.customer_info/);
  });
});
