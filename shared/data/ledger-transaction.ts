/**
 * A transaction with balance moves, retried on a stale ledger day (shared/data/movements.ts). Each
 * move holds only while its account is on the ledger day the writer assumes: the move's own day, until
 * a refusal shows another (the first move of a day, which rolls it, is refused once). A transaction
 * refused for that only is built again on the days the refusals showed and written again; one refused
 * for anything else answers which of its conditions failed. Payments (payments-repository.ts) and
 * refunds (refunds-repository.ts) move money through it.
 */
import { moveLegacyBalance } from './balances';
import { staleLedgerDay, type LedgerDaySeen, type MoveItems } from './movements';
import { failedConditions, transactWrite, type TransactItem } from './transactions';

/** DynamoDB's limit of items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * A move is refused for its ledger day at most twice: on its account's first move of a day, and on a
 * roll of another writer between its refusal and its retry (around midnight).
 */
const LEDGER_DAY_ATTEMPTS = 3;

export type LedgerWriteOutcome<L extends string> =
  | { readonly written: true }
  /** The labels of the items whose condition failed, in their order, with their old image when they asked for it. */
  | { readonly written: false; readonly failed: ReadonlyMap<L, Record<string, unknown> | undefined> };

interface HeldMove {
  readonly accountId: string;
  readonly day: string | undefined;
}

/**
 * One attempt's items: first the labelled conditions (a move's account update among them), whose
 * failure answers the write, then the items that can fail only along with one of them (their ids
 * follow from a condition's: movements, events, records a retry meets).
 */
export class LedgerTransaction<L extends string> {
  private readonly labelled: { readonly label: L; readonly item: TransactItem }[] = [];
  private readonly others: TransactItem[] = [];
  /** The moves' updates, by position among the conditions. */
  private readonly held = new Map<number, HeldMove>();

  constructor(private readonly seen: ReadonlyMap<string, LedgerDaySeen>) {}

  /** An item whose failed condition answers the write as `label`. */
  condition(label: L, item: TransactItem): this {
    this.labelled.push({ label, item });
    return this;
  }

  /**
   * A balance move, built on the ledger day its account was last seen on (undefined: the move's own
   * day). Its update is a condition labelled `label`; its movement and seal follow the conditions.
   */
  move(label: L, accountId: string, build: (seen: LedgerDaySeen | undefined) => MoveItems): this {
    const { update, movement, sealed, heldForDay } = build(this.seen.get(accountId));
    this.held.set(this.labelled.length, { accountId, day: heldForDay });
    this.labelled.push({ label, item: update });
    this.others.push(movement, ...sealed);
    return this;
  }

  /** Items that can fail only along with one of the conditions. */
  add(...items: readonly TransactItem[]): this {
    this.others.push(...items);
    return this;
  }

  /**
   * Writes it: the outcome; or the ledger days its moves' accounts are on when only those were stale;
   * or, with the outcome, the accounts of refused moves that found no balance item (legacy accounts
   * not moved out yet, or no account at all).
   */
  async write(): Promise<
    | LedgerWriteOutcome<L>
    | { readonly staleDays: ReadonlyMap<string, LedgerDaySeen> }
    | { readonly withoutBalance: readonly string[]; readonly outcome: LedgerWriteOutcome<L> }
  > {
    const TransactItems = [...this.labelled.map(({ item }) => item), ...this.others];
    if (TransactItems.length > MAX_TRANSACTION_ITEMS) {
      throw new Error(`A transaction of ${TransactItems.length} items exceeds DynamoDB's ${MAX_TRANSACTION_ITEMS}`);
    }
    try {
      await transactWrite({ TransactItems });
      return { written: true };
    } catch (error) {
      // An unlabelled item fails with a labelled one when a concurrent writer won the race and wrote
      // it first: the labelled failure is the answer. Alone, it is unexpected.
      const failed = [...(failedConditions(error) ?? [])].filter(([index]) => index < this.labelled.length);
      if (failed.length === 0) throw error;
      const outcome = {
        written: false as const,
        failed: new Map(failed.map(([index, old]) => [this.labelled[index]!.label, old])),
      };
      const withoutBalance = failed.flatMap(([index, old]) =>
        old === undefined && this.held.has(index) ? [this.held.get(index)!.accountId] : [],
      );
      if (withoutBalance.length > 0) return { withoutBalance, outcome };
      const staleDays = new Map<string, LedgerDaySeen>();
      for (const [index, old] of failed) {
        const held = this.held.get(index);
        const shown = held && staleLedgerDay(held.day, old);
        if (held && shown) staleDays.set(held.accountId, shown);
      }
      // Only a write whose other conditions held is worth writing again on the days its accounts are on.
      if (staleDays.size > 0 && failed.every(([index]) => this.held.has(index))) return { staleDays };
      return outcome;
    }
  }
}

/**
 * Builds the transaction with `build` and writes it, built again on the ledger days refusals showed
 * (once a day per account) while it is refused for those only, and once a legacy account's balance
 * is moved to its balance item (shared/data/balances.ts).
 */
export async function writeWithLedgerDays<L extends string>(
  build: (transaction: LedgerTransaction<L>) => void,
): Promise<LedgerWriteOutcome<L>> {
  const seen = new Map<string, LedgerDaySeen>();
  const movedOut = new Set<string>();
  for (let attempt = 1; ;) {
    const transaction = new LedgerTransaction<L>(seen);
    build(transaction);
    const outcome = await transaction.write();
    if ('withoutBalance' in outcome) {
      const unmoved = outcome.withoutBalance.filter((accountId) => !movedOut.has(accountId));
      for (const accountId of unmoved) movedOut.add(accountId);
      // No account to move out: the refusal is the write's answer (a credit to an account that does not exist).
      const moved = await Promise.all(unmoved.map(moveLegacyBalance));
      if (moved.includes(true)) continue;
      return outcome.outcome;
    }
    if (!('staleDays' in outcome)) return outcome;
    if (attempt >= LEDGER_DAY_ATTEMPTS) throw new Error(`Ledger days still moving after ${attempt} attempts`);
    attempt += 1;
    for (const [accountId, shown] of outcome.staleDays) seen.set(accountId, shown);
  }
}
