/**
 * The wait before each retry of a delivery (docs/webhooks.md, "Delivery"): exponential from
 * WEBHOOK_RETRY_BASE_MS (a minute by default), capped at a day, each drawn between half and all of
 * its ceiling. Twelve retries then span about one to two and a half days, so a receiver down for a
 * maintenance window or a weekend night still gets every event; the half that is drawn spreads the
 * deliveries that failed together (one receiver's outage), and the half that is not keeps each wait
 * at least as long as the whole wait before it (below the cap): waits never shrink.
 */

/** The part of the delivery settings the backoff reads (WEBHOOK_RETRY_BASE_MS). */
export interface RetrySettings {
  readonly retryBaseMs: number;
}

/** The longest any retry waits, whatever the base: a day. */
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60 * 1000;

/** The longest wait before retry number `n` (1-based): base × 2^(n-1), at most MAX_RETRY_DELAY_MS. */
export const retryCeilingMs = (settings: RetrySettings, n: number): number =>
  Math.min(MAX_RETRY_DELAY_MS, settings.retryBaseMs * 2 ** (n - 1));

/**
 * The wait before retry number `n`: between half and all of its ceiling (`random` is in [0, 1), as
 * Math.random): half fixed, half drawn.
 */
export const retryDelayMs = (settings: RetrySettings, n: number, random: () => number): number => {
  const ceiling = retryCeilingMs(settings, n);
  return Math.floor(ceiling / 2 + random() * (ceiling / 2));
};
