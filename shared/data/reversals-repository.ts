/**
 * Reversals of network credits in DynamoDB (docs/network.md, "Reversals"; docs/data-model.md):
 * `REVERSAL#<reversal_id>`, written once in one transaction with the payment's reversed amount, the
 * merchant's debit (below zero if need be) and its movement, and the payment.reversed event.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ReversalStore, StoredReversal } from '../domain/reversals';
import { dynamo, tableName } from './client';
import { eventsPut } from './events';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import { writeWithLedgerDays } from './ledger-transaction';
import { reversalMoveItems } from './movements';
import { ledgerKeys } from './balances';
import { settledReversalPut } from './settled-transfers';

const REVERSAL_ENTITY = 'REVERSAL';

/**
 * The payment's reversed amount, raised only while its refunded and reversed amounts are those the
 * reversal read (both only grow while a refund or reversal is made, so "at most" is "unchanged"): what
 * is left of the payment was computed from them, and a refund or reversal racing this one is read again.
 */
function reversedAmountUpdate(reversal: StoredReversal, refundedCents: number, reversedCents: number) {
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.payment(reversal.payment_id),
      UpdateExpression: 'ADD reversed_amount_cents :cents',
      ConditionExpression:
        '#status = :settled AND (attribute_not_exists(refunded_amount_cents) OR refunded_amount_cents <= :refunded) ' +
        'AND (attribute_not_exists(reversed_amount_cents) OR reversed_amount_cents <= :reversed)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':cents': reversal.amount_cents,
        ':settled': 'SETTLED',
        ':refunded': refundedCents,
        ':reversed': reversedCents,
      },
    },
  };
}

/** The account's available balance now (undefined for an account whose balance is not found). */
async function availableBalanceOf(accountId: string): Promise<number | undefined> {
  const { key, legacyKey } = ledgerKeys(accountId);
  for (const Key of [key, legacyKey]) {
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: true }));
    const cents = Item?.['available_balance_cents'];
    if (typeof cents === 'number') return cents;
  }
  return undefined;
}

export const dynamoReversalStore: ReversalStore = {
  async get(reversalId) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.reversal(reversalId), ConsistentRead: true }),
    );
    return Item ? withoutStorageAttributes<StoredReversal>(Item) : undefined;
  },

  async apply(reversal, payment, events) {
    const outcome = await writeWithLedgerDays<'reversal_exists' | 'payment_changed' | 'no_account'>((transaction) =>
      transaction
        .condition('reversal_exists', {
          Put: {
            TableName: tableName(),
            Item: { ...itemKeys.reversal(reversal.reversal_id), entity: REVERSAL_ENTITY, ...reversal },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        })
        .condition(
          'payment_changed',
          reversedAmountUpdate(reversal, payment.refunded_amount_cents ?? 0, payment.reversed_amount_cents ?? 0),
        )
        .move('no_account', reversal.account_id, (seen) =>
          reversalMoveItems(
            {
              accountId: reversal.account_id,
              reversalId: reversal.reversal_id,
              paymentId: reversal.payment_id,
              amountCents: reversal.amount_cents,
            },
            reversal.created_at,
            seen,
          ),
        )
        // What the bank's settlement file of the day should list (docs/reconciliation.md, "Against the bank").
        .add(...eventsPut(events), ...settledReversalPut(reversal)),
    );
    if (outcome.written) return { written: true, balanceCents: await availableBalanceOf(reversal.account_id) };
    const [reason] = outcome.failed.keys();
    if (reason === 'no_account')
      throw new Error(`Reversal ${reversal.reversal_id}: account ${reversal.account_id} is gone`);
    return { written: false, reason: reason! };
  },
};
