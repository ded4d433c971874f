/** Colombia's calendar days (shared/calendar/colombia-days.ts): UTC-5 all year, no daylight saving. */
import { colombiaDay, dayBounds, isCalendarDay } from '../../shared/calendar/colombia-days';

it('an instant belongs to the Colombian day that UTC-5 gives it', () => {
  expect(colombiaDay('2026-03-15T04:59:59.999Z')).toBe('2026-03-14');
  expect(colombiaDay('2026-03-15T05:00:00.000Z')).toBe('2026-03-15');
  // No daylight saving: the same offset in July as in January, and across the year's end.
  expect(colombiaDay('2026-07-01T04:30:00.000Z')).toBe('2026-06-30');
  expect(colombiaDay('2027-01-01T03:00:00.000Z')).toBe('2026-12-31');
});

it("a day's bounds are its first and last milliseconds in UTC, and each bound is of that day", () => {
  expect(dayBounds('2026-03-14')).toEqual({ start: '2026-03-14T05:00:00.000Z', end: '2026-03-15T04:59:59.999Z' });
  expect(dayBounds('2028-02-29')).toEqual({ start: '2028-02-29T05:00:00.000Z', end: '2028-03-01T04:59:59.999Z' });
  for (const day of ['2026-01-01', '2026-12-31', '2028-02-29']) {
    const { start, end } = dayBounds(day);
    expect([colombiaDay(start), colombiaDay(end)]).toEqual([day, day]);
  }
});

it('a calendar day is a real date written YYYY-MM-DD', () => {
  expect(['2026-03-14', '2028-02-29'].map(isCalendarDay)).toEqual([true, true]);
  expect(
    ['2026-02-29', '2026-02-30', '2026-13-01', '2026-3-14', '20260314', 'yesterday', '2026-03-14T00:00:00Z'].map(
      isCalendarDay,
    ),
  ).toEqual(Array(7).fill(false));
});
