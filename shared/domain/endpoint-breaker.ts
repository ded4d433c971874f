/**
 * A circuit breaker per webhook endpoint (docs/webhooks.md, "Slow receivers"): an endpoint whose last
 * `failures` attempts all failed (an error, a timeout, an answer outside 2xx) is held back for
 * `coolDownMs`, so that its deliveries are made due later instead of each waiting out its timeout
 * beside the other clients' deliveries. After the cool-down one attempt is let through: a success
 * closes the breaker, a failure holds the endpoint back for another cool-down.
 *
 * Its state is the process's (one sender instance's), kept in memory: no write per attempt, and an
 * instance that never saw the endpoint fail tries it, which costs at most `failures` timeouts there.
 */

export interface BreakerSettings {
  /** Failed attempts in a row that hold an endpoint back. */
  readonly failures: number;
  /** How long an endpoint is held back before one attempt is let through. */
  readonly coolDownMs: number;
}

/** Five failures in a row, then 30 s without attempts: a receiver that times out costs 5 timeouts a cool-down. */
export const DEFAULT_BREAKER_SETTINGS: BreakerSettings = { failures: 5, coolDownMs: 30_000 };

/** What the breaker says of an attempt now: made, or held back until `untilMs`. */
export type BreakerAnswer = { readonly attempt: true } | { readonly attempt: false; readonly untilMs: number };

interface EndpointState {
  failures: number;
  /** While held back: when the next attempt may be made. */
  openUntilMs?: number;
  /** The one attempt let through after a cool-down, until its result is noted. */
  trial?: boolean;
}

/** At most this many endpoints kept: the oldest is forgotten first (a forgotten one is tried again). */
const MAX_ENDPOINTS = 10_000;

export class EndpointBreaker {
  private readonly endpoints = new Map<string, EndpointState>();

  constructor(private readonly settings: BreakerSettings) {}

  /** Whether an attempt at `endpoint` may be made at `nowMs`. */
  admit(endpoint: string, nowMs: number): BreakerAnswer {
    const state = this.endpoints.get(endpoint);
    if (state?.openUntilMs === undefined) return { attempt: true };
    if (nowMs < state.openUntilMs) return { attempt: false, untilMs: state.openUntilMs };
    // Cooled down: one attempt goes; the others wait for its result a cool-down more.
    if (state.trial) return { attempt: false, untilMs: nowMs + this.settings.coolDownMs };
    state.trial = true;
    return { attempt: true };
  }

  /** Notes how an attempt at `endpoint`, made at or before `nowMs`, went. */
  note(endpoint: string, succeeded: boolean, nowMs: number): void {
    if (succeeded) {
      this.endpoints.delete(endpoint);
      return;
    }
    const state = this.endpoints.get(endpoint) ?? { failures: 0 };
    state.failures += 1;
    if (state.failures >= this.settings.failures) {
      state.openUntilMs = nowMs + this.settings.coolDownMs;
      state.trial = false;
    }
    this.endpoints.delete(endpoint);
    this.endpoints.set(endpoint, state);
    if (this.endpoints.size > MAX_ENDPOINTS) this.endpoints.delete(this.endpoints.keys().next().value!);
  }
}
