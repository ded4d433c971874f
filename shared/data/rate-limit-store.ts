/**
 * The per-tenant rate limit's counters (shared/http/tenant-rate-limit.ts), a person's inside it, and
 * the directory's lookup budget (lookup-budget-store.ts): one item per counter and
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

/**
 * Adds `cost` to the counter of `window` unless it already holds `limit` (the last cost taken may
 * pass the limit: a window with room pays the whole cost); false when the window is already full.
 */
export async function addWithinLimit(counter: string, window: RateWindow, cost: number): Promise<boolean> {
  try {
    await dynamo().send(new UpdateCommand(windowUpdate(counter, window, cost)));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The conditional update that adds `cost` to the counter of `window` unless it is full. */
export const windowUpdate = (counter: string, window: RateWindow, cost: number) => ({
  TableName: tableName(),
  Key: itemKeys.rateWindow(counter, window.index),
  // Only the attributes of RATE_WINDOW_ATTRIBUTES: the functions' IAM grant allows no other.
  UpdateExpression: 'SET entity = :entity, expires_at = :expires ADD requests :cost',
  ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
  ExpressionAttributeValues: {
    ':entity': 'RATE_WINDOW',
    ':expires': Math.ceil(window.endsAtMs / 1000) + KEEP_AFTER_WINDOW_SECONDS,
    ':cost': cost,
    ':limit': window.limit,
  },
});

/** The DynamoDB side of shared/http/tenant-rate-limit.ts's TenantRateLimitStore port. */
export const dynamoTenantRateLimitStore = {
  /**
   * Counts one request in `window` of `counter` (a tenant, or a person within it: rateCounter);
   * false when the window is already full.
   */
  take(counter: string, window: RateWindow): Promise<boolean> {
    return addWithinLimit(counter, window, 1);
  },
};

/**
 * The counters' names: a tenant's own, a person's inside it, and the tenant's directory lookups.
 * Client ids and Cognito subs hold no `|`, so no two of them name one counter.
 */
export const rateCounter = {
  tenant: (tenant: string): string => tenant,
  person: (tenant: string, subject: string): string => `${tenant}|person|${subject}`,
  lookups: (tenant: string): string => `${tenant}|lookups`,
};
