/**
 * The settlement queue of this process (the SettlementQueue port, shared/domain/settlement.ts). The
 * local runtime installs its timer queue here (infra/local/settlement-queue.ts); on AWS it will be
 * SQS with a delay, and until then a function settles in its request (functions/settle-payment.ts).
 * Kept on globalThis because a handler may be loaded from its own bundle, with its own copy of this
 * module, and must still find the runtime's queue.
 */
import type { SettlementQueue } from '../domain/settlement';

const INSTALLED = Symbol.for('breb.settlementQueue');

type WithQueue = typeof globalThis & { [INSTALLED]?: SettlementQueue };

/** Makes `queue` the process's settlement queue (undefined removes it, when the runtime stops). */
export function installSettlementQueue(queue: SettlementQueue | undefined): void {
  (globalThis as WithQueue)[INSTALLED] = queue;
}

/** The installed queue, or undefined in a process that has none (a Lambda function, until SQS). */
export const installedSettlementQueue = (): SettlementQueue | undefined => (globalThis as WithQueue)[INSTALLED];
