/**
 * The directory's lookup budget (shared/domain/lookup-budget.ts) in the table: counters of the rate
 * limit's kind (rate-limit-store.ts). Its own module: every route's handler counts requests, and
 * only the routes that look keys up carry the resolution's transaction.
 */
import type { StoredResolution } from '../domain/directory';
import type { LookupBudget, LookupBudgetSettings } from '../domain/lookup-budget';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { LOOKUP_METRICS } from '../observability/metric-names';
import { metrics } from '../observability/telemetry';
import { resolutionPut } from './directory-repository';
import { addWithinLimit, rateCounter, windowUpdate, type RateWindow } from './rate-limit-store';
import { failedConditions, transactWrite } from './transactions';
import { outsideGate } from './write-gate';

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

/**
 * The lookup budget of shared/domain/lookup-budget.ts: fixed windows of the budget's length, each
 * admitting its units, spent by one conditional UpdateItem of the rate counters' kind (so the grant
 * every route's function has on them covers it), in one transaction with the resolution it stores.
 * Hits and misses are counted in the metrics: the stack alarms on the share of misses
 * (infra/constructs/monitoring.ts).
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
