/** Idempotency records in the table, expiring through its TTL attribute after 24 hours. */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  IDEMPOTENCY_LOCK_MS,
  IDEMPOTENCY_TTL_SECONDS,
  type BeginResult,
  type IdempotencyRecord,
  type IdempotencyStore,
} from '../http/idempotency';
import type { HttpResponse } from '../http/responses';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

interface RecordItem {
  readonly request_hash: string;
  readonly status: IdempotencyRecord['status'];
  readonly response?: HttpResponse;
  readonly expires_at: number;
}

const toRecord = (item: RecordItem): IdempotencyRecord => ({
  requestHash: item.request_hash,
  status: item.status,
  ...(item.response ? { response: item.response } : {}),
});

export const dynamoIdempotencyStore: IdempotencyStore = {
  async begin(tenant, key, requestHash, nowMs): Promise<BeginResult> {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...itemKeys.idempotency(tenant, key),
            entity: 'IDEMPOTENCY',
            request_hash: requestHash,
            status: 'IN_PROGRESS',
            locked_until: nowMs + IDEMPOTENCY_LOCK_MS,
            expires_at: Math.floor(nowMs / 1000) + IDEMPOTENCY_TTL_SECONDS,
          },
          // Free, expired (TTL deletes lazily), or abandoned by a run that died holding it.
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at < :now OR (#status = :running AND locked_until < :nowMs AND request_hash = :hash)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':now': Math.floor(nowMs / 1000),
            ':nowMs': nowMs,
            ':running': 'IN_PROGRESS',
            ':hash': requestHash,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { started: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const held = error.Item
        ? toRecord(unmarshall(error.Item) as RecordItem)
        : await dynamoIdempotencyStore.find(tenant, key, nowMs);
      // The holder went away between the two calls (released after a failure): claim again.
      return held ? { started: false, record: held } : dynamoIdempotencyStore.begin(tenant, key, requestHash, nowMs);
    }
  },

  async complete(tenant, key, response) {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: itemKeys.idempotency(tenant, key),
        UpdateExpression: 'SET #status = :done, #response = :response REMOVE locked_until',
        ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
        ExpressionAttributeValues: { ':done': 'COMPLETED', ':response': response },
      }),
    );
  },

  async release(tenant, key) {
    await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: itemKeys.idempotency(tenant, key) }));
  },

  async find(tenant, key, nowMs) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.idempotency(tenant, key), ConsistentRead: true }),
    );
    const item = Item as RecordItem | undefined;
    return item && item.expires_at >= Math.floor(nowMs / 1000) ? toRecord(item) : undefined;
  },
};
