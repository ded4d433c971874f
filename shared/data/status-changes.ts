/**
 * A listed record's change of status, which holds only while the record still has the status it was
 * read with (so of two concurrent changes one wins and the other learns it lost). updated_at moves
 * with it, and so do the sort keys that order the record's lists by it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { updatedAtKeys, withoutStorageAttributes, type ItemKey } from './item-keys';

export interface StatusChange {
  readonly from: string;
  readonly to: string;
  readonly now: string;
  /** Another timestamp the change sets to `now` (a payment's settled_at). */
  readonly stamp?: string;
  /** A counter of the record's changes, incremented by this one (a customer's status_version). */
  readonly counter?: string;
}

/** The Update of a status change, for a transaction or on its own (changeStatus). */
export function statusUpdate(key: ItemKey, id: string, { from, to, now, stamp, counter }: StatusChange) {
  const moved = updatedAtKeys(id, now, true);
  const stamped = stamp ? `, ${stamp} = :now` : '';
  const counted = counter ? ` ADD ${counter} :one` : '';
  return {
    TableName: tableName(),
    Key: key,
    UpdateExpression: `SET #status = :to, updated_at = :now${stamped}, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk${counted}`,
    ConditionExpression: '#status = :from',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':to': to,
      ':from': from,
      ':now': now,
      ':gsi2sk': moved.gsi2sk,
      ':gsi4sk': moved.gsi4sk,
      ...(counter ? { ':one': 1 } : {}),
    },
  };
}

/** Applies a status change: the record as stored afterwards, or undefined when another change came first. */
export async function changeStatus<T>(key: ItemKey, id: string, change: StatusChange): Promise<T | undefined> {
  try {
    const { Attributes } = await dynamo().send(
      new UpdateCommand({ ...statusUpdate(key, id, change), ReturnValues: 'ALL_NEW' }),
    );
    return withoutStorageAttributes<T>(Attributes!);
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return undefined;
    throw error;
  }
}
