/**
 * Idempotency records in the table, expiring through its TTL attribute after 24 hours. The store
 * keeps a request's answer as it is given: shared/http/idempotency.ts decides what to keep and when.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

/** A key's answer is kept 24 hours, as the contract promises. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** How long a running request holds its key before a retry may take over (longer than any function runs). */
export const IDEMPOTENCY_LOCK_MS = 30_000;

/** What is kept under a key: the request's hash and, once it is done, its answer. */
export interface IdempotencyRecord<Answer> {
  readonly requestHash: string;
  readonly status: 'IN_PROGRESS' | 'COMPLETED';
  readonly response?: Answer;
}

export type BeginResult<Answer> =
  { readonly started: true } | { readonly started: false; readonly record: IdempotencyRecord<Answer> };

interface RecordItem<Answer> {
  readonly request_hash: string;
  readonly status: IdempotencyRecord<Answer>['status'];
  readonly response?: Answer;
  readonly expires_at: number;
}

const toRecord = <Answer>(item: RecordItem<Answer>): IdempotencyRecord<Answer> => ({
  requestHash: item.request_hash,
  status: item.status,
  ...(item.response ? { response: item.response } : {}),
});

export const dynamoIdempotencyStore = {
  /** Claims the key for this request unless a live record holds it (atomic). */
  async begin<Answer>(tenant: string, key: string, requestHash: string, nowMs: number): Promise<BeginResult<Answer>> {
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
        ? toRecord(unmarshall(error.Item) as RecordItem<Answer>)
        : await dynamoIdempotencyStore.find<Answer>(tenant, key, nowMs);
      // The holder went away between the two calls (released after a failure): claim again.
      return held
        ? { started: false, record: held }
        : dynamoIdempotencyStore.begin<Answer>(tenant, key, requestHash, nowMs);
    }
  },

  async complete<Answer>(tenant: string, key: string, response: Answer): Promise<void> {
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

  /** Frees the key after a failure, so that a retry runs the request again. */
  async release(tenant: string, key: string): Promise<void> {
    await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: itemKeys.idempotency(tenant, key) }));
  },

  async find<Answer>(tenant: string, key: string, nowMs: number): Promise<IdempotencyRecord<Answer> | undefined> {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.idempotency(tenant, key), ConsistentRead: true }),
    );
    const item = Item as RecordItem<Answer> | undefined;
    return item && item.expires_at >= Math.floor(nowMs / 1000) ? toRecord(item) : undefined;
  },
};
