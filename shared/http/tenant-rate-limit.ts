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
 * A counter that cannot be written (DynamoDB failing, throttled, or slow past the client's attempts)
 * never fails the request: it is let through, with a warning in the log and a metric.
 */
import type { MiddlewareObj } from '@middy/core';
import type { RateWindow } from '../data/rate-limit-store';
import { MetricUnit } from '../observability/emf-metrics';
import { RATE_LIMIT_UNAVAILABLE_METRIC } from '../observability/metric-names';
import { metrics } from '../observability/telemetry';
import { readTenantRateLimit, type TenantRateLimitSettings } from '../runtime/config';
import { logger } from './logger';
import type { ApiContext, ApiEvent } from './middlewares';
import { RetryLater, type HttpResponse } from './responses';

export { RATE_LIMIT_UNAVAILABLE_METRIC };

export interface TenantRateLimitStore {
  /**
   * Counts one request of the tenant in the window, unless the window already holds `limit` of them
   * (atomically, whatever runs at the same time): true when counted, false when the window is full.
   */
  take(tenant: string, window: RateWindow): Promise<boolean>;
}

/** The window `nowMs` falls in: windows of one length are numbered alike by every instance. */
export function rateWindowOf(settings: TenantRateLimitSettings, nowMs: number): RateWindow {
  const lengthMs = (1000 * settings.burst) / settings.requestsPerSecond;
  const index = Math.floor(nowMs / lengthMs);
  return { index, limit: settings.burst, endsAtMs: (index + 1) * lengthMs };
}

/**
 * The limit of TENANT_RATE_LIMIT (none when unset). Runs after authContext, which names the tenant,
 * and before any of the request's own work.
 */
export function tenantRateLimit(store: TenantRateLimitStore): MiddlewareObj<ApiEvent, HttpResponse, Error, ApiContext> {
  // A function's environment does not change: read once, on the first request.
  let configured: { readonly settings: TenantRateLimitSettings | undefined } | undefined;
  return {
    before: async (request) => {
      const { settings } = (configured ??= { settings: readTenantRateLimit() });
      if (!settings) return;
      const { tenant } = request.context.auth;
      const now = Date.now();
      const window = rateWindowOf(settings, now);
      let counted: boolean;
      try {
        counted = await store.take(tenant, window);
      } catch (error) {
        // Failing open: an unwritable counter would otherwise refuse every tenant's every request.
        logger.warn('tenant rate limit unavailable; request let through', {
          tenant,
          error_name: (error as Error).name,
          error_code: (error as { code?: string }).code,
        });
        metrics.addMetric(RATE_LIMIT_UNAVAILABLE_METRIC, MetricUnit.Count, 1);
        return;
      }
      if (!counted) {
        throw new RetryLater(
          'RATE_LIMITED',
          `This client may send ${settings.requestsPerSecond} requests per second, ${settings.burst} at once; slow down`,
          Math.max(1, Math.ceil((window.endsAtMs - now) / 1000)),
        );
      }
    },
  };
}
