/**
 * A client's answers of its reconciliation with the sponsor bank (docs/reconciliation.md, "Against
 * the bank"): its day (`GET /v1/settlement-reconciliations/{date}`) and the day's breaks (`/breaks`),
 * read from what the worker of shared/domain/reconciliations.ts kept for it.
 */
import type { SettlementBreak, SettlementReconciliation } from '../schemas/reconciliations';
import type { SettlementBreakListQuery } from '../schemas/reconciliations';
import type { Clock } from './clock';
import { listOwn, optional } from './lists';
import { cop } from './money';
import { publicReconciliation, type BreakFilters, type ReconciliationStore, type StoredBreak } from './reconciliations';
import { checkSettlementDay } from './settlement-files';

export interface ReadReconciliationDeps {
  readonly store: Pick<ReconciliationStore, 'file' | 'summary'>;
  readonly clock: Clock;
}

/**
 * `GET /v1/settlement-reconciliations/{date}`: the caller's day. No file: NOT_RECEIVED. The caller's
 * result of the day's file: MATCHED or BREAKS. The file matched and nothing of the caller's in it nor
 * settled here that day: MATCHED, all zeros. Else PENDING (a new file of the day included).
 */
export async function getReconciliation(
  deps: ReadReconciliationDeps,
  tenant: string,
  date: string,
): Promise<SettlementReconciliation> {
  checkSettlementDay(date, deps.clock.now());
  const [file, summary] = await Promise.all([deps.store.file(date), deps.store.summary(tenant, date)]);
  if (!file) return publicReconciliation(date, 'NOT_RECEIVED');
  if (summary && summary.version === file.version) return publicReconciliation(date, summary.status, summary);
  return publicReconciliation(date, file.status === 'COMPLETED' ? 'MATCHED' : 'PENDING');
}

/** A break as the breaks list answers it: amounts as money, no client nor version. */
export const publicBreak = (stored: StoredBreak): SettlementBreak => ({
  id: stored.id,
  kind: stored.kind,
  end_to_end_id: stored.end_to_end_id,
  direction: stored.direction,
  ...optional('payment_id', stored.payment_id),
  ...optional('refund_id', stored.refund_id),
  account_id: stored.account_id,
  ...optional('amount_here', stored.amount_here_cents === undefined ? undefined : cop(stored.amount_here_cents)),
  ...optional(
    'amount_at_bank',
    stored.amount_at_bank_cents === undefined ? undefined : cop(stored.amount_at_bank_cents),
  ),
  created_at: stored.created_at,
});

/**
 * `GET /v1/settlement-reconciliations/{date}/breaks`: the caller's breaks of the day, a page at a
 * time. While a new file of the day is PENDING, the list may hold the breaks of both files; once
 * it is matched, the new file's alone.
 */
export function listSettlementBreaks(
  records: Pick<ReconciliationStore, 'list'>,
  tenant: string,
  date: string,
  query: SettlementBreakListQuery,
  now: string,
) {
  checkSettlementDay(date, now);
  return listOwn(records, tenant, query, now, {
    name: 'breaks',
    filters: (): BreakFilters => ({ date }),
    toPublic: publicBreak,
  });
}
