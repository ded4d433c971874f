/**
 * shared/domain/payment-totals.ts: the answer built from what the store holds. Every day of the
 * period in order, a day without figures as zeros, the period's sum; and no figure below zero, though
 * the store holds one for a day whose payment, made before the daily totals existed, was answered
 * after (moved out of PENDING on a day that never counted it there).
 */
import { getPaymentTotals, type PaymentTotalsStore, type StoredFigures } from '../../shared/domain/payment-totals';

const storeOf = (days: Record<string, StoredFigures>): PaymentTotalsStore => ({
  days: async () => new Map(Object.entries(days)),
});
const NOW = '2026-11-28T15:00:00.000Z';

test('a day that answered a payment it never counted shows no pending below zero, in the day and the sum', async () => {
  const answer = await getPaymentTotals(
    storeOf({
      '2026-11-27': {
        OUTBOUND: { PENDING: { count: -1, cents: -7_500 }, SETTLED: { count: 1, cents: 7_500 } },
        INBOUND: { SETTLED: { count: 2, cents: 1_000 } },
      },
    }),
    'tenant-a',
    { from: '2026-11-26', to: '2026-11-28' },
    NOW,
  );
  expect(answer.days.map((day) => day.date)).toEqual(['2026-11-26', '2026-11-27', '2026-11-28']);
  const [, day] = answer.days;
  expect(day!.sent.pending).toEqual({ count: 0, amount: { currency: 'COP', value: '0.00' } });
  expect(day!.sent.settled).toEqual({ count: 1, amount: { currency: 'COP', value: '75.00' } });
  expect(answer.totals.sent.pending.count).toBe(0);
  expect(answer.totals.received.settled).toEqual({ count: 2, amount: { currency: 'COP', value: '10.00' } });
  expect(answer.days[0]!.received.settled.count).toBe(0);
});
