/**
 * Idempotency records in the table, expiring through its TTL attribute after 24 hours. The store
 * keeps a request's answer as it is given: shared/http/idempotency.ts decides what to keep and when.
 *
 * A record is written one of two ways: claimed before the work (IN_PROGRESS, then COMPLETED with the
 * answer, or deleted after a failure), or committed once with the answer, in the work's own
 * transaction when it has one (shared/data/held-transaction.ts). Either write takes the key only
 * while no live record holds it.
 */
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type PutCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo, tableName } from './client';
import { holdingTransaction, type HeldTransaction } from './held-transaction';
import { itemKeys } from './item-keys';
import { failedConditions, transactWrite } from './transactions';

/**
 * A key's answer is kept 24 hours, as the contract promises. An answer may name a person (a
 * resolution's owner, a payment's counterparty): 24 hours is within PII_RETENTION_DAYS, at least a
 * day (shared/runtime/config.ts), so no record outlives the retention of personal data.
 */
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

export type CommitResult<Answer> =
  | { readonly outcome: 'committed' }
  /** A live record holds the key: another request's (or this one's, committed by an earlier attempt). */
  | { readonly outcome: 'taken'; readonly record: IdempotencyRecord<Answer> }
  /** The work's transaction failed its own conditions: nothing was written, the key is free. */
  | { readonly outcome: 'refused' };

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

/**
 * The Put of a key's record, taking the key only when it is free, expired (TTL deletes lazily), or
 * abandoned by a run of the same request that died holding its claim.
 */
function recordPut(
  tenant: string,
  key: string,
  requestHash: string,
  nowMs: number,
  state: { readonly status: 'IN_PROGRESS' } | { readonly status: 'COMPLETED'; readonly response: unknown },
): PutCommandInput {
  return {
    TableName: tableName(),
    Item: {
      ...itemKeys.idempotency(tenant, key),
      entity: 'IDEMPOTENCY',
      request_hash: requestHash,
      ...state,
      ...(state.status === 'IN_PROGRESS' ? { locked_until: nowMs + IDEMPOTENCY_LOCK_MS } : {}),
      expires_at: Math.floor(nowMs / 1000) + IDEMPOTENCY_TTL_SECONDS,
    },
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
  };
}

/** The record that held the key against a Put, from its old image, else read (undefined: gone since). */
async function holderOf<Answer>(
  tenant: string,
  key: string,
  old: Record<string, unknown> | undefined,
  nowMs: number,
): Promise<IdempotencyRecord<Answer> | undefined> {
  return old ? toRecord(old as unknown as RecordItem<Answer>) : dynamoIdempotencyStore.find<Answer>(tenant, key, nowMs);
}

export const dynamoIdempotencyStore = {
  /** Claims the key for this request unless a live record holds it (atomic). */
  async begin<Answer>(tenant: string, key: string, requestHash: string, nowMs: number): Promise<BeginResult<Answer>> {
    try {
      await dynamo().send(new PutCommand(recordPut(tenant, key, requestHash, nowMs, { status: 'IN_PROGRESS' })));
      return { started: true };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const held = await holderOf<Answer>(tenant, key, error.Item && unmarshall(error.Item), nowMs);
      // The holder went away between the two calls (released after a failure): claim again.
      return held
        ? { started: false, record: held }
        : dynamoIdempotencyStore.begin<Answer>(tenant, key, requestHash, nowMs);
    }
  },

  /** Runs `work`, holding back the one transaction it makes, for `commit`. */
  holding: holdingTransaction,

  /**
   * Writes the key's record, COMPLETED with `answer`, unless a live record holds the key: in one
   * transaction with the work's held `transaction` when it made one (both or neither), else alone.
   */
  async commit<Answer>(
    tenant: string,
    key: string,
    requestHash: string,
    answer: Answer,
    nowMs: number,
    transaction?: HeldTransaction,
  ): Promise<CommitResult<Answer>> {
    const record = recordPut(tenant, key, requestHash, nowMs, { status: 'COMPLETED', response: answer });
    let old: Record<string, unknown> | undefined;
    try {
      if (transaction) await transactWrite({ TransactItems: [{ Put: record }, ...transaction] });
      else await dynamo().send(new PutCommand(record));
      return { outcome: 'committed' };
    } catch (error) {
      if (transaction) {
        // The record is the transaction's first item: when it failed, the key's holder answers.
        const failed = failedConditions(error);
        if (!failed) throw error;
        if (!failed.has(0)) return { outcome: 'refused' };
        old = failed.get(0);
      } else {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
        old = error.Item && unmarshall(error.Item);
      }
    }
    const held = await holderOf<Answer>(tenant, key, old, nowMs);
    return held
      ? { outcome: 'taken', record: held }
      : dynamoIdempotencyStore.commit(tenant, key, requestHash, answer, nowMs, transaction);
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
