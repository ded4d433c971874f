/** The TLV layer: ID (2 digits) + LENGTH (2 digits) + VALUE, templates nesting the same format. */
import { QrFieldError } from '../../shared/qr/errors';
import { DecodeError } from '../../shared/qr/decode-error';
import { encodeTemplate, encodeTlv, parseTlv, serializeTlv } from '../../shared/qr/tlv';

describe('encodeTlv', () => {
  test.each([
    ['00', '01', '000201'],
    ['59', 'Cafe Central', '5912Cafe Central'],
    ['54', '15000.00', '540815000.00'],
    ['01', 'x'.repeat(99), `0199${'x'.repeat(99)}`],
  ])('%s %j is %j', (id, value, expected) => {
    expect(encodeTlv(id, value)).toBe(expected);
  });

  test('rejects values longer than 99 characters, naming the field', () => {
    expect(() => encodeTlv('62', 'x'.repeat(100), 'additional')).toThrow(QrFieldError);
    try {
      encodeTlv('62', 'x'.repeat(100), 'additional');
    } catch (error) {
      expect((error as QrFieldError).field).toBe('additional');
      expect((error as QrFieldError).message).toBe(
        'additional makes tag 62 of the QR payload 100 characters long; at most 99 fit',
      );
    }
  });

  test.each([['Bogotá'], ['tab\there'], ['line\nbreak'], ['😀'], ['\u007f']])(
    'rejects non-printable-ASCII %j',
    (value) => {
      expect(() => encodeTlv('60', value)).toThrow(/printable ASCII/);
    },
  );

  test('rejects an empty value, which EMVCo lengths (01-99) cannot express', () => {
    expect(() => encodeTlv('59', '')).toThrow(/must not be empty/);
  });

  test.each([['1'], ['123'], ['A1']])('rejects the id %j', (id) => {
    expect(() => encodeTlv(id, 'x')).toThrow(RangeError);
  });

  test('a template nests sub-fields in the order given', () => {
    expect(
      encodeTemplate('49', [
        ['00', 'CO.COM.RBM.RED'],
        ['01', 'RBM'],
      ]),
    ).toBe('49250014CO.COM.RBM.RED0103RBM');
  });
});

describe('parseTlv', () => {
  test('splits fields in order, keeping unknown ids and values as they are', () => {
    expect(parseTlv('000201010211990312A')).toEqual([
      { id: '00', value: '01' },
      { id: '01', value: '11' },
      { id: '99', value: '12A' },
    ]);
  });

  test('templates parse with the same function', () => {
    const [template] = parseTlv('49250014CO.COM.RBM.RED0103RBM');
    expect(parseTlv(template!.value)).toEqual([
      { id: '00', value: 'CO.COM.RBM.RED' },
      { id: '01', value: 'RBM' },
    ]);
  });

  test('an empty string is an empty list', () => {
    expect(parseTlv('')).toEqual([]);
  });

  test('counts lengths in characters (code points), not UTF-16 units', () => {
    expect(parseTlv('5905Ñandú6002😀!')).toEqual([
      { id: '59', value: 'Ñandú' },
      { id: '60', value: '😀!' },
    ]);
  });

  test('serializeTlv gives back exactly what was parsed', () => {
    const input = '000201010212260812345678' + '5911Nandu Store' + '64060002ES';
    expect(serializeTlv(parseTlv(input))).toBe(input);
    expect(serializeTlv(parseTlv('5905Ñandú6002😀!'))).toBe('5905Ñandú6002😀!');
  });

  test.each([
    ['a truncated header', '000201010', 'TRUNCATED', 6, /3 character\(s\) left/],
    [
      'a value running past the end',
      '0002015910Cafe',
      'TRUNCATED',
      10,
      /is truncated in tag 59 at character 6: the field declares 10 characters but 4 remain/,
    ],
    ['a non-digit id', '0002012X0101', 'MALFORMED_ID', 6, /malformed id '2X' at character 6/],
    ['a non-digit length', '00020159A1x', 'MALFORMED_LENGTH', 8, /malformed length 'A1' in tag 59 at character 6/],
    ['a length of 00', '0002015900', 'MALFORMED_LENGTH', 8, /malformed length '00'/],
  ])('%s is a DecodeError', (_name, input, reason, position, message) => {
    let thrown: unknown;
    try {
      parseTlv(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DecodeError);
    expect(thrown).toBeInstanceOf(QrFieldError);
    const error = thrown as DecodeError;
    expect(error.reason).toBe(reason);
    expect(error.position).toBe(position);
    expect(error.message).toMatch(message);
    expect(error.field).toBe('qr_code_data');
  });

  test('errors in a template name the template path and the position in the whole payload', () => {
    try {
      parseTlv('0304XYZ', { offset: 40, path: '62' });
      throw new Error('expected a DecodeError');
    } catch (error) {
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).message).toMatch(/truncated in tag 62.03 at character 40/);
      expect((error as DecodeError).position).toBe(44);
    }
  });
});
