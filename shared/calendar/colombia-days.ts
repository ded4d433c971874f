/**
 * Calendar days in Colombia (America/Bogota), the days a finance team closes (docs/reconciliation.md).
 * Colombia keeps UTC-5 all year (no daylight saving since 1993), so a day is a fixed span of UTC:
 * `2026-03-14` runs from 2026-03-14T05:00:00.000Z to 2026-03-15T04:59:59.999Z.
 */
const OFFSET_MS = 5 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The Colombian day (`YYYY-MM-DD`) of an ISO instant. */
export const colombiaDay = (instant: string): string =>
  new Date(Date.parse(instant) - OFFSET_MS).toISOString().slice(0, 10);

/** True for a real calendar day written `YYYY-MM-DD` (not `2026-02-30`). */
export const isCalendarDay = (day: string): boolean => {
  if (!DAY.test(day)) return false;
  const time = Date.parse(`${day}T00:00:00.000Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === day;
};

/** The first and last millisecond of a Colombian day, as ISO UTC instants (inclusive). */
export function dayBounds(day: string): { readonly start: string; readonly end: string } {
  const start = Date.parse(`${day}T00:00:00.000Z`) + OFFSET_MS;
  return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS - 1).toISOString() };
}

/** An ISO instant as Bogotá's wall clock reads it, to the second (`2026-03-14 09:30:00`), as spreadsheets take a date and time. */
export const colombiaWallClock = (instant: string): string =>
  new Date(Date.parse(instant) - OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
