/**
 * The wait before each retry of a delivery (docs/webhooks.md, "Delivery"): exponential, with full
 * jitter (a random wait from 0 to the exponential ceiling), capped.
 */

/** The part of the delivery settings the backoff reads (WEBHOOK_RETRY_BASE_MS). */
export interface RetrySettings {
  readonly retryBaseMs: number;
}

/** The longest any retry waits, whatever the base: a receiver down for hours gets a try every hour. */
export const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** The longest wait before retry number `n` (1-based): base × 2^(n-1), at most MAX_RETRY_DELAY_MS. */
export const retryCeilingMs = (settings: RetrySettings, n: number): number =>
  Math.min(MAX_RETRY_DELAY_MS, settings.retryBaseMs * 2 ** (n - 1));

/**
 * The wait before retry number `n`: full jitter, anywhere from 0 to its ceiling (`random` is in
 * [0, 1), as Math.random), so that the deliveries that failed together (one receiver's outage) come
 * back spread over the window instead of all at once.
 */
export const retryDelayMs = (settings: RetrySettings, n: number, random: () => number): number =>
  Math.floor(random() * retryCeilingMs(settings, n));
