/**
 * The Overview's figures: per calendar day of Bogotá, how many payments were received and sent and
 * for how much, in exact cents (money.ts). A rejected payment moved no money and is left out; a
 * payment still under way (PENDING, PROCESSING) counts, as on the payments page's totals. On its own
 * (no DOM), so a unit test sums as the page does.
 */
import { dayOf } from './days';
import { centsOf } from './money';

export interface DayFigures {
  /** YYYY-MM-DD, Bogotá's. */
  readonly day: string;
  readonly receivedCount: number;
  readonly receivedCents: bigint;
  readonly sentCount: number;
  readonly sentCents: bigint;
}

/** What the figures read of a payment: the API's fields. */
export interface PaymentFacts {
  readonly created_at: string;
  readonly direction: 'INBOUND' | 'OUTBOUND';
  readonly status: string;
  readonly amount: { readonly value: string };
}

/** One row per day of `days` (in their order), zero where nothing moved; payments of other days are left out. */
export function dailyFigures(days: readonly string[], payments: Iterable<PaymentFacts>): DayFigures[] {
  const byDay = new Map(
    days.map((day) => [day, { day, receivedCount: 0, receivedCents: 0n, sentCount: 0, sentCents: 0n }]),
  );
  for (const payment of payments) {
    const figures = byDay.get(dayOf(payment.created_at));
    if (!figures || payment.status === 'REJECTED') continue;
    const cents = centsOf(payment.amount.value);
    if (payment.direction === 'INBOUND') {
      figures.receivedCount += 1;
      figures.receivedCents += cents;
    } else {
      figures.sentCount += 1;
      figures.sentCents += cents;
    }
  }
  return [...byDay.values()];
}
