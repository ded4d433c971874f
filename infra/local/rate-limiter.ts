/**
 * Per-client throttling of the local server: a token bucket per client id, with the steady rate and
 * burst of a stage's `throttling` (the settings the stack gives API Gateway, infra/stages.ts).
 */
export interface ThrottlingSettings {
  /** Tokens added per second (steady requests per second). */
  readonly rateLimit: number;
  /** Bucket size: requests that may arrive at once after a quiet spell. */
  readonly burstLimit: number;
}

export type ThrottleDecision =
  { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  refilledAt: number;
}

export class ClientRateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    readonly settings: ThrottlingSettings,
    private readonly nowMs: () => number = Date.now,
  ) {
    if (!(settings.rateLimit > 0) || !(settings.burstLimit >= 1)) {
      throw new Error(`Throttling needs rateLimit > 0 and burstLimit >= 1, not ${JSON.stringify(settings)}`);
    }
  }

  /** Takes one token of the client's bucket, or says how long until one is there. */
  take(clientId: string): ThrottleDecision {
    const now = this.nowMs();
    const { rateLimit, burstLimit } = this.settings;
    const bucket = this.buckets.get(clientId) ?? { tokens: burstLimit, refilledAt: now };
    bucket.tokens = Math.min(burstLimit, bucket.tokens + ((now - bucket.refilledAt) / 1000) * rateLimit);
    bucket.refilledAt = now;
    this.buckets.set(clientId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    // Retry-After is in whole seconds (RFC 9110): never 0, or clients would retry at once.
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rateLimit)) };
  }
}
