/**
 * How the dashboard writes amounts and times: pesos as Colombia writes them (es-CO: "$ 15.000,00"),
 * times in Bogotá's zone, where the merchants are, one way everywhere: 25/11/2026 19:05:33, the
 * year whole, the clock of 24 hours and its seconds, for an operator reconciling with a bank's file.
 */
import { MERCHANT_TIME_ZONE } from './days';

const PESOS = { style: 'currency', currency: 'COP', minimumFractionDigits: 2 } as const;
const pesos = new Intl.NumberFormat('es-CO', PESOS);
/** A movement's amount with its sign written out, "+" for a credit and "-" for a debit; zero has none. */
const signedPesos = new Intl.NumberFormat('es-CO', { ...PESOS, signDisplay: 'exceptZero' });
const DAY = { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: MERCHANT_TIME_ZONE } as const;
const days = new Intl.DateTimeFormat('es-CO', DAY);
const times = new Intl.DateTimeFormat('es-CO', {
  ...DAY,
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * An API amount ("15000.00", always COP) written for a person, from its digits: the API's amounts
 * reach 15 digits and the cents, more than a double holds, so Number() would round the largest.
 * Intl.NumberFormat formats a decimal string exactly (Intl.NumberFormat v3: every browser the build
 * targets, and Node).
 */
export function formatCop(value: string): string {
  return pesos.format(value as Intl.StringNumericLiteral);
}

/** A signed API amount ("-120.50", "75.25") as "-$ 120,50" or "+$ 75,25": the sign says credit or debit, not a colour. */
export function formatSignedCop(value: string): string {
  return signedPesos.format(value as Intl.StringNumericLiteral);
}

/** 25/11/2026 19:05:33, Bogotá's time. */
export function formatTime(iso: string | undefined): string {
  return iso ? times.format(new Date(iso)).replace(',', '') : '';
}

/** 25/11/2026: the day of a YYYY-MM-DD as the filters show what they understood. */
export function formatDay(day: string): string {
  return days.format(new Date(`${day}T12:00:00Z`));
}

/** The reference the merchant chose, out of the network's CO.COM.<ACQ>.TRXIDP<reference> form. */
export function shortReference(reference: string): string {
  const marker = reference.lastIndexOf('TRXIDP');
  return marker >= 0 ? reference.slice(marker + 'TRXIDP'.length) : reference;
}

/**
 * A person's document or account number as the dashboard shows it until asked: its last four
 * (`****4050`), as the reports write it (docs/privacy.md, "Masking").
 */
export const maskedNumber = (value: string): string => `****${value.length > 4 ? value.slice(-4) : ''}`;
