/**
 * A request's one transaction, held back until its answer is known, so that both commit together
 * (shared/http/idempotency.ts writes an Idempotency-Key's record in the work's own transaction).
 *
 * Inside `holdingTransaction`, transactWrite (shared/data/transactions.ts) keeps its items here
 * instead of sending them, and the work goes on as if they were committed. That is only sound for work
 * whose transaction is its last step: a later read would not see it, a later write or message would
 * happen before it. So once a transaction is held, any other DynamoDB call or queue message of the
 * work throws instead of running (the DynamoDB client and the queues ask `refuseWhileHeld`): a route
 * that declares one transaction but does more fails loudly, never out of order.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** The items of the transaction a work made, not yet sent. */
export type HeldTransaction = NonNullable<TransactWriteCommandInput['TransactItems']>;

interface Hold {
  transaction?: HeldTransaction;
  /** What the work would send once its transaction committed (deferUntilCommitted). */
  readonly afterCommit: (() => Promise<void>)[];
}

const holds = new AsyncLocalStorage<Hold>();

export interface Held<T> {
  readonly result: T;
  /** The transaction the work made, to be committed by the caller; undefined when it made none. */
  readonly transaction?: HeldTransaction;
  /** The sends the work deferred until its transaction commits: the caller runs them once it has. */
  readonly afterCommit: readonly (() => Promise<void>)[];
}

/** Runs `work`, holding back the one transaction it makes. */
export async function holdingTransaction<T>(work: () => Promise<T>): Promise<Held<T>> {
  const hold: Hold = { afterCommit: [] };
  const result = await holds.run(hold, work);
  return { result, ...(hold.transaction ? { transaction: hold.transaction } : {}), afterCommit: hold.afterCommit };
}

/**
 * Defers `send`, a message owed only once the work's transaction committed (an after-commit send,
 * functions/after-commit.ts), until the held transaction does commit: true when it was deferred, false
 * when nothing is held (send it now). A send that may fail without harm is the only kind deferred: the
 * commit put its work in the index of due work, which the sweeper reads.
 */
export function deferUntilCommitted(send: () => Promise<void>): boolean {
  const hold = holds.getStore();
  if (!hold?.transaction) return false;
  hold.afterCommit.push(send);
  return true;
}

/** What a work may not do once its transaction is held. */
export class AfterHeldTransactionError extends Error {
  constructor(what: string) {
    super(`${what} after the request's held transaction: its route does more than one transaction`);
    this.name = 'AfterHeldTransactionError';
  }
}

/** Throws when the running work holds its transaction already: `what` would come out of order. */
export function refuseWhileHeld(what: string): void {
  if (holds.getStore()?.transaction) throw new AfterHeldTransactionError(what);
}

/** Holds `items` when a work is being held (true), else leaves them to be sent now (false). */
export function holdTransaction(items: HeldTransaction): boolean {
  const hold = holds.getStore();
  if (!hold) return false;
  refuseWhileHeld('A second transaction');
  hold.transaction = items;
  return true;
}
