/**
 * The sweeper (docs/reliability.md, "The sweeper"): every commit that leaves work to do after it (a
 * PENDING or PROCESSING payment, a PENDING refund, a PENDING delivery, an event to dispatch, a PENDING report, a PENDING settlement file) marks that work due in the
 * same transaction, and its message or stream record is only the fast path. Each run finds the work
 * due for longer than the grace, takes each item (so that two runs at once restart it once), and
 * starts its work again: a settlement or decision job, a delivery's attempt, an event's dispatch.
 * Every one of these is idempotent, so work restarted while its own message was only late is done
 * once all the same.
 */
import type { Clock } from './clock';
import type { DeliveryQueue } from './deliveries';
import { dispatchEvent, type DispatchDeps } from './dispatch';
import type { DomainEvent } from './events';
import { later } from './payments';
import type { RefundQueue } from './refunds';
import type { ReportQueue } from './reports';
import type { ReconciliationQueue } from './settlement-files';
import type { SettlementQueue } from './settlement';

/** One item of due work as the sweeper took it, with when it started waiting for its work. */
export type DueWork =
  /** `tenant`: the client whose message group its job goes in (a fair queue: one client's backlog waits its turn). */
  | { readonly kind: 'payment'; readonly id: string; readonly tenant: string; readonly waitingSince: string }
  | { readonly kind: 'refund'; readonly id: string; readonly tenant: string; readonly waitingSince: string }
  | { readonly kind: 'delivery'; readonly id: string; readonly tenant: string; readonly waitingSince: string }
  | { readonly kind: 'event'; readonly id: string; readonly event: DomainEvent; readonly waitingSince: string }
  | { readonly kind: 'report'; readonly id: string; readonly waitingSince: string }
  /** A day's settlement file still PENDING: its id is the day. */
  | { readonly kind: 'reconciliation'; readonly id: string; readonly waitingSince: string };

export type DueWorkKind = DueWork['kind'];

/** An item found in the index of due work: `ref` names it in logs; `kind`, when known, its work. */
export interface DueEntryRef {
  readonly ref: string;
  readonly kind?: DueWorkKind;
  /** When the index says it fell due (ISO 8601). */
  readonly dueAt: string;
}

/** One page of a shard of the index, as the store read it. */
export interface DuePage<Entry> {
  readonly entries: readonly Entry[];
  /** Where the shard's next page starts (its last item read); undefined when nothing more is due in it. */
  readonly after?: Entry;
}

export interface DueWorkStore<Entry extends DueEntryRef> {
  /** The shards of the index one run reads. */
  shards(): Promise<readonly number[]>;
  /** Up to `limit` items of `shard` due at `upTo` or before, oldest first, from after `after`. */
  page(shard: number, upTo: string, limit: number, after?: Entry): Promise<DuePage<Entry>>;
  /**
   * Takes one item for this run at `now`: it is due again at `dueAgainAt` (one grace after that, a
   * run restarts it again if its work has still not happened). Undefined when it is done, another run
   * took it, or its work is still held (a report under a run's live lease).
   */
  claim(entry: Entry, dueAgainAt: string, now: string): Promise<DueWork | undefined>;
}

export interface SweepDeps<Entry extends DueEntryRef> {
  readonly due: DueWorkStore<Entry>;
  readonly settlement: SettlementQueue;
  /** A PENDING refund's settlement job (on the settlement queue too). */
  readonly refunds: RefundQueue;
  readonly deliveries: DeliveryQueue;
  readonly reports: ReportQueue;
  readonly reconciliations: ReconciliationQueue;
  /** The dispatcher's own dependencies: an event is dispatched as the stream would have. */
  readonly dispatch: DispatchDeps;
  readonly clock: Clock;
  /** How long work may be late before it counts as stranded (SWEEP_GRACE_MS). */
  readonly graceMs: number;
  /**
   * How long each kind's restarted work may sit in its queue before it can be late again: the
   * queue's visibility timeout (an event is dispatched by the run itself: 0). A run that took an item
   * moves its due time that far, so work still queued (a consumer at its concurrency cap, a retry
   * waiting out its visibility) is not queued a second time, which for deliveries fed their backlog.
   */
  readonly holdMs: Readonly<Record<DueWorkKind, number>>;
  /** The run's time left before its timeout, in milliseconds (Lambda's getRemainingTimeInMillis). */
  readonly remainingMs: () => number;
  /**
   * The time left below which the run starts no more restarts: the longest a group of restarts (and
   * the page read before it) may take, so that the run ends before its timeout, never in the middle.
   */
  readonly marginMs: number;
}

/**
 * Items read from each shard at a time. A run reads a page of every shard, restarts them, then the
 * next page of the shards that had more, while it has time: a backlog drains in one run as fast as
 * its restarts go (the 800 items a run of a fixed limit took some 75 minutes over the 60,000 a
 * minute's queue outage strands at 1,000 payments a second), and no shard waits for another's.
 */
export const SHARD_PAGE = 25;
/** Restarts made at once. */
const PARALLEL = 10;

/** Work waiting this long or longer (minutes, since it started waiting) is counted apart: stuck work. */
export const STUCK_AGE_MINUTES = [5, 15, 60] as const;
export type StuckAgeMinutes = (typeof STUCK_AGE_MINUTES)[number];

export interface SweepReport {
  readonly restarted: Readonly<Record<DueWorkKind, number>>;
  /** Items whose restart failed: still due, restarted by a later run. */
  readonly failures: readonly { readonly id: string; readonly error: unknown }[];
  /** How long the oldest item taken had been waiting for its work; 0 when none was. */
  readonly oldestAgeMs: number;
  /**
   * Work taken by this run waiting for at least each of STUCK_AGE_MINUTES (each count includes
   * the longer ones'): how much is stuck, not only how old the oldest is.
   */
  readonly waitingOver: Readonly<Record<StuckAgeMinutes, number>>;
  /** Due items the run read (past their grace, in every shard it read): the index's depth it saw. */
  readonly seen: number;
  /** How far behind the run is: how long ago the oldest item it read fell due; 0 when none was due. */
  readonly oldestDueAgeMs: number;
  /** Whether it stopped for want of time with items still due (the next run takes them). */
  readonly stoppedForTime: boolean;
  /** The shards it left with items still due, when it stopped for time. */
  readonly shardsLeft: number;
}

async function restart<Entry extends DueEntryRef>(deps: SweepDeps<Entry>, work: DueWork): Promise<void> {
  switch (work.kind) {
    case 'payment':
      // settlePayment settles a PENDING payment and decides a PROCESSING one, at once.
      return deps.settlement.schedule(work.id, 0, work.tenant);
    case 'refund':
      return deps.refunds.schedule(work.id, 0, work.tenant);
    case 'delivery':
      return deps.deliveries.send(work.id, 0, work.tenant);
    case 'event':
      await dispatchEvent(deps.dispatch, work.event);
      return;
    case 'report':
      // A run lost (its message, or its worker past its time): the run takes it again, or finds it done.
      return deps.reports.run(work.id);
    case 'reconciliation':
      // A run lost, as a report's: the run takes the day's file again, or finds it COMPLETED.
      return deps.reconciliations.run(work.id);
  }
}

/** One run of the sweeper: pages of every shard in turns, while the run has time for more. */
export async function sweep<Entry extends DueEntryRef>(deps: SweepDeps<Entry>): Promise<SweepReport> {
  const now = deps.clock.now();
  const upTo = later(now, -deps.graceMs);
  const restarted: Record<DueWorkKind, number> = {
    payment: 0,
    refund: 0,
    delivery: 0,
    event: 0,
    report: 0,
    reconciliation: 0,
  };
  const waitingOver = Object.fromEntries(STUCK_AGE_MINUTES.map((m) => [m, 0])) as Record<StuckAgeMinutes, number>;
  const failures: { id: string; error: unknown }[] = [];
  let oldestAgeMs = 0;
  let seen = 0;
  let oldestDueAt: string | undefined;
  const timeLeft = () => deps.remainingMs() > deps.marginMs;

  const restartOne = async (entry: Entry): Promise<void> => {
    const dueAgainAt = later(now, entry.kind === undefined ? 0 : deps.holdMs[entry.kind]);
    const work = await deps.due.claim(entry, dueAgainAt, now).catch((error: unknown) => {
      failures.push({ id: entry.ref, error });
      return undefined;
    });
    if (!work) return;
    const ageMs = Date.parse(now) - Date.parse(work.waitingSince);
    oldestAgeMs = Math.max(oldestAgeMs, ageMs);
    for (const minutes of STUCK_AGE_MINUTES) if (ageMs >= minutes * 60_000) waitingOver[minutes] += 1;
    try {
      await restart(deps, work);
      restarted[work.kind] += 1;
    } catch (error) {
      failures.push({ id: work.id, error });
    }
  };

  // Each shard's position: undefined before its first page, null once nothing more is due in it.
  const positions = new Map<number, Entry | undefined | null>((await deps.due.shards()).map((s) => [s, undefined]));
  const open = () => [...positions].filter(([, after]) => after !== null);
  let stoppedForTime = false;
  const shardsLeft = new Set<number>();
  while (open().length > 0) {
    if (!timeLeft()) {
      stoppedForTime = true;
      break;
    }
    const pages = await Promise.all(
      open().map(async ([shard, after]) => {
        const page = await deps.due.page(shard, upTo, SHARD_PAGE, after ?? undefined);
        positions.set(shard, page.after ?? null);
        return page.entries.map((entry) => ({ shard, entry }));
      }),
    );
    const read = pages.flat();
    seen += read.length;
    for (const { entry } of read) {
      if (oldestDueAt === undefined || entry.dueAt < oldestDueAt) oldestDueAt = entry.dueAt;
    }
    for (let i = 0; i < read.length; i += PARALLEL) {
      if (!timeLeft()) {
        // What this page left is still due, and unclaimed: the next run reads it again.
        stoppedForTime = true;
        for (const { shard } of read.slice(i)) shardsLeft.add(shard);
        break;
      }
      await Promise.all(read.slice(i, i + PARALLEL).map(({ entry }) => restartOne(entry)));
    }
    if (stoppedForTime) break;
  }
  if (stoppedForTime) for (const [shard] of open()) shardsLeft.add(shard);
  return {
    restarted,
    failures,
    oldestAgeMs,
    waitingOver,
    seen,
    oldestDueAgeMs: oldestDueAt === undefined ? 0 : Math.max(0, Date.parse(now) - Date.parse(oldestDueAt)),
    stoppedForTime,
    shardsLeft: shardsLeft.size,
  };
}
