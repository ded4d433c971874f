/**
 * The payments' daily totals in DynamoDB (shared/domain/payment-totals.ts): per Bogotá day, the
 * tenant's figures and each merchant's, each spread over COUNTER_SHARDS items (a payment falls on its
 * id's shard, as the list counters do) so that concurrent payments rarely meet on one item. Every
 * payment write (shared/data/payments-repository.ts) adds its changes in its own transaction, so the
 * figures are exactly the payments committed; a period's read is one Query per partition, sized by
 * its days.
 */
import { createHash } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { PaymentDirection, PaymentStatus } from '../schemas/payments';
import { colombiaDay } from '../calendar/colombia-days';
import type { PaymentTotalsStore, StatusFigure, StoredFigures } from '../domain/payment-totals';
import type { StoredPayment } from '../domain/payments';
import { dynamo, tableName } from './client';
import { COUNTER_SHARDS } from './counters';
import { itemKeys } from './item-keys';
import type { TransactItem } from './transactions';

/** One change of a day's figures: `count` payments (+1 or -1) of `cents` in a direction and status. */
interface FigureChange {
  readonly tenant: string;
  readonly customerId: string;
  /** The payment's id: the store spreads the changes over shards by it. */
  readonly paymentId: string;
  /** The Bogotá day of the payment's creation: a payment stays on that day whatever happens to it later. */
  readonly day: string;
  readonly direction: PaymentDirection;
  readonly status: PaymentStatus;
  readonly count: 1 | -1;
  readonly cents: number;
}

const change = (payment: StoredPayment, status: PaymentStatus, count: 1 | -1): FigureChange => ({
  tenant: payment.tenant,
  customerId: payment.customer_id,
  paymentId: payment.id,
  day: colombiaDay(payment.created_at),
  direction: payment.direction,
  status,
  count,
  cents: count * payment.amount_cents,
});

/**
 * What a payment write changes: each new payment counted under its status; each answered one (stored
 * PENDING or PROCESSING until this write, which holds only while it still is) moved from that status
 * to its answer's.
 */
function figureChanges(created: readonly StoredPayment[], answered: readonly StoredPayment[]): FigureChange[] {
  return [
    ...created.map((payment) => change(payment, payment.status, 1)),
    ...answered.flatMap((payment) => {
      const awaited: PaymentStatus = payment.direction === 'OUTBOUND' ? 'PENDING' : 'PROCESSING';
      return payment.status === awaited ? [] : [change(payment, awaited, -1), change(payment, payment.status, 1)];
    }),
  ];
}

/** An item's attributes of a direction and status: `in_settled_count`, `in_settled_cents`, ... */
const attributeOf = (direction: PaymentDirection, status: PaymentStatus, what: 'count' | 'cents') =>
  `${direction === 'INBOUND' ? 'in' : 'out'}_${status.toLowerCase()}_${what}`;
const ATTRIBUTE = /^(in|out)_([a-z]+)_(count|cents)$/;

/**
 * The updates of a payment write's daily totals, for its transaction (`created`: its new payments;
 * `answered`: the payments it answers): one per item (a transaction touches an item once), each
 * adding up the changes that fall on it, in the tenant's partition and in the merchant's.
 */
export function dayTotalsUpdates(
  created: readonly StoredPayment[],
  answered: readonly StoredPayment[],
): TransactItem[] {
  const changes = figureChanges(created, answered);
  const items = new Map<string, { key: ReturnType<typeof itemKeys.dayTotalsShard>; adds: Map<string, number> }>();
  for (const change of changes) {
    const shard = createHash('sha256').update(change.paymentId).digest()[0]! % COUNTER_SHARDS;
    for (const customerId of [undefined, change.customerId]) {
      const key = itemKeys.dayTotalsShard(change.tenant, customerId, change.day, shard);
      const item = items.get(`${key.pk}|${key.sk}`) ?? { key, adds: new Map<string, number>() };
      for (const [what, value] of [
        ['count', change.count],
        ['cents', change.cents],
      ] as const) {
        const name = attributeOf(change.direction, change.status, what);
        item.adds.set(name, (item.adds.get(name) ?? 0) + value);
      }
      items.set(`${key.pk}|${key.sk}`, item);
    }
  }
  return [...items.values()].map(({ key, adds }) => {
    const names = [...adds.keys()];
    return {
      Update: {
        TableName: tableName(),
        Key: key,
        UpdateExpression: `SET entity = :entity ADD ${names.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
        ExpressionAttributeValues: {
          ':entity': 'DAY_TOTALS',
          ...Object.fromEntries(names.map((name, i) => [`:a${i}`, adds.get(name)!])),
        },
      },
    };
  });
}

/** Adds one shard item's figures to its day's. */
function addShard(day: Record<string, Record<string, StatusFigure>>, item: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(item)) {
    const match = ATTRIBUTE.exec(name);
    if (!match || typeof value !== 'number') continue;
    const direction = match[1] === 'in' ? 'INBOUND' : 'OUTBOUND';
    const status = match[2]!.toUpperCase();
    const before = (day[direction] ??= {})[status] ?? { count: 0, cents: 0 };
    day[direction][status] =
      match[3] === 'count' ? { ...before, count: before.count + value } : { ...before, cents: before.cents + value };
  }
}

export const dynamoPaymentTotalsStore: PaymentTotalsStore = {
  async days(tenant, customerId, from, to) {
    const days = new Map<string, Record<string, Record<string, StatusFigure>>>();
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': itemKeys.dayTotalsPartition(tenant, customerId),
            ':from': from,
            // `~` sorts after `#SHARD#n`: every shard of the last day.
            ':to': `${to}~`,
          },
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        const day = String(item['sk']).slice(0, 10);
        addShard(days.get(day) ?? days.set(day, {}).get(day)!, item);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return days as Map<string, StoredFigures>;
  },
};
