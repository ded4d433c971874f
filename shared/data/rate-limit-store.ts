/**
 * The per-tenant rate limit's counters (shared/http/tenant-rate-limit.ts), a person's inside it, and
 * the directory's lookup budget (shared/domain/lookup-budget.ts): one item per counter and
 * window, created by the window's first request and deleted by the table's TTL once the window is
 * over. One conditional UpdateItem per request, and no read: DynamoDB applies the increment and its
 * condition atomically, so concurrent requests on any number of instances never count past the limit.
 * A refused request costs the same write (DynamoDB charges a failed condition as a write).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import { resolutionPut } from './directory-repository';
import { failedConditions, transactWrite } from './transactions';
import { itemKeys } from './item-keys';
import { outsideGate } from './write-gate';
import type { StoredResolution } from '../domain/directory';
import type { LookupBudget, LookupBudgetSettings } from '../domain/lookup-budget';
import { MetricUnit } from '../observability/emf-metrics';
import { LOOKUP_METRICS } from '../observability/metric-names';
import { metrics } from '../observability/telemetry';

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
async function addWithinLimit(counter: string, window: RateWindow, cost: number): Promise<boolean> {
  try {
    await dynamo().send(new UpdateCommand(windowUpdate(counter, window, cost)));
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** The conditional update that adds `cost` to the counter of `window` unless it is full. */
const windowUpdate = (counter: string, window: RateWindow, cost: number) => ({
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

/**
 * addWithinLimit, with `resolution` put in the same transaction: stored only when the window had
 * room (a new id: its put never meets an item).
 */
async function addWithinLimitStoring(
  counter: string,
  window: RateWindow,
  cost: number,
  resolution: StoredResolution,
): Promise<boolean> {
  try {
    await transactWrite({
      TransactItems: [{ Update: windowUpdate(counter, window, cost) }, { Put: resolutionPut(resolution) }],
    });
    return true;
  } catch (error) {
    if (failedConditions(error)?.has(0)) return false;
    throw error;
  }
}

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

/**
 * The lookup budget of shared/domain/lookup-budget.ts: fixed windows of the budget's length, each
 * admitting its units, spent by one conditional UpdateItem of the rate counters' kind (so the grant
 * every route's function has on them covers it), in one transaction with the resolution it stores. Hits and misses are counted in the metrics: the
 * stack alarms on the share of misses (infra/constructs/monitoring.ts).
 */
export function dynamoLookupBudget(settings: LookupBudgetSettings): LookupBudget<StoredResolution> {
  const lengthMs = settings.windowSeconds * 1000;
  /**
   * Adds `cost` to the tenant's current window (storing `resolution` with it): undefined when it had
   * room, else the seconds it has left.
   */
  const add = async (tenant: string, cost: number, resolution?: StoredResolution) => {
    const now = Date.now();
    const index = Math.floor(now / lengthMs);
    const window = { index, limit: settings.unitsPerWindow, endsAtMs: (index + 1) * lengthMs };
    const counter = rateCounter.lookups(tenant);
    const added = resolution
      ? await addWithinLimitStoring(counter, window, cost, resolution)
      : await addWithinLimit(counter, window, cost);
    if (added) return undefined;
    return { retryAfterSeconds: Math.max(1, Math.ceil((window.endsAtMs - now) / 1000)) };
  };
  return {
    spend(tenant, outcome, cost, resolution) {
      // The service dimension alone, whichever route looked up: the alarm divides misses by lookups.
      metrics
        .singleMetric()
        .addMetric(outcome === 'hit' ? LOOKUP_METRICS.hits : LOOKUP_METRICS.misses, MetricUnit.Count, 1);
      return add(tenant, cost, resolution);
    },
    // Adding nothing under the same condition: the window's room, told by the one conditional write.
    // It changes no count, so it need not wait for the request's checks (write-gate.ts): it goes
    // beside the request's first reads.
    room: (tenant) => outsideGate(() => add(tenant, 0)),
  };
}
