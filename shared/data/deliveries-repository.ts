/**
 * Webhook deliveries in DynamoDB (docs/data-model.md, DELIVERY): one item per (event, webhook), listed
 * under its webhook (the scope `WEBHOOK#<id>` of the tenant's DELIVERY collection), with its attempts
 * in the item. Every change holds only while the delivery is as it was read, so two senders never
 * record the same attempt twice. Deliveries have no TTL: their lists' counters would not see it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttemptRecord, DeliveryListFilters, DeliveryStore, StoredDelivery } from '../domain/deliveries';
import type { DomainEvent } from '../domain/events';
import type { PageRequest, PageUnder } from '../domain/lists';
import { dynamo, tableName } from './client';
import { counterIncrements } from './counters';
import { DUE_ATTRIBUTES, dueKeys } from './due-work';
import { eventsPut } from './events';
import { listedRecordPut, listPartitions } from './inserts';
import { itemKeys, updatedAtKeys, withoutStorageAttributes } from './item-keys';
import { listedStore, listingOf, recordGetter, type ListedKind } from './listed-records';
import { listRecordsUnder } from './pagination';
import { writeUnless } from './transactions';

const webhookScope = (webhookId: string): string => `WEBHOOK#${webhookId}`;

const DELIVERIES: ListedKind<StoredDelivery, DeliveryListFilters> = {
  name: 'DELIVERY',
  key: itemKeys.delivery,
  scopeOf: (delivery) => webhookScope(delivery.webhook_id),
  where: (filters) => ({ scope: webhookScope(filters.webhookId) }),
  // The sender reads the delivery its previous attempt, or a redelivery, just wrote.
  consistentGet: true,
};

/**
 * Where a delivery stands in the index of due work (shared/data/due-work.ts): due at its next attempt
 * while PENDING, out of it once done. Written by every change of the delivery, so an attempt whose
 * message was lost (a crash or a failed SendMessage after the change) is found by the sweeper.
 */
const dueOf = (delivery: Pick<StoredDelivery, 'id' | 'status' | 'next_attempt_at'>) =>
  delivery.status === 'PENDING' && delivery.next_attempt_at !== undefined
    ? { sets: dueKeys(delivery.id, delivery.next_attempt_at), removes: [] }
    : { sets: {}, removes: [...DUE_ATTRIBUTES] };

/** The delivery's Put (absent only, due at its first attempt) and its lists' counters. */
const deliveryInsert = (delivery: StoredDelivery) => {
  const listing = listingOf(DELIVERIES, delivery);
  const { Put } = listedRecordPut(delivery, itemKeys.delivery(delivery.id), DELIVERIES.name, listing);
  return {
    put: { Put: { ...Put!, Item: { ...Put!.Item, ...dueOf(delivery).sets } } },
    counters: counterIncrements(listPartitions(delivery, listing), delivery.id),
  };
};

/**
 * An update of the delivery `seen`, held to its state then: still `status` with as many attempts.
 * Answers the delivery after, or undefined when it had changed.
 */
async function updateSeen(
  seen: StoredDelivery,
  sets: Record<string, unknown>,
  removes: readonly string[],
  now: string,
): Promise<StoredDelivery | undefined> {
  const fields = Object.entries({ ...sets, updated_at: now, ...updatedAtKeys(seen.id, now, true) });
  const expression = [
    `SET ${fields.map(([name], i) => (name === 'attempts' ? `#f${i} = list_append(#f${i}, :f${i})` : `#f${i} = :f${i}`)).join(', ')}`,
    ...(removes.length ? [`REMOVE ${removes.map((_, i) => `#r${i}`).join(', ')}`] : []),
  ].join(' ');
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: itemKeys.delivery(seen.id),
        UpdateExpression: expression,
        ConditionExpression: '#status = :seenStatus AND size(#attempts) = :seenAttempts',
        ExpressionAttributeNames: {
          ...Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name])),
          ...Object.fromEntries(removes.map((name, i) => [`#r${i}`, name])),
          '#status': 'status',
          '#attempts': 'attempts',
        },
        ExpressionAttributeValues: {
          ...Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value])),
          ':seenStatus': seen.status,
          ':seenAttempts': seen.attempts.length,
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return withoutStorageAttributes<StoredDelivery>(Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}

/** A delivery's get and writes, without the list reads: what every function but the deliveries' list takes. */
export const dynamoDeliveryWrites: Omit<DeliveryStore, 'list' | 'walk' | 'listUnderWebhook'> = {
  ...recordGetter(DELIVERIES),

  async createIfAbsent(delivery: StoredDelivery): Promise<boolean> {
    const { put, counters } = deliveryInsert(delivery);
    const refusal = await writeUnless([{ item: put, refused: () => 'exists' as const }], counters);
    return refusal === undefined;
  },

  async createTest(event: DomainEvent, delivery: StoredDelivery): Promise<void> {
    const { put, counters } = deliveryInsert(delivery);
    // Fresh ids: the Puts' conditions cannot fail.
    await writeUnless([], [...eventsPut([event]), put, ...counters]);
  },

  async recordAttempt(seen: StoredDelivery, record: AttemptRecord, now: string): Promise<boolean> {
    const due = dueOf({ id: seen.id, ...record });
    const sets = {
      attempts: [record.attempt],
      status: record.status,
      ...(record.next_attempt_at === undefined ? {} : { next_attempt_at: record.next_attempt_at }),
      ...due.sets,
    };
    const removes = [...(record.next_attempt_at === undefined ? ['next_attempt_at'] : []), ...due.removes];
    return (await updateSeen(seen, sets, removes, now)) !== undefined;
  },

  postpone: async (seen: StoredDelivery, until: string, now: string): Promise<boolean> =>
    (await updateSeen(
      seen,
      { next_attempt_at: until, ...dueOf({ id: seen.id, status: 'PENDING', next_attempt_at: until }).sets },
      [],
      now,
    )) !== undefined,

  reopen: (seen: StoredDelivery, now: string): Promise<StoredDelivery | undefined> =>
    updateSeen(
      seen,
      {
        status: 'PENDING',
        round_start: seen.attempts.length,
        next_attempt_at: now,
        ...dueOf({ id: seen.id, status: 'PENDING', next_attempt_at: now }).sets,
      },
      [],
      now,
    ),
};

/** A page of a webhook's deliveries, read with the webhook's owner. */
const listUnderWebhook = (
  tenant: string,
  webhookId: string,
  request: PageRequest,
): Promise<PageUnder<StoredDelivery>> =>
  listRecordsUnder<StoredDelivery>({
    tenant,
    collection: DELIVERIES.name,
    ...DELIVERIES.where({ webhookId }),
    request,
    parent: { key: itemKeys.webhook(webhookId), tenant },
  });

export const dynamoDeliveryStore: DeliveryStore = /* @__PURE__ */ listedStore(DELIVERIES, dynamoDeliveryWrites, {
  listUnderWebhook,
});
