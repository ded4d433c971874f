/**
 * The settlement queue of this process (the SettlementQueue port, shared/domain/settlement.ts). The
 * local runtime installs its timer queue here (infra/local/settlement-queue.ts); on AWS it will be
 * SQS with a delay (not built yet: docs/payments.md). Kept on globalThis because a handler may be
 * loaded from its own bundle, with its own copy of this module, and must still find the runtime's
 * queue.
 */
import type { SettlementQueue } from '../domain/settlement';

const INSTALLED = Symbol.for('breb.settlementQueue');

type WithQueue = typeof globalThis & { [INSTALLED]?: SettlementQueue };

/** Makes `queue` the process's settlement queue (undefined removes it, when the runtime stops). */
export function installSettlementQueue(queue: SettlementQueue | undefined): void {
  (globalThis as WithQueue)[INSTALLED] = queue;
}

export const processSettlementQueue: SettlementQueue = {
  schedule(paymentId: string, delayMs: number): Promise<void> {
    const queue = (globalThis as WithQueue)[INSTALLED];
    // Failing loudly beats a payment left PENDING for ever: its request's retry schedules it again.
    if (!queue) throw new Error(`No settlement queue in this process to settle payment ${paymentId}`);
    return queue.schedule(paymentId, delayMs);
  },
};
