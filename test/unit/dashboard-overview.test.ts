/**
 * dashboard/src/overview-figures.ts: the Overview's figures per day of Bogotá, received and sent,
 * counted and summed in exact cents; rejected payments left out, payments under way counted.
 */
import fc from 'fast-check';
import { amountOfCents, centsOf } from '../../dashboard/src/money';
import { dailyFigures, type PaymentFacts } from '../../dashboard/src/overview-figures';

const DAYS = ['2026-11-24', '2026-11-25'];
const paid = (created_at: string, direction: PaymentFacts['direction'], value: string, status = 'SETTLED') => ({
  created_at,
  direction,
  status,
  amount: { value },
});

test("each payment lands on its Bogotá day, received and sent apart; rejected left out; other days' ignored", () => {
  const figures = dailyFigures(DAYS, [
    paid('2026-11-24T15:00:00.000Z', 'INBOUND', '58000.00'),
    // 19:30 in Bogotá on the 24th, already the 25th in UTC.
    paid('2026-11-25T00:30:00.000Z', 'INBOUND', '0.10', 'PENDING'),
    paid('2026-11-25T12:00:00.000Z', 'OUTBOUND', '120.50', 'PROCESSING'),
    paid('2026-11-25T13:00:00.000Z', 'INBOUND', '999.00', 'REJECTED'),
    paid('2026-11-23T13:00:00.000Z', 'INBOUND', '1.00'),
  ]);
  expect(figures).toEqual([
    { day: '2026-11-24', receivedCount: 2, receivedCents: 5800010n, sentCount: 0, sentCents: 0n },
    { day: '2026-11-25', receivedCount: 0, receivedCents: 0n, sentCount: 1, sentCents: 12050n },
  ]);
});

test('the days are summed exactly, whatever the amounts: the sum of the days is the sum of the payments', () => {
  const payment = fc.record({
    created_at: fc
      .integer({ min: Date.parse('2026-11-24T05:00:00.000Z'), max: Date.parse('2026-11-26T04:59:59.999Z') })
      .map((ms) => new Date(ms).toISOString()),
    direction: fc.constantFrom('INBOUND' as const, 'OUTBOUND' as const),
    status: fc.constantFrom('PENDING', 'SETTLED', 'REJECTED'),
    amount: fc.bigInt({ min: 1n, max: 10n ** 17n - 1n }).map((cents) => ({ value: amountOfCents(cents) })),
  });
  fc.assert(
    fc.property(fc.array(payment, { maxLength: 40 }), (payments) => {
      const figures = dailyFigures(DAYS, payments);
      const counted = payments.filter((p) => p.status !== 'REJECTED');
      const sum = (direction: string) =>
        counted.filter((p) => p.direction === direction).reduce((s, p) => s + centsOf(p.amount.value), 0n);
      expect(figures.reduce((s, f) => s + f.receivedCents, 0n)).toBe(sum('INBOUND'));
      expect(figures.reduce((s, f) => s + f.sentCents, 0n)).toBe(sum('OUTBOUND'));
      expect(figures.reduce((s, f) => s + f.receivedCount + f.sentCount, 0)).toBe(counted.length);
    }),
  );
});
