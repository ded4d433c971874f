/**
 * The period a `Download CSV` report covers: the list's own day filter when it has one (its UTC
 * bounds, as the list was asked), else the last DEFAULT_DAYS days of Bogotá, today included. The API
 * takes at most MAX_REPORT_DAYS from the first instant to the last; a longer period is refused here,
 * with its length, before anything is asked.
 */
import { dayBounds, lastDays } from './days';

/** The API's longest report (docs/reconciliation.md, "Reports"): a year, a leap day included. */
export const MAX_REPORT_DAYS = 366;
/** What a report covers when the list has no day filter: as the Overview, the last 30 days. */
export const DEFAULT_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

export type ReportPeriod =
  | { readonly ok: true; readonly created_from: string; readonly created_to: string }
  | { readonly ok: false; readonly days: number };

/** The report's created_from and created_to for a list's query (its created_from and created_to, if any). */
export function reportPeriod(
  query: { readonly created_from?: string; readonly created_to?: string },
  now: Date = new Date(),
): ReportPeriod {
  const days = lastDays(DEFAULT_DAYS, now);
  const from = query.created_from ?? dayBounds(days[0]!).from;
  const to = query.created_to ?? dayBounds(days[days.length - 1]!).to;
  // Both bounds are inclusive to the millisecond: the period ends a millisecond after `to`.
  const length = Date.parse(to) + 1 - Date.parse(from);
  if (length > MAX_REPORT_DAYS * DAY_MS) return { ok: false, days: Math.ceil(length / DAY_MS) };
  return { ok: true, created_from: from, created_to: to };
}
