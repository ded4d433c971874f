/**
 * Numbers as Colombians type them, read into what the API takes: a NIT with its dots and check digit
 * (`900.123.456-7`, as the RUT prints it), a mobile number with spaces or the country's code
 * (`+57 300 123 4567`).
 */

/** DIAN's weights for a NIT's check digit, from its last digit leftwards. */
const NIT_WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41];

/** The check digit (dígito de verificación) DIAN gives a NIT's nine digits. */
export function nitCheckDigit(digits: string): number {
  const sum = [...digits].reverse().reduce((total, digit, i) => total + Number(digit) * NIT_WEIGHTS[i]!, 0);
  const rest = sum % 11;
  return rest > 1 ? 11 - rest : rest;
}

export type TypedNumber =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly problem: 'format' }
  | { readonly ok: false; readonly problem: 'checkDigit'; readonly expected: number };

/**
 * A NIT typed with or without its dots, spaces and check digit (`900.123.456-7`, `900123456-7`,
 * `900 123 456`): the nine digits the API takes. A check digit typed must be the one DIAN gives them,
 * so a digit mistyped is caught here rather than linked.
 */
export function parseNit(text: string): TypedNumber {
  const match = /^(\d{9})(?:-(\d))?$/.exec(text.replace(/[.\s]/g, ''));
  if (!match) return { ok: false, problem: 'format' };
  const [, digits, check] = match as unknown as [string, string, string | undefined];
  const expected = nitCheckDigit(digits);
  if (check !== undefined && Number(check) !== expected) return { ok: false, problem: 'checkDigit', expected };
  return { ok: true, value: digits };
}

/** A mobile number typed with spaces, dashes, dots or brackets, with or without +57: its ten digits. */
export function parseMobilePhone(text: string): TypedNumber {
  const digits = text.replace(/[\s().-]/g, '').replace(/^\+?57(?=3\d{9}$)/, '');
  return /^3\d{9}$/.test(digits) ? { ok: true, value: digits } : { ok: false, problem: 'format' };
}
