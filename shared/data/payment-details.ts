/**
 * A payment's details (docs/data-model.md, PAYMENT_DETAIL): the fields fixed at its creation that no
 * list filters by (its counterparty, its resolution, its description), in an item of its own beside
 * the payment item (`PAYMENT#<id>` / `DETAIL`), in no index. The payment item is copied into four list
 * indexes and rewritten when it is answered; with its counterparty (some 330 bytes) it was over 1 KB,
 * two write units in each copy. Without, it is under: a payment writes half as much to its client's
 * payment lists, the table's hottest partitions for a busy client (docs/scale.md).
 *
 * Every read answers the payment whole: a get reads both items at once, a list page its payments'
 * details in one BatchGetItem (ListJoin). Payments written before details kept every field on the
 * payment item: they are read as they are, and an answer (an update of the fields it changes, not a
 * Put) leaves their fields where they are.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredPayment } from '../domain/payments';
import { dynamo, tableName } from './client';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import type { Item, ListJoin } from './list-plans';
import type { TransactItem } from './transactions';

/** The fields a payment's detail item holds: set at its creation, never changed, filtered by no list. */
const DETAIL_FIELDS = ['counterparty', 'resolution_id', 'description', 'credit_fingerprint'] as const;

const DETAIL_ENTITY = 'PAYMENT_DETAIL';

/** The payment item's own fields: the payment without its details. */
export function withoutDetails(payment: StoredPayment): Omit<StoredPayment, (typeof DETAIL_FIELDS)[number]> {
  const listed: Record<string, unknown> = { ...payment };
  for (const field of DETAIL_FIELDS) delete listed[field];
  return listed as Omit<StoredPayment, (typeof DETAIL_FIELDS)[number]>;
}

/** The Put of a new payment's detail item (in the payment's transaction, which fails if the payment exists). */
export function detailPut(payment: StoredPayment): TransactItem {
  const fields = Object.fromEntries(
    DETAIL_FIELDS.flatMap((field) => (field in payment ? [[field, payment[field]]] : [])),
  );
  return {
    Put: {
      TableName: tableName(),
      Item: { ...itemKeys.paymentDetail(payment.id), entity: DETAIL_ENTITY, ...fields },
    },
  };
}

/** The payment item with its details (none on a payment written before them). */
const withDetails = (payment: Item, detail: Item | undefined): Item =>
  detail
    ? { ...payment, ...Object.fromEntries(DETAIL_FIELDS.flatMap((f) => (f in detail ? [[f, detail[f]]] : []))) }
    : payment;

/**
 * A list of payments reads its page's details with it (shared/data/pagination.ts). A payment written
 * with its details (no counterparty of its own: a legacy one keeps them) cannot be answered without.
 */
export const detailJoin: ListJoin = {
  sk: itemKeys.paymentDetail('').sk,
  merge: withDetails,
  needs: (payment) => payment['counterparty'] === undefined,
};

/** A payment whole: its item and its detail item, read at once (two GetItems, no other action needed). */
export async function readPayment(id: string, consistent: boolean): Promise<StoredPayment | undefined> {
  const [payment, detail] = await Promise.all(
    [itemKeys.payment(id), itemKeys.paymentDetail(id)].map((Key) =>
      dynamo().send(new GetCommand({ TableName: tableName(), Key, ConsistentRead: consistent })),
    ),
  );
  return payment!.Item ? withoutStorageAttributes<StoredPayment>(withDetails(payment!.Item, detail!.Item)) : undefined;
}
