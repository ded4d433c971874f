/**
 * Days as the merchants live them, in Bogotá: a calendar day typed as Colombia writes it
 * (dd/mm/yyyy) becomes the UTC bounds the API's date filters take (created_from and created_to,
 * both inclusive, to the millisecond). The zone's offset is read from Intl, never assumed: Bogotá
 * keeps UTC-5 all year today, but the bounds stay right wherever the zone's rules say otherwise.
 */
import { t } from './i18n';

export const MERCHANT_TIME_ZONE = 'America/Bogota';

const offsets = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s clock is ahead of UTC at `instant`, in milliseconds (negative west of Greenwich). */
function offsetAt(instant: number, timeZone: string): number {
  let format = offsets.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsets.set(timeZone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(
    part['year']!,
    part['month']! - 1,
    part['day']!,
    part['hour']!,
    part['minute']!,
    part['second']!,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant `timeZone`'s clocks read midnight starting `day` (YYYY-MM-DD). */
function midnight(day: string, timeZone: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(year, month - 1, date);
  // The offset at the guess, then at the instant found: right across a change of the zone's offset.
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/** The first and last millisecond of `day` (YYYY-MM-DD) in `timeZone`, as the API's UTC timestamps. */
export function dayBounds(day: string, timeZone = MERCHANT_TIME_ZONE): { readonly from: string; readonly to: string } {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
  return {
    from: new Date(midnight(day, timeZone)).toISOString(),
    to: new Date(midnight(next, timeZone) - 1).toISOString(),
  };
}

export type ParsedDay = { readonly ok: true; readonly day: string } | { readonly ok: false; readonly error: string };

/**
 * A day typed dd/mm/yyyy (or with dashes, dots or spaces, or as eight digits without any: 28112026),
 * as YYYY-MM-DD; a day that does not exist is refused.
 */
export function parseDay(text: string): ParsedDay {
  const match =
    /^\s*(\d{1,2})[/. -](\d{1,2})[/. -](\d{4})\s*$/.exec(text) ?? /^\s*(\d{2})(\d{2})(\d{4})\s*$/.exec(text);
  if (!match) return { ok: false, error: t('day.format') };
  const [, d, m, y] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d)) {
    return { ok: false, error: t('day.none', { day: `${d}/${m}/${y}` }) };
  }
  return { ok: true, day: date.toISOString().slice(0, 10) };
}

const calendarDays = new Map<string, Intl.DateTimeFormat>();

/** The calendar day (YYYY-MM-DD) `timeZone`'s clocks show at `instant` (an ISO timestamp or a Date). */
export function dayOf(instant: string | Date, timeZone = MERCHANT_TIME_ZONE): string {
  let format = calendarDays.get(timeZone);
  if (!format) {
    // en-CA writes a date as YYYY-MM-DD.
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    calendarDays.set(timeZone, format);
  }
  return format.format(new Date(instant));
}

/** The `count` calendar days of `timeZone` that end with the day of `now`, oldest first (YYYY-MM-DD). */
export function lastDays(count: number, now: Date = new Date(), timeZone = MERCHANT_TIME_ZONE): string[] {
  const [year, month, date] = dayOf(now, timeZone).split('-').map(Number) as [number, number, number];
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.UTC(year, month - 1, date - (count - 1 - index))).toISOString().slice(0, 10),
  );
}
