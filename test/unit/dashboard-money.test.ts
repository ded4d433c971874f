/** dashboard/src/money.ts: amounts as people type them in the dashboard's forms, read into the API's form. */
import fc from 'fast-check';
import { amountOfCents, centsOf, parseCop } from '../../dashboard/src/money';

test.each([
  ['119000', '119000.00'],
  ['119.000', '119000.00'],
  ['119.000,00', '119000.00'],
  ['119000.00', '119000.00'],
  ['119000,5', '119000.50'],
  ['119000.5', '119000.50'],
  ['$ 1.234.567,89', '1234567.89'],
  [' 58 000 ', '58000.00'],
  ['0', '0.00'],
  ['0,00', '0.00'],
  ['007', '7.00'],
])('%s is %s', (typed, value) => {
  expect(parseCop(typed)).toEqual({ ok: true, value });
});

test.each([
  ['', 'Enter an amount'],
  ['119,000.00', 'reads two ways'],
  ['119,000', 'comma separates the cents'],
  ['1,5,0', 'comma separates the cents'],
  ['1.19.000', 'group the thousands in threes'],
  ['119.0000', 'group the thousands in threes'],
  ['12a', 'Only digits'],
  ['-5', 'Only digits'],
])('%s is refused: %s', (typed, why) => {
  const parsed = parseCop(typed);
  expect(parsed.ok).toBe(false);
  expect(!parsed.ok && parsed.error).toContain(why);
});

test("a QR code's amounts have at most 10 integer digits, other amounts 15", () => {
  expect(parseCop('9.999.999.999,99', 10)).toEqual({ ok: true, value: '9999999999.99' });
  expect(parseCop('10.000.000.000', 10)).toEqual({ ok: false, error: 'At most 10 digits before the cents.' });
  expect(parseCop('999999999999999.99')).toEqual({ ok: true, value: '999999999999999.99' });
  expect(parseCop('1000000000000000').ok).toBe(false);
});

test('any amount written the es-CO way, or the API way, reads back as itself', () => {
  const pesos = new Intl.NumberFormat('es-CO', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  fc.assert(
    fc.property(fc.bigInt({ min: 0n, max: 99_999_999_999n }), (cents) => {
      const value = amountOfCents(cents);
      expect(parseCop(value)).toEqual({ ok: true, value });
      expect(parseCop(pesos.format(value as Intl.StringNumericLiteral))).toEqual({ ok: true, value });
      expect(centsOf(value)).toBe(cents);
    }),
  );
});
