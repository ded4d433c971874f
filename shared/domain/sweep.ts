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
  | { readonly kind: 'payment'; readonly id: string; readonly waitingSince: string }
  | { readonly kind: 'refund'; readonly id: string; readonly waitingSince: string }
  | { readonly kind: 'delivery'; readonly id: string; readonly waitingSince: string }
  | { readonly kind: 'event'; readonly id: string; readonly event: DomainEvent; readonly waitingSince: string }
  | { readonly kind: 'report'; readonly id: string; readonly waitingSince: string }
  /** A day's settlement file still PENDING: its id is the day. */
  | { readonly kind: 'reconciliation'; readonly id: string; readonly waitingSince: string };

export type DueWorkKind = DueWork['kind'];

/** An item found in the index of due work: `ref` names it in logs; `kind`, when known, its work. */
export interface DueEntryRef {
  readonly ref: string;
  readonly kind?: DueWorkKind;
}

export interface DueWorkStore<Entry extends DueEntryRef> {
  /**
   * Items due at `upTo` or before, the oldest first in each part of the index it reads, about `limit`
   * in all (the parts it reads share it evenly).
   */
  due(upTo: string, limit: number): Promise<readonly Entry[]>;
  /**
   * Takes one item for this run: it is due again at `dueAgainAt` (one grace after that, a run
   * restarts it again if its work has still not happened). Undefined when it is done or another run
   * took it.
   */
  claim(entry: Entry, dueAgainAt: string): Promise<DueWork | undefined>;
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
}

/**
 * Items one run takes at most, shared by the parts of the index it reads (8 shards: 100 each; 32: 25
 * each): the run's length, and so its timeout, does not grow with the shards. A larger backlog takes
 * the next runs.
 */
export const SWEEP_LIMIT = 800;
/** Restarts made at once. */
const PARALLEL = 10;

export interface SweepReport {
  readonly restarted: Readonly<Record<DueWorkKind, number>>;
  /** Items whose restart failed: still due, restarted by a later run. */
  readonly failures: readonly { readonly id: string; readonly error: unknown }[];
  /** How long the oldest item taken had been waiting for its work; 0 when none was. */
  readonly oldestAgeMs: number;
}

async function restart<Entry extends DueEntryRef>(deps: SweepDeps<Entry>, work: DueWork): Promise<void> {
  switch (work.kind) {
    case 'payment':
      // settlePayment settles a PENDING payment and decides a PROCESSING one, at once.
      return deps.settlement.schedule(work.id, 0);
    case 'refund':
      return deps.refunds.schedule(work.id, 0);
    case 'delivery':
      return deps.deliveries.send(work.id, 0);
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

/** One run of the sweeper. */
export async function sweep<Entry extends DueEntryRef>(deps: SweepDeps<Entry>): Promise<SweepReport> {
  const now = deps.clock.now();
  const entries = await deps.due.due(later(now, -deps.graceMs), SWEEP_LIMIT);
  const restarted: Record<DueWorkKind, number> = {
    payment: 0,
    refund: 0,
    delivery: 0,
    event: 0,
    report: 0,
    reconciliation: 0,
  };
  const failures: { id: string; error: unknown }[] = [];
  let oldestAgeMs = 0;
  for (let i = 0; i < entries.length; i += PARALLEL) {
    await Promise.all(
      entries.slice(i, i + PARALLEL).map(async (entry) => {
        const dueAgainAt = later(now, entry.kind === undefined ? 0 : deps.holdMs[entry.kind]);
        const work = await deps.due.claim(entry, dueAgainAt).catch((error: unknown) => {
          failures.push({ id: entry.ref, error });
          return undefined;
        });
        if (!work) return;
        oldestAgeMs = Math.max(oldestAgeMs, Date.parse(now) - Date.parse(work.waitingSince));
        try {
          await restart(deps, work);
          restarted[work.kind] += 1;
        } catch (error) {
          failures.push({ id: work.id, error });
        }
      }),
    );
  }
  return { restarted, failures, oldestAgeMs };
}
