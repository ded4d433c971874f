/**
 * The Overview's figures: per calendar day of Bogotá, how many payments were received and sent and
 * for how much, in exact cents (money.ts), from the API's daily totals (GET /v1/payment-totals). A
 * rejected payment moved no money and is left out; a payment still under way (PROCESSING received,
 * PENDING sent) counts, as on the payments page's totals. On its own (no DOM), so a unit test sums as
 * the page does.
 */
import type { PaymentTotals } from './api';
import { centsOf } from './money';

export interface DayFigures {
  /** YYYY-MM-DD, Bogotá's. */
  readonly day: string;
  readonly receivedCount: number;
  readonly receivedCents: bigint;
  readonly sentCount: number;
  readonly sentCents: bigint;
}

type Figure = PaymentTotals['totals']['received']['settled'];

const add = (figures: readonly Figure[]) => ({
  count: figures.reduce((sum, figure) => sum + figure.count, 0),
  cents: figures.reduce((sum, figure) => sum + centsOf(figure.amount.value), 0n),
});

/** One row per day the API answered (every day of the period asked, in order). */
export function dailyFigures(totals: Pick<PaymentTotals, 'days'>): DayFigures[] {
  return totals.days.map(({ date, received, sent }) => {
    const moving = add([received.settled, received.processing]);
    const leaving = add([sent.settled, sent.pending]);
    return {
      day: date,
      receivedCount: moving.count,
      receivedCents: moving.cents,
      sentCount: leaving.count,
      sentCents: leaving.cents,
    };
  });
}
