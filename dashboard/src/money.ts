/**
 * Amounts as people type them, read into the API's form ("119000.00"): `119000`, `119.000`,
 * `119.000,00`, `119000,5` and `119000.00` all mean what a Colombian means by them. Written the
 * other way round (`119,000.00`, the United States' grouping) or with a comma before three digits
 * (`119,000`), an amount could be read two ways a hundredfold apart: it is refused, with how to
 * write it. On its own (no DOM), so a unit test runs it as the forms do.
 */
import { t } from './i18n';

export type ParsedAmount =
  { readonly ok: true; readonly value: string } | { readonly ok: false; readonly error: string };

const how = () => t('money.how');
/** Dot-grouped thousands: 1 to 3 digits, then groups of exactly 3. */
const GROUPED = /^\d{1,3}(\.\d{3})+$/;

const refused = (error: string): ParsedAmount => ({ ok: false, error });

/** Pesos and cents as the API writes them, without leading zeros. */
function amountOf(integer: string, fraction: string, maxIntegerDigits: number): ParsedAmount {
  const digits = integer.replace(/^0+(?=\d)/, '');
  if (digits.length > maxIntegerDigits) {
    return refused(t('money.maxDigits', { digits: maxIntegerDigits }));
  }
  return { ok: true, value: `${digits}.${fraction.padEnd(2, '0')}` };
}

/**
 * The amount `text` means, or why it cannot be read. `maxIntegerDigits`: what the API takes (a QR
 * code's amounts 10, other amounts 15).
 */
export function parseCop(text: string, maxIntegerDigits = 15): ParsedAmount {
  const typed = text.replace(/\s|\$|COP/gi, '');
  if (typed === '') return refused(t('money.empty'));
  if (/[^\d.,]/.test(typed)) return refused(t('money.onlyDigits', { how: how() }));
  if (/^\d+$/.test(typed)) return amountOf(typed, '', maxIntegerDigits);

  const comma = typed.lastIndexOf(',');
  if (comma >= 0 && typed.lastIndexOf('.') > comma) {
    return refused(t('money.twoWays', { how: how() }));
  }
  if (comma >= 0) {
    // A comma is the decimal mark: at most one, after every dot, with one or two digits after it.
    const [whole = '', cents = ''] = typed.split(',');
    if (typed.indexOf(',') !== comma || !/^\d{1,2}$/.test(cents)) {
      return refused(t('money.comma', { how: how() }));
    }
    if (/^\d+$/.test(whole)) return amountOf(whole, cents, maxIntegerDigits);
    if (GROUPED.test(whole)) return amountOf(whole.replace(/\./g, ''), cents, maxIntegerDigits);
    return refused(t('money.dots', { how: how() }));
  }
  // Only dots: one before one or two digits is a decimal point (119000.00); otherwise they group thousands.
  const single = /^(\d+)\.(\d{1,2})$/.exec(typed);
  if (single) return amountOf(single[1]!, single[2]!, maxIntegerDigits);
  if (GROUPED.test(typed)) return amountOf(typed.replace(/\./g, ''), '', maxIntegerDigits);
  return refused(t('money.dots', { how: how() }));
}

/** Whole cents of an API amount ("119000.00"), exact at any size. */
export function centsOf(value: string): bigint {
  const [whole = '0', fraction = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
}

/** The API's form of whole cents: 11900000n is "119000.00". */
export function amountOfCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const magnitude = cents < 0n ? -cents : cents;
  return `${sign}${magnitude / 100n}.${String(magnitude % 100n).padStart(2, '0')}`;
}
