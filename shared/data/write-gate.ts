/**
 * A request's writes held until the checks that may refuse it have answered, so that those checks run
 * beside the request's first reads instead of in front of them (one round trip less each on AWS).
 *
 * The tenant's rate counter (shared/http/tenant-rate-limit.ts) and an Idempotency-Key's claim
 * (shared/http/idempotency.ts) are each a write whose answer decides whether the request may do
 * anything. Inside `gatingWrites`, the request's reads go at once; every write that leaves the process
 * (a DynamoDB write, a queue message, a call to the sponsor bank or a webhook receiver) first waits
 * for each check added with `holdWritesUntil`, and throws the refusal of the first that refused. A
 * refused request has then read, never written: its answer is the refusal (the caller awaits the
 * checks before answering, whatever the work did).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** A check's answer: undefined lets the writes through; an error refuses them with itself. */
export type GateVerdict = Promise<Error | undefined>;

interface Gate {
  readonly checks: GateVerdict[];
}

const gates = new AsyncLocalStorage<Gate>();

/**
 * Runs `work` with its writes held until `checks`, and those added to its gate later, let them
 * through; inside another gate, its checks too.
 */
export function gatingWrites<T>(work: () => Promise<T>, checks: readonly GateVerdict[] = []): Promise<T> {
  return gates.run({ checks: [...(gates.getStore()?.checks ?? []), ...checks] }, work);
}

/** Runs `call` outside any gate: its writes go at once (a check's own write, the claim it may undo). */
export const outsideGate = <T>(call: () => T): T => gates.exit(call);

/** Adds a check to the running work's gate: its writes from now on wait for it too. */
export function holdWritesUntil(check: GateVerdict): void {
  const gate = gates.getStore();
  if (!gate) throw new Error('holdWritesUntil outside gatingWrites: nothing would wait for the check');
  gate.checks.push(check);
}

/** The first refusal among the running work's checks, once all have answered; undefined when none refused. */
export async function gateRefusal(): Promise<Error | undefined> {
  const gate = gates.getStore();
  if (!gate) return undefined;
  return (await Promise.all(gate.checks)).find((verdict) => verdict !== undefined);
}

/** Waits for the running work's checks before a write; throws the first refusal. Outside a gate: at once. */
export async function passWriteGate(): Promise<void> {
  const refusal = await gateRefusal();
  if (refusal) throw refusal;
}
