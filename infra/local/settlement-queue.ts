/**
 * The settlement queue of the local runtime: SQS with a delay, played by the process's timers. Each
 * scheduled payment becomes, after its delay, the message the AWS queue would deliver, handed to the
 * settlement function's own handler (functions/settle-payment.ts). As SQS does, a message whose job
 * failed is delivered again, a few times, then dropped with a log line (SQS would move it to its
 * dead-letter queue); a payment still PENDING is scheduled again by its request's retry.
 */
import type { SettlementMessage, SettlementQueue } from '../../shared/domain/settlement';

export type SettlementHandler = (event: { Records: { body: string }[] }) => Promise<void>;

/** Deliveries of one message before it is given up, as an SQS queue's maxReceiveCount. */
export const LOCAL_SETTLEMENT_ATTEMPTS = 3;

export class LocalSettlementQueue implements SettlementQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(
    private readonly handler: SettlementHandler,
    private readonly log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  ) {}

  async schedule(paymentId: string, delayMs: number): Promise<void> {
    if (this.stopped) throw new Error(`The settlement queue is stopped: payment ${paymentId} not scheduled`);
    this.later(paymentId, delayMs, 1);
  }

  private later(paymentId: string, delayMs: number, attempt: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const message: SettlementMessage = { payment_id: paymentId };
      const run = this.handler({ Records: [{ body: JSON.stringify(message) }] })
        .catch((error: unknown) => {
          if (attempt < LOCAL_SETTLEMENT_ATTEMPTS && !this.stopped) this.later(paymentId, delayMs, attempt + 1);
          else this.log(`Settlement of payment ${paymentId} failed ${attempt} times: given up`, error);
        })
        .finally(() => this.running.delete(run));
      this.running.add(run);
    }, delayMs);
    this.timers.add(timer);
  }

  /** Drops the jobs not yet due (their payments stay PENDING, as after a crash) and waits for the running ones. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.running]);
  }
}

/** The queue running the settlement function's handler from its TypeScript source. */
export async function startLocalSettlementQueue(): Promise<LocalSettlementQueue> {
  // Loaded as the local server loads the route handlers (server.ts), from the function's own file.
  const handlerFile = 'settle-payment';
  const module = (await import(`../../functions/${handlerFile}.ts`)) as { handler: SettlementHandler };
  return new LocalSettlementQueue(module.handler);
}
