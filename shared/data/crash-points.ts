/**
 * Crash points: places between two commits where the local runtime's fault switch (FAULT_CRASH_AFTER,
 * infra/local/faults.ts) may kill the process, so that a test can show the work after them is
 * restarted and ends right. Nothing is installed on AWS, where each is a no-op.
 */

/** Right after the payee's INBOUND payment of a payment between two of our merchants is written. */
export type CrashPoint = 'payee-credit-commit';

// Kept on globalThis: a handler loaded from its own bundle has its own copy of this module.
const INSTALLED = Symbol.for('breb.crashPoints');
type WithHook = typeof globalThis & { [INSTALLED]?: (point: CrashPoint) => void };

/** Makes `hook` what every crash point calls in this process (the local runtime's fault switch). */
export function installCrashPoints(hook: ((point: CrashPoint) => void) | undefined): void {
  (globalThis as WithHook)[INSTALLED] = hook;
}

export function crashPoint(point: CrashPoint): void {
  (globalThis as WithHook)[INSTALLED]?.(point);
}
