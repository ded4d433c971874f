/**
 * The payments' daily totals (GET /v1/payment-totals, docs/payments.md "Daily totals"): per Bogotá day
 * of creation, how many payments were received and sent and for how much, by status. They are kept at
 * write time, in the transaction that puts a payment or answers it (shared/data/payment-totals.ts), so
 * a read costs the days asked, whatever the number of payments. Here: the period asked, and the answer
 * built from what the store holds.
 */
import { colombiaDay, isCalendarDay } from '../calendar/colombia-days';
import type { PaymentDirection, PaymentStatus } from '../schemas/payments';
import { invalidField } from './errors';
import { cop, type Money } from './money';

/** The most days one read spans: a quarter, the longest period the dashboard offers. */
export const MAX_TOTALS_DAYS = 92;

/** A status's figures: how many payments and their amount in cents. */
export interface StatusFigure {
  readonly count: number;
  readonly cents: number;
}

/** What the store holds of a day, per direction and status; absent: none. */
export type StoredFigures = Partial<Record<PaymentDirection, Partial<Record<PaymentStatus, StatusFigure>>>>;

export interface PaymentTotalsStore {
  /** The figures of each day from `from` to `to` (inclusive) that has any, for the tenant or one of its merchants. */
  days(tenant: string, customerId: string | undefined, from: string, to: string): Promise<Map<string, StoredFigures>>;
}

export interface PaymentTotalsQuery {
  readonly from: string;
  readonly to: string;
  readonly customer_id?: string;
}

interface Figure {
  readonly count: number;
  readonly amount: Money;
}
interface ReceivedFigures {
  readonly settled: Figure;
  readonly processing: Figure;
  readonly rejected: Figure;
}
interface SentFigures {
  readonly settled: Figure;
  readonly pending: Figure;
  readonly rejected: Figure;
}
export interface DayTotals {
  readonly date: string;
  readonly received: ReceivedFigures;
  readonly sent: SentFigures;
}
export interface PaymentTotals {
  readonly from: string;
  readonly to: string;
  readonly customer_id?: string;
  /** The whole period's: the days' figures added up. */
  readonly totals: Omit<DayTotals, 'date'>;
  readonly days: readonly DayTotals[];
}

const figure = (stored?: StatusFigure): Figure => ({ count: stored?.count ?? 0, amount: cop(stored?.cents ?? 0) });

/**
 * A day's figures as answered: none below zero. A payment made before the daily totals existed and
 * answered after is moved out of PENDING (or PROCESSING) on a day that never counted it there.
 */
function floored(day: StoredFigures): StoredFigures {
  return Object.fromEntries(
    Object.entries(day).map(([direction, statuses]) => [
      direction,
      Object.fromEntries(
        Object.entries(statuses ?? {}).map(([status, { count, cents }]) => [
          status,
          { count: Math.max(0, count), cents: Math.max(0, cents) },
        ]),
      ),
    ]),
  ) as StoredFigures;
}

function dayTotals(date: string, stored: StoredFigures = {}): DayTotals {
  const received = stored.INBOUND ?? {};
  const sent = stored.OUTBOUND ?? {};
  return {
    date,
    received: {
      settled: figure(received.SETTLED),
      processing: figure(received.PROCESSING),
      rejected: figure(received.REJECTED),
    },
    sent: { settled: figure(sent.SETTLED), pending: figure(sent.PENDING), rejected: figure(sent.REJECTED) },
  };
}

/** Every calendar day from `from` to `to`, in order. */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let time = Date.parse(`${from}T00:00:00Z`); time <= Date.parse(`${to}T00:00:00Z`); time += 86_400_000) {
    days.push(new Date(time).toISOString().slice(0, 10));
  }
  return days;
}

function added(days: readonly StoredFigures[]): StoredFigures {
  const sum: Record<string, Record<string, StatusFigure>> = {};
  for (const day of days) {
    for (const [direction, statuses] of Object.entries(day)) {
      for (const [status, { count, cents }] of Object.entries(statuses ?? {})) {
        const before = (sum[direction] ??= {})[status] ?? { count: 0, cents: 0 };
        sum[direction][status] = { count: before.count + count, cents: before.cents + cents };
      }
    }
  }
  return sum as StoredFigures;
}

/** GET /v1/payment-totals: every day of the period, a day without payments as zeros, and their sum. */
export async function getPaymentTotals(
  store: PaymentTotalsStore,
  tenant: string,
  query: PaymentTotalsQuery,
  now: string,
): Promise<PaymentTotals> {
  const { from, to, customer_id: customerId } = query;
  for (const [field, day] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isCalendarDay(day)) throw invalidField(field, 'must be a calendar day YYYY-MM-DD');
  }
  if (to < from) throw invalidField('to', 'must not be before from');
  const days = daysBetween(from, to);
  if (days.length > MAX_TOTALS_DAYS) throw invalidField('to', `must be at most ${MAX_TOTALS_DAYS} days from from`);
  if (from > colombiaDay(now)) throw invalidField('from', 'must not be after today in Colombia (America/Bogota)');
  const stored = new Map(
    [...(await store.days(tenant, customerId?.toLowerCase(), from, to))].map(([day, figures]) => [
      day,
      floored(figures),
    ]),
  );
  const { received, sent } = dayTotals('', added([...stored.values()]));
  return {
    from,
    to,
    ...(customerId ? { customer_id: customerId.toLowerCase() } : {}),
    totals: { received, sent },
    days: days.map((day) => dayTotals(day, stored.get(day))),
  };
}
