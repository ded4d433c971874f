/** Money is integer cents on the inside and a two-decimal string on the wire. */
import { cop, formatCents, parseCents } from '../../shared/domain/money';

describe('parseCents', () => {
  test.each([
    ['0.00', 0],
    ['0.05', 5],
    ['0.50', 50],
    ['1.00', 100],
    ['15000.00', 1_500_000],
    ['1000000.00', 100_000_000],
    ['250000.99', 25_000_099],
    // The largest amount that is still a safe integer of cents.
    ['90071992547409.91', Number.MAX_SAFE_INTEGER],
  ])('%s is %d cents', (value, cents) => {
    expect(parseCents(value)).toBe(cents);
  });

  test.each([
    ['one decimal', '1.5'],
    ['three decimals', '1.505'],
    ['no decimals', '100'],
    ['a trailing dot', '100.'],
    ['no integer part', '.50'],
    ['a leading zero', '01.00'],
    ['several leading zeros', '000.50'],
    ['a negative amount', '-1.00'],
    ['a plus sign', '+1.00'],
    ['a decimal comma', '1,00'],
    ['thousands separators', '1,000.00'],
    ['letters', 'abc'],
    ['hexadecimal', '0x10.00'],
    ['exponent notation', '1e3.00'],
    ['surrounding spaces', ' 1.00 '],
    ['the empty string', ''],
  ])('rejects %s (%j)', (_rule, value) => {
    expect(() => parseCents(value)).toThrow(RangeError);
  });

  test('rejects amounts whose cents are beyond a safe integer', () => {
    expect(() => parseCents('90071992547409.92')).toThrow(/out of range/);
    expect(() => parseCents('999999999999999.99')).toThrow(RangeError);
  });
});

describe('formatCents', () => {
  test.each([
    [0, '0.00'],
    [5, '0.05'],
    [50, '0.50'],
    [100, '1.00'],
    [1_500_000, '15000.00'],
    [100_000_000, '1000000.00'],
    [25_000_099, '250000.99'],
    [-5, '-0.05'],
  ])('%d cents is %s', (cents, value) => {
    expect(formatCents(cents)).toBe(value);
  });

  test.each([0.5, 1.999, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1])(
    'rejects %d (not a whole, safe number of cents)',
    (cents) => {
      expect(() => formatCents(cents)).toThrow(RangeError);
    },
  );

  test.each(['0.00', '0.01', '0.10', '9.99', '10.00', '15000.00', '1000000.00', '123456789.01', '90071992547409.91'])(
    'round trip of %s',
    (value) => {
      expect(formatCents(parseCents(value))).toBe(value);
    },
  );

  test.each([0, 1, 99, 100, 101, 123_456_789, Number.MAX_SAFE_INTEGER])('round trip of %d cents', (cents) => {
    expect(parseCents(formatCents(cents))).toBe(cents);
  });

  test('cop() is a COP money object with the formatted value', () => {
    expect(cop(1_500_000)).toEqual({ currency: 'COP', value: '15000.00' });
  });
});
