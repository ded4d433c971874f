/**
 * The filters each kind of report takes besides its dates, and those it cannot do without: what
 * POST /v1/reports checks. Apart from report-types.ts, which builds each kind's columns from the
 * list schemas at load, so that the report routes that only check or read a report do not carry them.
 */
import type { ReportType } from '../schemas/reports';

/** The filters a report's request may name besides its dates. */
export type ReportFilterName = 'customer_id' | 'account_id';

export interface ReportFilterRule {
  /** The filters this kind takes; `required` ones it cannot do without. */
  readonly filters: readonly ReportFilterName[];
  readonly required: readonly ReportFilterName[];
}

export const REPORT_FILTERS: Readonly<Record<ReportType, ReportFilterRule>> = {
  payments: { filters: ['customer_id', 'account_id'], required: [] },
  movements: { filters: ['account_id'], required: ['account_id'] },
  refunds: { filters: ['customer_id'], required: [] },
};
