/**
 * The per-tenant rate limit's counters (shared/http/tenant-rate-limit.ts): one item per tenant and
 * window, created by the window's first request and deleted by the table's TTL once the window is
 * over. One conditional UpdateItem per request, and no read: DynamoDB applies the increment and its
 * condition atomically, so concurrent requests on any number of instances never count past the limit.
 * A refused request costs the same write (DynamoDB charges a failed condition as a write).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

/** A window's item outlives the window a little, so that no clock skew between instances recreates it. */
const KEEP_AFTER_WINDOW_SECONDS = 60;

/** A fixed window of one tenant's requests, numbered alike by every instance. */
export interface RateWindow {
  /** The window's number since the epoch: every instance numbers the windows alike. */
  readonly index: number;
  /** Requests of one tenant the window admits. */
  readonly limit: number;
  readonly endsAtMs: number;
}

/** The DynamoDB side of shared/http/tenant-rate-limit.ts's TenantRateLimitStore port. */
export const dynamoTenantRateLimitStore = {
  /** Counts one request of `tenant` in `window`; false when the window is already full. */
  async take(tenant: string, window: RateWindow): Promise<boolean> {
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.rateWindow(tenant, window.index),
          // Only the attributes of RATE_WINDOW_ATTRIBUTES: the functions' IAM grant allows no other.
          UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD requests :one',
          ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
          ExpressionAttributeValues: {
            ':entity': 'RATE_WINDOW',
            ':expires': Math.ceil(window.endsAtMs / 1000) + KEEP_AFTER_WINDOW_SECONDS,
            ':one': 1,
            ':limit': window.limit,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },
};
