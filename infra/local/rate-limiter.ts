/**
 * The stage throttling of the local server, as API Gateway applies an HTTP API stage's `throttling`
 * (infra/stages.ts): one token bucket for the whole stage, shared by every caller, with the steady
 * rate and burst of the settings. API Gateway does not tell tenants apart here, so neither does the
 * local server: one client's burst spends every client's tokens. Each tenant's own limit is enforced
 * by the functions (shared/http/tenant-rate-limit.ts), locally as deployed.
 */
export interface ThrottlingSettings {
  /** Tokens added per second (steady requests per second). */
  readonly rateLimit: number;
  /** Bucket size: requests that may arrive at once after a quiet spell. */
  readonly burstLimit: number;
}

export type ThrottleDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

export class StageThrottle {
  private tokens: number;
  private refilledAt: number;

  constructor(
    readonly settings: ThrottlingSettings,
    private readonly nowMs: () => number = Date.now,
  ) {
    if (!(settings.rateLimit > 0) || !(settings.burstLimit >= 1)) {
      throw new Error(`Throttling needs rateLimit > 0 and burstLimit >= 1, not ${JSON.stringify(settings)}`);
    }
    this.tokens = settings.burstLimit;
    this.refilledAt = nowMs();
  }

  /** Takes one token of the stage's bucket, or says how long until one is there. */
  take(): ThrottleDecision {
    const now = this.nowMs();
    const { rateLimit, burstLimit } = this.settings;
    this.tokens = Math.min(burstLimit, this.tokens + ((now - this.refilledAt) / 1000) * rateLimit);
    this.refilledAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { allowed: true };
    }
    // Retry-After is in whole seconds (RFC 9110): never 0, or clients would retry at once.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / rateLimit)) };
  }
}
