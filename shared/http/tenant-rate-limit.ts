/**
 * The per-tenant rate limit of every function. API Gateway's stage throttling is one token bucket
 * shared by every caller of the stage; this limit is each tenant's own (the token's client id),
 * counted across every function and every instance of them in DynamoDB.
 *
 * Fixed windows: each window of `burst / requestsPerSecond` seconds admits `burst` requests of a
 * tenant, counted by one conditional UpdateItem per request (shared/data/rate-limit-store.ts). A
 * tenant keeps up `requestsPerSecond` on average and sends at most `burst` at once, or twice that
 * across the boundary of two windows. Past the window's count: 429 RATE_LIMITED with Retry-After,
 * the seconds until the next window.
 *
 * A person (a dashboard token) also has a bucket of their own inside the tenant's (personRateLimit).
 *
 * A counter that cannot be written (DynamoDB failing, throttled, or slow past the client's attempts)
 * never fails the request: it is let through, with a warning in the log and a metric. The count runs
 * beside the request's first reads (tenantRateLimit, below).
 */
import type { MiddlewareObj } from '@middy/core';
import { rateCounter, type RateWindow } from '../data/rate-limit-store';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { RATE_LIMIT_UNAVAILABLE_METRIC } from '../observability/metric-names';
import { metrics } from '../observability/telemetry';
import { readTenantRateLimit, type TenantRateLimitSettings } from '../runtime/config';
import { logger } from './logger';
import type { ApiContext, ApiEvent } from './middlewares';
import { RetryLater, type HttpResponse } from './responses';

export { RATE_LIMIT_UNAVAILABLE_METRIC };

export interface TenantRateLimitStore {
  /**
   * Counts one request in the window of `counter` (rateCounter: a tenant's, a person's), unless the
   * window already holds `limit` of them (atomically, whatever runs at the same time): true when
   * counted, false when the window is full.
   */
  take(counter: string, window: RateWindow): Promise<boolean>;
}

/**
 * A person signed in to the dashboard (a token whose `sub` is not its tenant) has a bucket of their
 * own inside the tenant's, half of it: one person, a viewer's script say, cannot spend the limit the
 * platform's machines live on, and a person clicking a tab a second (at most 3 calls a page, locally
 * 5 a second for them) is never refused. A machine client is the tenant, with the whole bucket.
 */
export const PERSON_SHARE_OF_TENANT = 0.5;

export const personRateLimit = (settings: TenantRateLimitSettings): TenantRateLimitSettings => {
  const burst = Math.max(1, Math.floor(settings.burst * PERSON_SHARE_OF_TENANT));
  return { burst, requestsPerSecond: Math.max(1, Math.floor(settings.requestsPerSecond * PERSON_SHARE_OF_TENANT)) };
};

/** The window `nowMs` falls in: windows of one length are numbered alike by every instance. */
export function rateWindowOf(settings: TenantRateLimitSettings, nowMs: number): RateWindow {
  const lengthMs = (1000 * settings.burst) / settings.requestsPerSecond;
  const index = Math.floor(nowMs / lengthMs);
  return { index, limit: settings.burst, endsAtMs: (index + 1) * lengthMs };
}

interface Bucket {
  readonly who: 'person' | 'client';
  readonly counter: string;
  readonly limits: TenantRateLimitSettings;
}

/** A person's bucket first (refused there, nothing of the tenant's is spent), then the tenant's. */
const bucketsOf = (tenant: string, subject: string, settings: TenantRateLimitSettings): Bucket[] => [
  ...(subject === tenant
    ? []
    : [{ who: 'person' as const, counter: rateCounter.person(tenant, subject), limits: personRateLimit(settings) }]),
  { who: 'client', counter: rateCounter.tenant(tenant), limits: settings },
];

/** Counts the request in each bucket in turn; the first that was full, if any. */
async function firstFullBucket(
  store: TenantRateLimitStore,
  buckets: readonly Bucket[],
  now: number,
): Promise<Bucket | undefined> {
  for (const bucket of buckets) {
    if (!(await store.take(bucket.counter, rateWindowOf(bucket.limits, now)))) return bucket;
  }
  return undefined;
}

/**
 * Counts the request: the refusal of its first full bucket, or undefined when it may go. Never
 * rejects: a counter that cannot be written lets the request through (failing open: an unwritable
 * counter would otherwise refuse every tenant's every request).
 */
async function countRequest(
  store: TenantRateLimitStore,
  auth: { readonly tenant: string; readonly subject: string },
  settings: TenantRateLimitSettings,
): Promise<RetryLater | undefined> {
  const now = Date.now();
  let refused: Bucket | undefined;
  try {
    refused = await firstFullBucket(store, bucketsOf(auth.tenant, auth.subject, settings), now);
  } catch (error) {
    logger.warn('tenant rate limit unavailable; request let through', {
      tenant: auth.tenant,
      error_name: (error as Error).name,
      error_code: (error as { code?: string }).code,
    });
    metrics.addMetric(RATE_LIMIT_UNAVAILABLE_METRIC, MetricUnit.Count, 1);
    return undefined;
  }
  if (!refused) return undefined;
  const { who, limits } = refused;
  return new RetryLater(
    'RATE_LIMITED',
    `This ${who} may send ${limits.requestsPerSecond} requests per second, ${limits.burst} at once; slow down`,
    Math.max(1, Math.ceil((rateWindowOf(limits, now).endsAtMs - now) / 1000)),
  );
}

/** The request's count, once it has answered: its refusal, if any. */
const refusalOf = async (context: ApiContext): Promise<Error | undefined> =>
  (await Promise.all(context.writeChecks ?? [])).find((refusal) => refusal !== undefined);

/**
 * The limit of TENANT_RATE_LIMIT (none when unset). Runs after authContext, which names the tenant.
 * The count starts before any of the request's own work but does not hold it up: the work's reads go
 * beside it, and its writes wait for it (`writeChecks`, through shared/data/write-gate.ts), so a
 * request over the limit has read and never written. Its answer waits for the count too: over the
 * limit, whatever the work answered, the answer is 429 RATE_LIMITED with Retry-After.
 */
export function tenantRateLimit(store: TenantRateLimitStore): MiddlewareObj<ApiEvent, HttpResponse, Error, ApiContext> {
  // A function's environment does not change: read once, on the first request.
  let configured: { readonly settings: TenantRateLimitSettings | undefined } | undefined;
  return {
    before: (request) => {
      const { settings } = (configured ??= { settings: readTenantRateLimit() });
      if (settings) request.context.writeChecks = [countRequest(store, request.context.auth, settings)];
    },
    after: async (request) => {
      const refusal = await refusalOf(request.context);
      if (refusal) throw refusal;
    },
    onError: async (request) => {
      const refusal = await refusalOf(request.context);
      if (refusal) request.error = refusal;
    },
  };
}
