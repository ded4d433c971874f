/**
 * dashboard/src/days.ts and format.ts: a day of Bogotá as the API's UTC bounds, days typed as
 * Colombia writes them, and times shown in Bogotá with their seconds.
 */
import { dayBounds, dayOf, lastDays, parseDay } from '../../dashboard/src/days';
import { formatTime } from '../../dashboard/src/format';

test("a Bogotá day runs from 05:00 UTC to 04:59:59.999 UTC the next day (UTC-5, from the zone's rules)", () => {
  expect(dayBounds('2026-11-25')).toEqual({ from: '2026-11-25T05:00:00.000Z', to: '2026-11-26T04:59:59.999Z' });
  // Across a month's and a year's end.
  expect(dayBounds('2026-12-31')).toEqual({ from: '2026-12-31T05:00:00.000Z', to: '2027-01-01T04:59:59.999Z' });
});

test('a sale at 19:30 in Bogotá is filed under its own day, not the next (UTC) one', () => {
  const sale = '2026-11-26T00:30:00.000Z';
  const { from, to } = dayBounds('2026-11-25');
  expect(from <= sale && sale <= to).toBe(true);
  expect(formatTime(sale)).toBe('25/11/2026 19:30:00');
});

test('the bounds follow a zone whose offset changes that day (computed, not a constant)', () => {
  // New York moves its clocks forward on 8 March 2026: a day of 23 hours.
  expect(dayBounds('2026-03-08', 'America/New_York')).toEqual({
    from: '2026-03-08T05:00:00.000Z',
    to: '2026-03-09T03:59:59.999Z',
  });
  expect(dayBounds('2026-11-01', 'America/New_York')).toEqual({
    from: '2026-11-01T04:00:00.000Z',
    to: '2026-11-02T04:59:59.999Z',
  });
});

test.each([
  ['25/11/2026', '2026-11-25'],
  ['1/3/2026', '2026-03-01'],
  ['29-02-2028', '2028-02-29'],
  ['28112026', '2026-11-28'],
  ['28 11 2026', '2026-11-28'],
  ['01.03.2026', '2026-03-01'],
])('%s is the day %s', (typed, day) => {
  expect(parseDay(typed)).toEqual({ ok: true, day });
});

test.each(['31/02/2026', '11/25/2026', '2026-11-25', 'mañana', '29/02/2026', '2811202', '11252026', '20261128'])(
  '%s is not a day',
  (typed) => {
    expect(parseDay(typed).ok).toBe(false);
  },
);

test("a payment's day is Bogotá's: 19:30 there is still that day, though UTC has moved on", () => {
  expect(dayOf('2026-11-26T00:30:00.000Z')).toBe('2026-11-25');
  expect(dayOf('2026-11-26T05:00:00.000Z')).toBe('2026-11-26');
});

test('the last 30 days end with the day of now in Bogotá, oldest first, across a month and a year', () => {
  const days = lastDays(30, new Date('2027-01-02T03:00:00.000Z'));
  expect(days).toHaveLength(30);
  expect(days[29]).toBe('2027-01-01');
  expect(days[0]).toBe('2026-12-03');
  expect(new Set(days).size).toBe(30);
  expect(lastDays(3, new Date('2026-03-01T12:00:00.000Z'))).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
});
