/**
 * The local server's model of the stage's edge (infra/edge-stack.ts: CloudFront's WAF web ACL),
 * applied before the stage's throttling as deployed: each client address has a bucket of its own
 * (the web ACL's per-IP rate rule), and a request to the API's protected paths without a token's
 * shape (`Bearer <JWT>`) is refused here (its tokenless rule), so a tokenless flood, `Authorization: x`
 * included, never spends the stage's one bucket, which every tenant shares. AWS's IP reputation list has no local stand-in.
 */
import { hasBearerJwt, isProtected, type ProtectedPath } from '../edge-rules';
import { StageThrottle, type ThrottleDecision } from './rate-limiter';

export interface EdgeLimits {
  /** The web ACL's rate-based limit: requests one address may send in any 5 minutes. */
  readonly requestsPerIpPer5Minutes: number;
}

/** What the edge decides of a request: on to the stage, or refused, and why. */
export type EdgeDecision =
  | { readonly refused: false }
  | { readonly refused: 'perIpRate'; readonly retryAfterSeconds: number }
  | { readonly refused: 'tokenless' };

/** Addresses tracked at once; past it the oldest bucket goes (a local server sees few). */
const MAX_TRACKED_ADDRESSES = 10_000;
const WINDOW_SECONDS = 300;

export class EdgeGuard {
  private readonly buckets = new Map<string, StageThrottle>();

  constructor(
    private readonly limits: EdgeLimits,
    private readonly protectedPaths: readonly ProtectedPath[],
    private readonly nowMs: () => number = Date.now,
  ) {}

  /**
   * Counts the request against its address, then refuses it when over the rate or tokenless (its
   * Authorization header, as sent, without a token's shape).
   */
  check(address: string, path: string, authorization: string | undefined): EdgeDecision {
    const rate = this.bucketOf(address).take();
    if (!rate.allowed) return { refused: 'perIpRate', retryAfterSeconds: rate.retryAfterSeconds };
    if (!hasBearerJwt(authorization) && isProtected(this.protectedPaths, path)) return { refused: 'tokenless' };
    return { refused: false };
  }

  private bucketOf(address: string): { take(): ThrottleDecision } {
    let bucket = this.buckets.get(address);
    if (!bucket) {
      if (this.buckets.size >= MAX_TRACKED_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value!);
      // The 5-minute allowance, refilled evenly: a burst of all of it, then its average rate.
      const { requestsPerIpPer5Minutes: limit } = this.limits;
      bucket = new StageThrottle({ rateLimit: limit / WINDOW_SECONDS, burstLimit: limit }, this.nowMs);
      this.buckets.set(address, bucket);
    }
    return bucket;
  }
}
