/**
 * dashboard/src/report-period.ts: what a `Download CSV` report covers: the list's day filter as it
 * is, else the last 30 days of Bogotá; a period past the API's 366 days refused with its length.
 */
import { reportPeriod } from '../../dashboard/src/report-period';

// 20:00 in Bogotá on 25 November 2026: the UTC day has already turned.
const NOW = new Date('2026-11-26T01:00:00.000Z');

test("without a day filter: the last 30 days of Bogotá, today (Bogotá's, not UTC's) the last", () => {
  expect(reportPeriod({}, NOW)).toEqual({
    ok: true,
    created_from: '2026-10-27T05:00:00.000Z',
    created_to: '2026-11-26T04:59:59.999Z',
  });
});

test("with the list's day filter: its bounds as the list was asked", () => {
  const day = { created_from: '2026-11-20T05:00:00.000Z', created_to: '2026-11-21T04:59:59.999Z' };
  expect(reportPeriod(day, NOW)).toEqual({ ok: true, ...day });
});

test('366 days (a leap year) are taken; a millisecond more is refused with its length, 367 days', () => {
  const leapYear = { created_from: '2024-01-01T05:00:00.000Z', created_to: '2025-01-01T04:59:59.999Z' };
  expect(reportPeriod(leapYear, NOW)).toEqual({ ok: true, ...leapYear });
  expect(reportPeriod({ ...leapYear, created_to: '2025-01-01T05:00:00.000Z' }, NOW)).toEqual({ ok: false, days: 367 });
  expect(reportPeriod({ ...leapYear, created_to: '2026-01-01T04:59:59.999Z' }, NOW)).toEqual({ ok: false, days: 731 });
});
