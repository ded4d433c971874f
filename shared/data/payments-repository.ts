/**
 * Payments in DynamoDB (docs/payments.md, docs/data-model.md). `writePayment` is the one way money
 * moves: in one TransactWriteItems it puts the payment records (listed in their client's collection
 * and in their customer's scope, their details beside them) or the network's answer to PENDING ones,
 * changes the balances (a debit only while the balance covers it), records each change as a movement
 * of its account, puts the events that report it (the outbox), updates the list counters and the
 * daily totals, and carries the caller's own items (the resolution's one-payment guard, status checks,
 * a QR code's update), so that either all of it is written or none of it.
 */
import { writeReview } from './transfer-reviews';
import { auditItems, operatorAuditItems } from './audit-trail';
import type { PaymentWrite, StoredPayment } from '../domain/payments';
import type { DecisionOutcome, InboundPaymentStore } from '../domain/receive-payment';
import type { ResolutionPaymentStore, ResolutionPaymentResult, ResolutionPaymentWrite } from '../domain/pay-resolution';
import type { SettlementStore } from '../domain/settlement';
import { tableName } from './client';
import { DUE_ATTRIBUTES, dueKeys } from './due-work';
import { eventsPut } from './events';
import { listPartitions, listedRecordPut, type ListedRecord } from './inserts';
import { itemKeys } from './item-keys';
import { listingOf } from './listed-records';
import { balanceMoveItems } from './movements';
import { writeWithLedgerDays, type LedgerWriteOutcome } from './ledger-transaction';
import { resolutionPut } from './directory-repository';
import { counterIncrementsOf } from './counters';
import { dayTotalsUpdates } from './payment-totals';
import { searchTextOf } from './payment-search';
import { detailPut, withoutDetails } from './payment-details';
import { dynamoPaymentGetter, PAYMENTS } from './payment-reads';
import { payableQrCode } from './qrcodes-repository';
import { settledPaymentPut } from './settled-transfers';
import { whileActive, type TransactItem } from './transactions';

/** The Put of a payment's own item (its details apart), with the words it is found by. */
const paymentItemPut = (payment: StoredPayment): TransactItem =>
  listedRecordPut(
    { ...withoutDetails(payment), search: searchTextOf(payment) } as ListedRecord,
    PAYMENTS.key(payment.id),
    PAYMENTS.name,
    listingOf(PAYMENTS, payment),
  );

/** A transaction item of the caller's, named so that the caller can tell why a write failed. */
export interface LabelledItem {
  readonly label: string;
  readonly item: TransactItem;
}

/** The label of a debit the available balance does not cover. */
export const FUNDS = 'funds';
/** The label of a credit to an account that does not exist. */
export const CREDITED_ACCOUNT = 'credited-account';
/** The label of an answer to a payment that no longer awaits one (PENDING, or PROCESSING). */
export const NOT_AWAITING = 'not-awaiting';
/** The label of an answer's audit event: a new item, which never fails its condition. */
const AUDITED = 'audited';
/** The label of a new payment whose id is taken: one whose id follows from a network credit's end-to-end id. */
export const PAYMENT_EXISTS = 'payment-exists';

export type PaymentWriteOutcome = LedgerWriteOutcome<string>;

/**
 * The update of an awaiting payment to what its answer leaves it: every field of the payment item set
 * (its list keys follow its new updated_at), out of the index of due work (its work is done), holding
 * only while the stored payment still awaits it: PENDING (OUTBOUND) or PROCESSING (INBOUND). An update,
 * not a Put: its details stay where they are (a payment written before details keeps them on its item).
 */
function answeredUpdate(payment: StoredPayment): TransactItem {
  const { Put } = paymentItemPut(payment);
  const fields = Object.entries(Put!.Item!).filter(([name]) => name !== 'pk' && name !== 'sk');
  return {
    Update: {
      TableName: tableName(),
      Key: PAYMENTS.key(payment.id),
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :f${i}`).join(', ')} REMOVE ${DUE_ATTRIBUTES.map((_, i) => `#d${i}`).join(', ')}`,
      ConditionExpression: '#status IN (:pending, :processing)',
      ExpressionAttributeNames: {
        ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
        ...Object.fromEntries(DUE_ATTRIBUTES.map((name, i) => [`#d${i}`, name])),
        '#status': 'status',
      },
      ExpressionAttributeValues: {
        ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
        ':pending': 'PENDING',
        ':processing': 'PROCESSING',
      },
    },
  };
}

/**
 * The Put of a new payment (without its details, put beside it); one that awaits its answer is also
 * put in the index of due work, at the time its job is due, so a job lost after this commit is run
 * again by the sweeper.
 */
function newPaymentPut(payment: StoredPayment, workDueAt: PaymentWrite['workDueAt']): TransactItem {
  const put = paymentItemPut(payment);
  if (payment.status !== 'PENDING' && payment.status !== 'PROCESSING') return put;
  const dueAt = workDueAt?.[payment.id];
  if (!dueAt) throw new Error(`Payment ${payment.id} is ${payment.status} without the time its work is due`);
  return { Put: { ...put.Put!, Item: { ...put.Put!.Item, ...dueKeys(payment.id, dueAt) } } };
}

/**
 * Writes `write` atomically with the caller's `items` (placed first), on its accounts' ledger days
 * (shared/data/ledger-transaction.ts). Answers which labelled items failed their condition when the
 * transaction was refused for conditions only; throws otherwise. Each move must belong to one of the
 * payments, new (its movement dated by its creation) or answered (a release of its hold or an
 * approved credit, dated by the answer), and a transaction touches an item once: one move per
 * account, and each event its own item.
 */
export function writePayment(write: PaymentWrite, items: readonly LabelledItem[] = []): Promise<PaymentWriteOutcome> {
  const answered = write.answered ?? [];
  return writeWithLedgerDays<string>((transaction) => {
    for (const { label, item } of items) transaction.condition(label, item);
    for (const payment of answered) transaction.condition(NOT_AWAITING, answeredUpdate(payment));
    for (const payment of write.payments) {
      transaction.condition(PAYMENT_EXISTS, newPaymentPut(payment, write.workDueAt));
    }
    for (const move of write.moves) {
      const created = write.payments.find((p) => p.id === move.paymentId);
      const answer = answered.find((p) => p.id === move.paymentId);
      if (!created && !answer) throw new Error(`Balance move of ${move.accountId} names no payment of the write`);
      transaction.move(move.amountCents < 0 ? FUNDS : CREDITED_ACCOUNT, move.accountId, (seen) =>
        created
          ? balanceMoveItems(move, created.created_at, 'PAYMENT', seen)
          : // An answered OUTBOUND payment's move gives its hold back; an answered INBOUND one's is its credit.
            balanceMoveItems(
              move,
              answer!.updated_at,
              answer!.direction === 'OUTBOUND' ? 'HOLD_RELEASE' : 'PAYMENT',
              seen,
            ),
      );
    }
    transaction.add(
      ...write.payments.map(detailPut),
      ...eventsPut(write.events),
      // What the bank's settlement file of the day should list (docs/reconciliation.md, "Against the bank").
      ...[...write.payments, ...answered].flatMap(settledPaymentPut),
      // A payment and the payee's record of it may share a counter shard: their increments are added up.
      ...counterIncrementsOf(
        write.payments.map((payment) => ({
          partitions: listPartitions(payment, listingOf(PAYMENTS, payment)),
          itemId: payment.id,
        })),
      ),
      // The daily totals (GET /v1/payment-totals) move with the payments they count.
      ...dayTotalsUpdates(write.payments, answered),
    );
  });
}

/** Labels of the items the stores below add to a payment's transaction. */
const RESOLUTION = 'resolution';
const PAYER = 'payer';
const PAYEE = 'payee';
const QR_CODE = 'qr-code';
const KEY = 'key';

export const dynamoPaymentStore: ResolutionPaymentStore = {
  ...dynamoPaymentGetter,

  async insert(write: ResolutionPaymentWrite): Promise<ResolutionPaymentResult> {
    const payment = write.payments[0]!;
    const paymentId = payment.id;
    // The client's payment is audited in its own transaction: no call more on the way to its answer.
    const audited = auditItems({
      action: 'payment.created',
      resourceType: 'PAYMENT',
      resourceId: paymentId,
      after: payment,
      at: payment.created_at,
    }).map((item) => ({ label: AUDITED, item }));
    const outcome = await writePayment(write, [
      {
        // The resolution is the payment's guard: it takes the id of the one payment made with it. One
        // the payment made (a recipient's key resolved again) is stored here, used by it already,
        // unless a payment under the same Idempotency-Key stored it first.
        label: RESOLUTION,
        item: write.newResolution
          ? {
              Put: {
                ...resolutionPut({ ...write.newResolution, payment_id: paymentId }),
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            }
          : {
              Update: {
                TableName: tableName(),
                Key: itemKeys.resolution(write.resolutionId),
                UpdateExpression: 'SET payment_id = :payment',
                ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(payment_id)',
                ExpressionAttributeValues: { ':payment': paymentId },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
      },
      { label: PAYER, item: whileActive(itemKeys.customer(write.payerCustomerId)) },
      ...(write.payeeCustomerId ? [{ label: PAYEE, item: whileActive(itemKeys.customer(write.payeeCustomerId)) }] : []),
      ...audited,
    ]);
    if (outcome.written) return { written: true };
    const { failed } = outcome;
    // Checked in the order a participant would: the resolution, the payer, the funds, then the payee.
    if (failed.has(RESOLUTION)) {
      const paymentId = failed.get(RESOLUTION)?.['payment_id'];
      if (typeof paymentId !== 'string') throw new Error(`Resolution ${write.resolutionId} does not exist`);
      return { written: false, reason: 'resolution_used', paymentId };
    }
    if (failed.has(PAYER)) return { written: false, reason: 'payer_inactive' };
    if (failed.has(FUNDS)) return { written: false, reason: 'insufficient_funds' };
    if (failed.has(PAYEE)) return { written: false, reason: 'payee_inactive' };
    throw new Error(`Payment refused by ${[...failed.keys()].join(', ')}`);
  },
};

/** The credit of an INBOUND payment to the merchant's account, when it is SETTLED. */
const creditOf = (payment: StoredPayment) =>
  payment.status === 'SETTLED'
    ? [{ accountId: payment.account_id, paymentId: payment.id, amountCents: payment.amount_cents }]
    : [];

/** Writes an inbound payment's decision (shared/domain/receive-payment.ts). */
async function decideInbound({
  answered,
  code,
  events,
}: Parameters<InboundPaymentStore['decide']>[0]): Promise<DecisionOutcome> {
  const outcome = await writePayment(
    { payments: [], answered: [answered], moves: creditOf(answered), events },
    code ? [{ label: QR_CODE, item: payableQrCode(code, answered.updated_at) }] : [],
  );
  if (outcome.written) return 'written';
  if (outcome.failed.has(NOT_AWAITING)) return 'decided_already';
  if (outcome.failed.has(QR_CODE)) return 'code_not_payable';
  throw new Error(`Decision refused by ${[...outcome.failed.keys()].join(', ')}`);
}

export const dynamoSettlementStore: SettlementStore = {
  get: dynamoPaymentGetter.get,

  async answer(write: PaymentWrite): Promise<boolean> {
    // An operator's answer (npm run ops:transfer-status) is audited in its own transaction; the
    // network's, and every job's, has no actor and writes no event.
    const audited = (write.answered ?? []).flatMap((payment) =>
      operatorAuditItems({
        action: 'payment.answered',
        resourceType: 'PAYMENT',
        resourceId: payment.id,
        before: { status: 'PENDING' },
        after: payment,
        at: payment.updated_at,
      }).map((item) => ({ label: AUDITED, item })),
    );
    const outcome = await writePayment(write, audited);
    if (outcome.written) return true;
    // Another job answered it first; a release is a credit, which holds on an existing account.
    if (outcome.failed.has(NOT_AWAITING)) return false;
    throw new Error(`Settlement refused by ${[...outcome.failed.keys()].join(', ')}`);
  },

  decide: decideInbound,

  markInReview: (reviewed) => writeReview(paymentItemPut(reviewed).Put!),
};

export const dynamoInboundPaymentStore: InboundPaymentStore = {
  get: dynamoPaymentGetter.get,

  async receive({ payment, workDueAt, keyId, code, events }) {
    const due = workDueAt ? { workDueAt: { [payment.id]: workDueAt } } : {};
    const outcome = await writePayment({ payments: [payment], moves: creditOf(payment), events, ...due }, [
      // A code paid now (SETTLED) changes as it is paid; one whose payment awaits approval only has to be ACTIVE.
      ...(code
        ? [
            {
              label: QR_CODE,
              item:
                payment.status === 'SETTLED'
                  ? payableQrCode(code, payment.created_at)
                  : whileActive(itemKeys.qrCode(code.id)),
            },
          ]
        : []),
      { label: PAYEE, item: whileActive(itemKeys.customer(payment.customer_id)) },
      { label: KEY, item: whileActive(itemKeys.brebKey(keyId)) },
    ]);
    if (outcome.written) return { written: true };
    // A retry or a racing duplicate of a network credit: the first one's payment stands.
    if (outcome.failed.has(PAYMENT_EXISTS)) return { written: false, reason: 'already_received' };
    if (outcome.failed.has(QR_CODE)) return { written: false, reason: 'code_not_payable' };
    if (outcome.failed.has(PAYEE)) return { written: false, reason: 'customer_inactive' };
    if (outcome.failed.has(KEY)) return { written: false, reason: 'key_inactive' };
    throw new Error(`Inbound payment refused by ${[...outcome.failed.keys()].join(', ')}`);
  },

  decide: decideInbound,
};
