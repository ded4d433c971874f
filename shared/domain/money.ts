/**
 * Money is handled as integer cents of COP: never a floating-point number on the money path.
 * Wire format: a string with exactly two decimals ("15000.00").
 */
export const CURRENCY = 'COP';

export interface Money {
  readonly currency: typeof CURRENCY;
  readonly value: string;
}

export function parseCents(value: string): number {
  const match = /^(0|[1-9][0-9]{0,14})\.([0-9]{2})$/.exec(value);
  if (!match) throw new RangeError(`Not a two-decimal amount: ${value}`);
  const cents = Number(match[1]) * 100 + Number(match[2]);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Amount out of range: ${value}`);
  return cents;
}

export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not a whole number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

export const cop = (cents: number): Money => ({ currency: CURRENCY, value: formatCents(cents) });
