/**
 * Reconciliation with the sponsor bank (docs/reconciliation.md, "Against the bank"). A worker matches
 * a day's settlement file (shared/domain/settlement-files.ts) with our payments and refunds
 * (shared/domain/settlement-matching.ts) and keeps, for each client, the day's summary and its
 * breaks, so that each client sees only its own accounts' (its answers:
 * shared/domain/reconciliation-answers.ts). Each client the day concerns (a line on its accounts, a
 * transfer of its settled that day, or a summary of the day's earlier file) gets
 * `reconciliation.completed`.
 *
 * A day sent again replaces the file: the run of the new version writes a client's breaks, takes
 * away the old file's, then writes the client's result. Every write of a run holds only while its
 * version is the day's (a run of a replaced file stops at its next write), and every write may be
 * made twice (a run that failed half way is run again from the start and finds what it wrote).
 */
import type { BreakKind, ReconciliationStatus, SettlementReconciliation } from '../schemas/reconciliations';
import type { SettlementLine } from '../schemas/network';
import { uuidOf, type Clock } from './clock';
import type { DomainEvent } from './events';
import { optional, type RecordReader } from './lists';
import { cop } from './money';
import { later, type StoredPayment } from './payments';
import type { StoredRefund } from './refunds';
import type { SettlementFiles, StoredSettlementFile } from './settlement-files';
import {
  candidatesOf,
  matchMovement,
  matchReversals,
  missingAtBank,
  movementsOf,
  paymentTransfer,
  refundTransfer,
  transferKey,
  type BankMovement,
  type Direction,
  type FoundBreak,
  type OurTransfer,
  type SettledTransfer,
} from './settlement-matching';

/** A client's result of a day's file. */
export interface StoredReconciliation {
  readonly tenant: string;
  readonly date: string;
  /** The file's version it is the result of. */
  readonly version: string;
  readonly status: Extract<ReconciliationStatus, 'MATCHED' | 'BREAKS'>;
  readonly matched_count: number;
  readonly matched_amount_cents: number;
  readonly break_count: number;
  readonly completed_at: string;
}

/** A break as stored: one of a client's, under the day and the file's version that found it. */
export interface StoredBreak {
  readonly id: string;
  readonly tenant: string;
  readonly date: string;
  readonly version: string;
  readonly kind: BreakKind;
  readonly end_to_end_id: string;
  readonly direction: Direction;
  readonly payment_id?: string;
  readonly refund_id?: string;
  readonly account_id: string;
  readonly amount_here_cents?: number;
  readonly amount_at_bank_cents?: number;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The breaks list's filter: the day (its scope). */
export interface BreakFilters {
  readonly date: string;
}

export interface ReconciliationStore extends RecordReader<StoredBreak, BreakFilters> {
  /** The day's file record. */
  file(date: string): Promise<StoredSettlementFile | undefined>;
  /** Takes the day's PENDING file of `version` for one run until `until`; undefined when replaced or done. */
  startRun(date: string, version: string, until: string): Promise<StoredSettlementFile | undefined>;
  /** A client's result of the day, of whichever version wrote it last. */
  summary(tenant: string, date: string): Promise<StoredReconciliation | undefined>;
  /** Every client's result of the day (of any version). */
  summaries(date: string): Promise<readonly StoredReconciliation[]>;
  /** Puts breaks not already there, each while `version` is the day's; false once it is not. */
  addBreaks(date: string, version: string, breaks: readonly StoredBreak[]): Promise<boolean>;
  /**
   * A client's result with its event, while `version` is the day's and the client has no result of
   * it yet: 'written', 'done' (written before: a run again), or 'replaced'.
   */
  finishTenant(summary: StoredReconciliation, event: DomainEvent): Promise<'written' | 'done' | 'replaced'>;
  /**
   * Deletes the client's breaks of the day that another version found, while `version` is the day's:
   * how many, or undefined once it is not.
   */
  removeStaleBreaks(tenant: string, date: string, version: string): Promise<number | undefined>;
  /** The day's file COMPLETED (out of the due work) while `version` is the day's; false when replaced. */
  complete(file: StoredSettlementFile): Promise<boolean>;
}

/** Our payments and refunds by id, as many as asked at once (those that exist). */
export interface TransferSource {
  read(
    paymentIds: readonly string[],
    refundIds: readonly string[],
  ): Promise<{
    readonly payments: readonly StoredPayment[];
    readonly refunds: readonly StoredRefund[];
  }>;
}

/** Our clients' accounts, by id and by the sponsor bank's account number. */
export interface AccountDirectory {
  /** Each account's number, by id (those that exist). */
  numbers(accountIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** The account each number is (claimed by one customer across all clients), by number. */
  owners(
    numbers: readonly string[],
  ): Promise<ReadonlyMap<string, { readonly tenant: string; readonly account_id: string }>>;
}

/** The transfers settled here on a Bogotá day, a page at a time. */
export interface SettledDay {
  day(date: string): AsyncIterable<readonly SettledTransfer[]>;
}

export interface RunReconciliationDeps {
  readonly store: Omit<ReconciliationStore, 'list' | 'walk'>;
  readonly files: Pick<SettlementFiles, 'lines'>;
  readonly transfers: TransferSource;
  readonly accounts: AccountDirectory;
  readonly settled: SettledDay;
  /** Our sponsor bank's identification number: a transfer to it never reaches the network. */
  readonly ownNit: string;
  readonly clock: Clock;
  /** How long one run may take (the worker's timeout): the file is the run's until then. */
  readonly runMs: number;
}

/** Movements matched at once: one read of their transfers, one of their accounts. */
export const MATCH_BATCH = 100;

/** What one run came to. */
export interface RunReport {
  readonly date: string;
  readonly version: string;
  readonly outcome: 'completed' | 'replaced';
  readonly movements: number;
  readonly matched: number;
  readonly breaks: number;
  /** Breaks on accounts of none of our clients: nobody's to see, counted for the operators. */
  readonly unassigned: number;
  readonly tenants: number;
}

/** Each client's matches and breaks, as the run finds them. */
class Tally {
  readonly byTenant = new Map<string, { matched: number; amountCents: number; breaks: FoundBreak[] }>();
  unassigned = 0;
  breaks = 0;
  matched = 0;

  private of(tenant: string) {
    let entry = this.byTenant.get(tenant);
    if (!entry) this.byTenant.set(tenant, (entry = { matched: 0, amountCents: 0, breaks: [] }));
    return entry;
  }

  match(transfer: OurTransfer, amountCents: number): void {
    const entry = this.of(transfer.tenant);
    entry.matched += 1;
    entry.amountCents += amountCents;
    this.matched += 1;
  }

  break(found: FoundBreak): void {
    this.breaks += 1;
    if (found.tenant === undefined || found.account_id === undefined) this.unassigned += 1;
    else this.of(found.tenant).breaks.push(found);
  }

  touch(tenant: string): void {
    this.of(tenant);
  }
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

async function readLines(files: Pick<SettlementFiles, 'lines'>, name: string): Promise<SettlementLine[]> {
  const lines: SettlementLine[] = [];
  for await (const line of files.lines(name)) if (line.trim()) lines.push(JSON.parse(line) as SettlementLine);
  return lines;
}

/** The bank's taking back of a credit, by the credit's payment id: matched with the day's reversals. */
type TakenBack = Map<string, { movement: BankMovement; credit: OurTransfer; found: FoundBreak }>;

/** Matches one batch of the file's movements: their transfers and accounts read at once. */
async function matchBatch(
  deps: RunReconciliationDeps,
  batch: readonly BankMovement[],
  tally: Tally,
  seen: Set<string>,
  takenBack: TakenBack,
): Promise<void> {
  const candidates = batch.map(candidatesOf);
  const read = await deps.transfers.read(
    unique(candidates.flatMap((c) => c.paymentIds)),
    unique(candidates.flatMap((c) => c.refundIds)),
  );
  const transfers = new Map<string, OurTransfer>();
  for (const payment of read.payments) transfers.set(transferKey(paymentTransfer(payment)), paymentTransfer(payment));
  for (const refund of read.refunds) transfers.set(transferKey(refundTransfer(refund)), refundTransfer(refund));
  const [numbers, owners] = await Promise.all([
    deps.accounts.numbers(unique([...transfers.values()].map((t) => t.account_id))),
    deps.accounts.owners(unique(batch.map((movement) => movement.account_number))),
  ]);
  batch.forEach((movement, i) => {
    const { paymentIds, refundIds } = candidates[i]!;
    const named = [
      ...paymentIds.map((id) => transfers.get(`payment:${id}`)),
      ...refundIds.map((id) => transfers.get(`refund:${id}`)),
    ].filter((transfer): transfer is OurTransfer => transfer !== undefined);
    const outcome = matchMovement(movement, named, (id) => numbers.get(id), owners.get(movement.account_number));
    if (outcome.transfer) seen.add(transferKey(outcome.transfer));
    // A credit taken back waits for the day's reversals of it (read with the day's settled transfers).
    if (!outcome.matched && outcome.takesBack) {
      takenBack.set(outcome.takesBack.id, { movement, credit: outcome.takesBack, found: outcome.found });
    } else if (outcome.matched) tally.match(outcome.transfer, outcome.amount_cents);
    else tally.break(outcome.found);
  });
}

/** A break of a client's, as stored: its id follows from the file's version and the movement. */
function storedBreak(
  found: FoundBreak & { tenant: string; account_id: string },
  file: StoredSettlementFile,
  at: string,
) {
  const record = found.payment_id ?? found.refund_id ?? '';
  const stored: StoredBreak = {
    id: uuidOf(
      `settlement-break:${file.date}:${file.version}:${found.tenant}:${found.kind}:${found.direction}:` +
        `${found.end_to_end_id}:${found.account_id}:${record}`,
    ),
    tenant: found.tenant,
    date: file.date,
    version: file.version,
    kind: found.kind,
    end_to_end_id: found.end_to_end_id,
    direction: found.direction,
    ...optional('payment_id', found.payment_id),
    ...optional('refund_id', found.refund_id),
    account_id: found.account_id,
    ...optional('amount_here_cents', found.amount_here_cents),
    ...optional('amount_at_bank_cents', found.amount_at_bank_cents),
    created_at: at,
    updated_at: at,
  };
  return stored;
}

/** The day's answer for a client: its result, or the day's state without one. */
export function publicReconciliation(
  date: string,
  status: ReconciliationStatus,
  result?: Pick<StoredReconciliation, 'matched_count' | 'matched_amount_cents' | 'break_count'>,
): SettlementReconciliation {
  return {
    date,
    status,
    matched: { count: result?.matched_count ?? 0, amount: cop(result?.matched_amount_cents ?? 0) },
    breaks: { count: result?.break_count ?? 0 },
  };
}

/** The `reconciliation.completed` event of a client's result: the day as its GET answers it. */
const completedEvent = (summary: StoredReconciliation): DomainEvent => ({
  id: uuidOf(`reconciliation.completed:${summary.date}:${summary.version}:${summary.tenant}`),
  tenant: summary.tenant,
  type: 'reconciliation.completed',
  created_at: summary.completed_at,
  data: publicReconciliation(summary.date, summary.status, summary),
});

/**
 * One run of a day's reconciliation (the worker's, for each message): nothing when the day has no
 * PENDING file; else its movements matched, what we settled that day and the bank did not list found,
 * and each client's breaks and result written, with its event; then the file COMPLETED. A run that
 * throws leaves the file PENDING for the next (the queue's retry, or the sweeper once its time is
 * over). A file replaced during the run stops it (`replaced`): the new file's run does the day.
 */
export async function runReconciliation(deps: RunReconciliationDeps, date: string): Promise<RunReport | undefined> {
  const found = await deps.store.file(date);
  if (!found || found.status !== 'PENDING') return undefined;
  const file = await deps.store.startRun(date, found.version, later(deps.clock.now(), deps.runMs));
  if (!file) return undefined;
  const movements = movementsOf(await readLines(deps.files, file.file));
  const tally = new Tally();
  const seen = new Set<string>();
  const takenBack: TakenBack = new Map();
  for (let i = 0; i < movements.length; i += MATCH_BATCH) {
    await matchBatch(deps, movements.slice(i, i + MATCH_BATCH), tally, seen, takenBack);
  }
  // The day's reversals, by the credit they take back: few, kept until the bank's are matched.
  const reversals = new Map<string, SettledTransfer[]>();
  for await (const page of deps.settled.day(date)) {
    for (const settled of page) {
      tally.touch(settled.tenant);
      if (settled.kind === 'reversal') {
        const credit = settled.payment_id ?? '';
        reversals.set(credit, [...(reversals.get(credit) ?? []), settled]);
        continue;
      }
      if (seen.has(transferKey(settled))) continue;
      const missing = missingAtBank(settled, deps.ownNit);
      if (missing) tally.break(missing);
    }
  }
  for (const credit of new Set([...takenBack.keys(), ...reversals.keys()])) {
    const outcome = matchReversals(takenBack.get(credit), reversals.get(credit) ?? []);
    if (outcome.matched) tally.match(outcome.transfer, outcome.amount_cents);
    else tally.break(outcome.found);
  }
  // A client of the day's earlier file hears that the new one changed its day, even to nothing.
  for (const summary of await deps.store.summaries(date)) tally.touch(summary.tenant);

  const report = (outcome: RunReport['outcome']): RunReport => ({
    date,
    version: file.version,
    outcome,
    movements: movements.length,
    matched: tally.matched,
    breaks: tally.breaks,
    unassigned: tally.unassigned,
    tenants: tally.byTenant.size,
  });
  const at = deps.clock.now();
  for (const [tenant, result] of tally.byTenant) {
    const breaks = result.breaks.map((b) => storedBreak({ ...b, tenant, account_id: b.account_id! }, file, at));
    if (!(await deps.store.addBreaks(date, file.version, breaks))) return report('replaced');
    // The old file's breaks go before the result says the day is done: a MATCHED or BREAKS day lists
    // its own file's breaks only.
    if ((await deps.store.removeStaleBreaks(tenant, date, file.version)) === undefined) return report('replaced');
    const summary: StoredReconciliation = {
      tenant,
      date,
      version: file.version,
      status: breaks.length > 0 ? 'BREAKS' : 'MATCHED',
      matched_count: result.matched,
      matched_amount_cents: result.amountCents,
      break_count: breaks.length,
      completed_at: at,
    };
    if ((await deps.store.finishTenant(summary, completedEvent(summary))) === 'replaced') return report('replaced');
  }
  const completed = await deps.store.complete({
    ...file,
    status: 'COMPLETED',
    completed_at: at,
    break_count: tally.breaks,
    unassigned_count: tally.unassigned,
  });
  return report(completed ? 'completed' : 'replaced');
}
