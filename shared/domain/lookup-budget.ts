/**
 * Anti-scanning of the Bre-B directory (docs/keys.md, Anti-scanning), after Pix's DICT: every
 * directory lookup (resolve-key, validate-key) spends a per-tenant budget, a hit a little and a miss
 * much more. A client paying the keys people give it almost always hits; a client walking the dense
 * space of phone numbers, or guessing emails, mostly misses, and runs dry twenty times sooner.
 *
 * The cost is known only once the entry is read, so the lookup is made first and its answer released
 * only if the budget still held something: hits and misses cost the same one write, and a refused
 * lookup stores nothing and tells nothing (the client gets 429 KEY_LOOKUPS_EXHAUSTED, never the
 * answer it was after).
 */
import { RetryLater } from './errors';

export type LookupOutcome = 'hit' | 'miss';

/**
 * DICT's ratio: a miss (404) costs twenty times a hit. 600 units a minute per tenant: 600 hits (ten
 * a second, well over any merchant's payouts) or 30 misses; a scanner finding one key in two gets
 * about 28 identities a minute, where it got the tenant's whole request limit before.
 */
export const LOOKUP_BUDGET = {
  costs: { hit: 1, miss: 20 },
  unitsPerWindow: 600,
  windowSeconds: 60,
} as const;

export type LookupBudgetSettings = typeof LOOKUP_BUDGET;

/**
 * A tenant's lookup budget. `Stored` is what a lookup's answer may be stored as (resolve-key's
 * resolution): written in the same write as the spend, so that it is stored only if the budget held
 * room, and the route pays one round trip for both.
 */
export interface LookupBudget<Stored = never> {
  /**
   * Spends `cost` units of the tenant's budget, counting `outcome` in the metrics, and stores
   * `stored` with it when given: undefined when spent (and stored), or the seconds until the budget
   * refills when it held nothing (nothing stored). Atomic across instances.
   */
  spend(
    tenant: string,
    outcome: LookupOutcome,
    cost: number,
    stored?: Stored,
  ): Promise<{ readonly retryAfterSeconds: number } | undefined>;
  /** Whether the tenant's budget holds anything now, spending nothing: else the seconds until it refills. */
  room(tenant: string): Promise<{ readonly retryAfterSeconds: number } | undefined>;
}

const exhausted = (retryAfterSeconds: number): RetryLater =>
  new RetryLater(
    'KEY_LOOKUPS_EXHAUSTED',
    `This client's directory lookups are spent until the next window (a miss costs ${LOOKUP_BUDGET.costs.miss} hits)`,
    retryAfterSeconds,
  );

/**
 * Refuses a lookup before it is made when the tenant's budget holds nothing: our budget stands in
 * front of the network's directory, so that one client's scan never spends the lookups the network
 * allows all of ours (its 429s). The lookup's cost is still spent once its answer is known.
 */
export async function requireLookupRoom(budget: LookupBudget<unknown>, tenant: string): Promise<void> {
  const refused = await budget.room(tenant);
  if (refused) throw exhausted(refused.retryAfterSeconds);
}

/**
 * Spends the lookup's cost (storing `stored` with it), or refuses its answer: 429
 * KEY_LOOKUPS_EXHAUSTED with Retry-After, nothing stored.
 */
export async function spendLookup<Stored>(
  budget: LookupBudget<Stored>,
  tenant: string,
  outcome: LookupOutcome,
  stored?: Stored,
): Promise<void> {
  const refused = await budget.spend(tenant, outcome, LOOKUP_BUDGET.costs[outcome], stored);
  if (refused) throw exhausted(refused.retryAfterSeconds);
}
