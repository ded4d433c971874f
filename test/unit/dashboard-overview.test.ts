/**
 * dashboard/src/overview-figures.ts: the Overview's figures per day of Bogotá from the API's daily
 * totals, received and sent, counted and summed in exact cents; rejected payments left out, payments
 * under way counted.
 */
import fc from 'fast-check';
import type { PaymentTotals } from '../../dashboard/src/api';
import { amountOfCents, centsOf } from '../../dashboard/src/money';
import { dailyFigures } from '../../dashboard/src/overview-figures';

type Day = PaymentTotals['days'][number];
const figure = (count: number, value: string) => ({ count, amount: { currency: 'COP' as const, value } });
const NONE = figure(0, '0.00');
const day = (date: string, received: Partial<Day['received']>, sent: Partial<Day['sent']>): Day => ({
  date,
  received: { settled: NONE, processing: NONE, rejected: NONE, ...received },
  sent: { settled: NONE, pending: NONE, rejected: NONE, ...sent },
});

test('received: settled and processing; sent: settled and pending; rejected left out', () => {
  const figures = dailyFigures({
    days: [
      day('2026-11-24', { settled: figure(1, '58000.00'), processing: figure(1, '0.10') }, {}),
      day(
        '2026-11-25',
        { rejected: figure(1, '999.00') },
        { pending: figure(1, '120.50'), rejected: figure(2, '3.00') },
      ),
    ],
  });
  expect(figures).toEqual([
    { day: '2026-11-24', receivedCount: 2, receivedCents: 5800010n, sentCount: 0, sentCents: 0n },
    { day: '2026-11-25', receivedCount: 0, receivedCents: 0n, sentCount: 1, sentCents: 12050n },
  ]);
});

test('the days are added exactly, whatever the amounts', () => {
  const amount = fc.bigInt({ min: 0n, max: 10n ** 15n - 1n });
  const anyFigure = fc.tuple(fc.nat(1000), amount).map(([count, cents]) => figure(count, amountOfCents(cents)));
  const anyDay = fc
    .record({
      received: fc.record({ settled: anyFigure, processing: anyFigure, rejected: anyFigure }),
      sent: fc.record({ settled: anyFigure, pending: anyFigure, rejected: anyFigure }),
    })
    .map(({ received, sent }) => ({ date: '2026-11-24', received, sent }));
  fc.assert(
    fc.property(fc.array(anyDay, { maxLength: 31 }), (days) => {
      const figures = dailyFigures({ days });
      const cents = (pick: (d: Day) => { amount: { value: string } }[]) =>
        days.flatMap(pick).reduce((sum, f) => sum + centsOf(f.amount.value), 0n);
      expect(figures.reduce((s, f) => s + f.receivedCents, 0n)).toBe(
        cents((d) => [d.received.settled, d.received.processing]),
      );
      expect(figures.reduce((s, f) => s + f.sentCents, 0n)).toBe(cents((d) => [d.sent.settled, d.sent.pending]));
    }),
  );
});
