/**
 * NITs and mobile numbers as Colombians type them (dashboard/src/colombian-numbers.ts): the check
 * digit DIAN gives real NITs, the forms a NIT and a phone are written in, and what is refused.
 */
import { nitCheckDigit, parseMobilePhone, parseNit } from '../../dashboard/src/colombian-numbers';

test.each([
  // DIAN's own, and two banks', as their RUTs print them.
  ['800197268', 4],
  ['860034313', 7],
  ['890903938', 8],
])("NIT %s's check digit is %i", (digits, check) => {
  expect(nitCheckDigit(digits)).toBe(check);
});

test.each(['900.123.456-8', '900123456-8', '900 123 456 - 8', '900123456', ' 900.123.456 '])(
  '%s is the NIT 900123456',
  (typed) => {
    expect(parseNit(typed)).toEqual({ ok: true, value: '900123456' });
  },
);

test("a check digit that is not DIAN's is refused, saying which it is", () => {
  expect(parseNit('900.123.456-7')).toEqual({ ok: false, problem: 'checkDigit', expected: 8 });
});

test.each(['12345', '9001234567', '900.123.456-', '900-123-456', 'NIT 900123456', '900.123.456-78'])(
  '%s is no NIT',
  (typed) => {
    expect(parseNit(typed)).toEqual({ ok: false, problem: 'format' });
  },
);

test.each(['3001234567', '300 123 4567', '+57 300 123 4567', '57 3001234567', '(300) 123-4567', '300.123.4567'])(
  '%s is the mobile 3001234567',
  (typed) => {
    expect(parseMobilePhone(typed)).toEqual({ ok: true, value: '3001234567' });
  },
);

test.each(['6011234567', '300123456', '+1 300 123 4567', '+57 601 123 4567', '3001234567 ext 2'])(
  '%s is no Colombian mobile',
  (typed) => {
    expect(parseMobilePhone(typed).ok).toBe(false);
  },
);
