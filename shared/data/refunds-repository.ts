/**
 * Refunds in DynamoDB (docs/refunds.md, docs/data-model.md): `REFUND#<id>`, listed in the client's
 * collection and under its customer. Each change of a refund is one TransactWriteItems with the money
 * it moves: a new refund with its hold (the merchant's debit and its movement), the payment's
 * refunded_amount raised within the payment's amount, its event, its list counters, and its place in
 * the index of due work until answered; an answer while the refund is PENDING, for a rejection with
 * the release of the hold and refunded_amount lowered, for a refund to one of our own merchants
 * settled with the credit of the payer's account.
 */
import { writeReview } from './transfer-reviews';
import { auditItems, operatorAuditItems } from './audit-trail';
import type { OwnPayer } from '../domain/payments';
import type {
  RefundAnswerResult,
  RefundInsertResult,
  RefundListFilters,
  RefundStore,
  StoredRefund,
} from '../domain/refunds';
import type { DomainEvent } from '../domain/events';
import { tableName } from './client';
import { counterIncrementsOf } from './counters';
import { dueKeys } from './due-work';
import { eventsPut } from './events';
import { listPartitions, listedRecordPut } from './inserts';
import { itemKeys } from './item-keys';
import { listedStore, listingOf, recordGetter, underCustomer } from './listed-records';
import { writeWithLedgerDays } from './ledger-transaction';
import { refundMoveItems, type LedgerDaySeen, type RefundMove } from './movements';
import { settledRefundPut } from './settled-transfers';
import { whileActive, type TransactItem } from './transactions';

const REFUNDS = underCustomer<StoredRefund, RefundListFilters>(
  'REFUND',
  itemKeys.refund,
  (filters) => ({ payment_id: filters.paymentId, status: filters.status }),
  // A retry meets the refund its first request wrote a moment before.
  true,
);

const refundPut = (refund: StoredRefund): NonNullable<TransactItem['Put']> =>
  listedRecordPut(refund, REFUNDS.key(refund.id), REFUNDS.name, listingOf(REFUNDS, refund)).Put!;

/**
 * The refund's share of the payment's refunded_amount: raised only on a SETTLED INBOUND payment and
 * only while the refunds stay within its amount, so that refunds racing under different keys never
 * refund more than the payment; lowered by a rejection.
 */
function refundedAmountUpdate(
  refund: StoredRefund,
  raising?: { readonly paymentAmountCents: number; readonly paymentReversedCents: number },
): TransactItem {
  const raise = raising !== undefined;
  return {
    Update: {
      TableName: tableName(),
      Key: itemKeys.payment(refund.payment_id),
      UpdateExpression: 'ADD refunded_amount_cents :cents',
      ConditionExpression: raise
        ? '#status = :settled AND direction = :inbound AND ' +
          '(attribute_not_exists(refunded_amount_cents) OR refunded_amount_cents <= :most) AND ' +
          // A reversal since the read took part of what was left (reversed amounts only grow).
          '(attribute_not_exists(reversed_amount_cents) OR reversed_amount_cents <= :reversed)'
        : 'refunded_amount_cents >= :refund',
      ...(raise ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: raise
        ? {
            ':cents': refund.amount_cents,
            ':settled': 'SETTLED',
            ':inbound': 'INBOUND',
            ':most': raising.paymentAmountCents - raising.paymentReversedCents - refund.amount_cents,
            ':reversed': raising.paymentReversedCents,
          }
        : { ':cents': -refund.amount_cents, ':refund': refund.amount_cents },
    },
  };
}

const moveOf = (refund: StoredRefund, amountCents: number): RefundMove => ({
  accountId: refund.account_id,
  refundId: refund.id,
  paymentId: refund.payment_id,
  amountCents,
});

/**
 * What a new refund's failed conditions mean, in the order a client would be told: the key's refund,
 * the merchant's state, the remainder, the funds.
 */
type InsertRefusal = Extract<RefundInsertResult, { written: false }>['reason'];

async function insert({
  refund,
  paymentAmountCents,
  paymentReversedCents,
  events,
  workDueAt,
}: Parameters<RefundStore['insert']>[0]): Promise<RefundInsertResult> {
  const put = refundPut(refund);
  const outcome = await writeWithLedgerDays<InsertRefusal>((transaction) =>
    transaction
      // Its id follows from the Idempotency-Key: a refund of that key already made fails here.
      .condition('refund_exists', { Put: { ...put, Item: { ...put.Item, ...dueKeys(refund.id, workDueAt) } } })
      // Checked in the transaction, not read before it: a merchant deactivated meanwhile refunds nothing.
      .condition('customer_inactive', whileActive(itemKeys.customer(refund.customer_id)))
      .condition('account_inactive', whileActive(itemKeys.account(refund.account_id), 'account_status'))
      .condition('exceeds_remaining', refundedAmountUpdate(refund, { paymentAmountCents, paymentReversedCents }))
      // The hold, on the merchant's ledger day.
      .move('insufficient_funds', refund.account_id, (seen) =>
        refundMoveItems(moveOf(refund, -refund.amount_cents), refund.created_at, 'REFUND', seen),
      )
      .add(
        ...eventsPut(events),
        ...counterIncrementsOf([{ partitions: listPartitions(refund, listingOf(REFUNDS, refund)), itemId: refund.id }]),
        // The client's refund is audited with it; a refund refused (over the remainder) writes no event.
        ...auditItems({
          action: 'refund.created',
          resourceType: 'REFUND',
          resourceId: refund.id,
          after: refund,
          at: refund.created_at,
        }),
      ),
  );
  if (outcome.written) return outcome;
  // The first refusal: the failed labels keep their items' order.
  const [reason] = outcome.failed.keys();
  return { written: false, reason: reason! };
}

/** The answered refund's Put: a whole new item (out of the index of due work), only while PENDING. */
function answeredPut(refund: StoredRefund): TransactItem {
  return {
    Put: {
      ...refundPut(refund),
      ConditionExpression: '#status = :pending',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':pending': 'PENDING' },
    },
  };
}

/**
 * A SETTLED refund to one of our own merchants: the payer's account credited, once (the movement is
 * keyed by the refund), on that account's ledger day. Its movement names the payer's own payment.
 */
const payerCredit = (refund: StoredRefund, payer: OwnPayer) => (seen: LedgerDaySeen | undefined) =>
  refundMoveItems(
    { accountId: payer.account_id, refundId: refund.id, paymentId: payer.payment_id, amountCents: refund.amount_cents },
    refund.updated_at,
    'REFUND',
    seen,
  );

async function answer(refund: StoredRefund, events: readonly DomainEvent[]): Promise<RefundAnswerResult> {
  const outcome = await writeWithLedgerDays<'answered' | 'credited-account' | 'credited-payer'>((transaction) => {
    transaction.condition('answered', answeredPut(refund));
    if (refund.status === 'SETTLED' && refund.own_payer) {
      transaction.move('credited-payer', refund.own_payer.account_id, payerCredit(refund, refund.own_payer));
    }
    if (refund.status === 'REJECTED') {
      // The hold was the debit: a rejection gives the merchant its amount back, once, on its ledger day.
      transaction
        .move('credited-account', refund.account_id, (seen) =>
          refundMoveItems(moveOf(refund, refund.amount_cents), refund.updated_at, 'HOLD_RELEASE', seen),
        )
        .add(refundedAmountUpdate(refund));
    }
    // What the bank's settlement file of the day should list (docs/reconciliation.md, "Against the bank").
    transaction.add(...eventsPut(events), ...settledRefundPut(refund));
    // An operator's answer (npm run ops:transfer-status) is audited; a job's or callback's has no actor.
    transaction.add(
      ...operatorAuditItems({
        action: 'refund.answered',
        resourceType: 'REFUND',
        resourceId: refund.id,
        before: { status: 'PENDING' },
        after: refund,
        at: refund.updated_at,
      }),
    );
  });
  if (outcome.written) return outcome;
  // Another job or callback answered it first (its release or credit and events, keyed by the refund, too).
  if (outcome.failed.has('answered')) return { written: false, reason: 'not_pending' };
  // A credit's only condition is that its account exists.
  if (outcome.failed.has('credited-payer')) return { written: false, reason: 'payer_account_missing' };
  throw new Error(`Refund answer refused by ${[...outcome.failed.keys()].join(', ')}`);
}

/** The refunds' get and writes, without the list reads: what createRefund and the settlement job take. */
export const dynamoRefundWrites: Omit<RefundStore, 'list' | 'walk'> = {
  ...recordGetter(REFUNDS),
  insert,
  answer,
  markInReview: (reviewed) => writeReview(refundPut(reviewed)),
};

/** Every read and write of the refunds, lists included. */
export const dynamoRefundStore: RefundStore = /* @__PURE__ */ listedStore(REFUNDS, dynamoRefundWrites);
