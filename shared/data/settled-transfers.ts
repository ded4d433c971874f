/**
 * The transfers settled here, by Bogotá day (docs/reconciliation.md, "Against the bank"): what the
 * sponsor bank's settlement file of that day should list, so that a transfer we settled and the bank
 * did not is found (MISSING_AT_BANK) without reading every account. One small item per SETTLED
 * payment or refund, put in the very transaction that settles it (it exists exactly when the
 * transfer is SETTLED; a reversal of a credit in the transaction that applies it), under `SETTLED#<day>#<shard>`: the day's transfers of every client, spread
 * over SETTLED_SHARDS partitions (a partition takes some 1,000 writes a second), read a shard at a
 * time by the reconciliation's worker. In no index; expires after SETTLED_TRANSFER_DAYS.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { SettledDay } from '../domain/reconciliations';
import type { SettledTransfer } from '../domain/settlement-matching';
import type { StoredPayment } from '../domain/payments';
import type { StoredRefund } from '../domain/refunds';
import type { StoredReversal } from '../domain/reversals';
import { colombiaDay } from '../calendar/colombia-days';
import { dynamo, tableName } from './client';
import { dueShardOf } from './due-work';
import { itemKeys } from './item-keys';
import type { TransactItem } from './transactions';

/** Partitions of one day: 8 take some 8,000 settlements a second. Never lowered (a day's items stay where written). */
export const SETTLED_SHARDS = 8;

/** How long an entry is kept: a day's file may come late, or be sent again, within the month. */
export const SETTLED_TRANSFER_DAYS = 60;

export const SETTLED_TRANSFER_ENTITY = 'SETTLED_TRANSFER';

const shardOf = (id: string): number => dueShardOf(id) % SETTLED_SHARDS;

function entryPut(entry: SettledTransfer, at: string): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...itemKeys.settledTransfer(colombiaDay(at), shardOf(entry.id), entry.kind.toUpperCase(), entry.id),
        entity: SETTLED_TRANSFER_ENTITY,
        ...entry,
        settled_at: at,
        expires_at: Math.floor(Date.parse(at) / 1000) + SETTLED_TRANSFER_DAYS * 24 * 60 * 60,
      },
    },
  };
}

/** The entry of a payment written SETTLED (received so, or answered so), dated by its settlement. */
export function settledPaymentPut(payment: StoredPayment): TransactItem[] {
  if (payment.status !== 'SETTLED') return [];
  const inbound = payment.direction === 'INBOUND';
  return [
    entryPut(
      {
        kind: 'payment',
        id: payment.id,
        tenant: payment.tenant,
        account_id: payment.account_id,
        direction: inbound ? 'CREDIT' : 'DEBIT',
        amount_cents: payment.amount_cents,
        ...(payment.end_to_end_id === undefined ? {} : { end_to_end_id: payment.end_to_end_id }),
        counterparty_nit: payment.counterparty.participant.identification_number,
        ...(payment.own_payer ? { own_payer: true } : {}),
      },
      payment.settled_at ?? payment.updated_at,
    ),
  ];
}

/** The entry of a refund answered SETTLED: the merchant's debit, dated by the answer. */
export function settledRefundPut(refund: StoredRefund): TransactItem[] {
  if (refund.status !== 'SETTLED') return [];
  return [
    entryPut(
      {
        kind: 'refund',
        id: refund.id,
        tenant: refund.tenant,
        account_id: refund.account_id,
        direction: 'DEBIT',
        amount_cents: refund.amount_cents,
        counterparty_nit: refund.counterparty.participant.identification_number,
        ...(refund.own_payer ? { own_payer: true } : {}),
      },
      refund.updated_at,
    ),
  ];
}

/** The entry of a reversal: the bank's DEBIT of the credit's own end-to-end id, dated by its application. */
export function settledReversalPut(reversal: StoredReversal): TransactItem[] {
  return [
    entryPut(
      {
        kind: 'reversal',
        id: reversal.reversal_id,
        tenant: reversal.tenant,
        account_id: reversal.account_id,
        direction: 'DEBIT',
        amount_cents: reversal.amount_cents,
        end_to_end_id: reversal.end_to_end_id,
        payment_id: reversal.payment_id,
      },
      reversal.created_at,
    ),
  ];
}

const ENTRY_FIELDS = [
  'kind',
  'id',
  'tenant',
  'account_id',
  'direction',
  'amount_cents',
  'end_to_end_id',
  'counterparty_nit',
  'own_payer',
  'payment_id',
] as const;

const entryOf = (item: Record<string, unknown>): SettledTransfer =>
  Object.fromEntries(
    ENTRY_FIELDS.filter((field) => item[field] !== undefined).map((field) => [field, item[field]]),
  ) as unknown as SettledTransfer;

/** A day's entries, a Query page at a time, shard after shard. */
export const dynamoSettledDay: SettledDay = {
  async *day(date) {
    for (let shard = 0; shard < SETTLED_SHARDS; shard += 1) {
      let start: Record<string, unknown> | undefined;
      do {
        const page = await dynamo().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'pk = :pk',
            ExpressionAttributeValues: { ':pk': itemKeys.settledTransfer(date, shard, '', '').pk },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        );
        const items = (page.Items ?? []).map(entryOf);
        if (items.length > 0) yield items;
        start = page.LastEvaluatedKey;
      } while (start);
    }
  },
};
