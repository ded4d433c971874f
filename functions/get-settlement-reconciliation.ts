/** GET /v1/settlement-reconciliations/{date}: a Bogotá day's reconciliation with the bank, for the client's accounts. */
import { systemClock } from '../shared/domain/clock';
import { getReconciliation } from '../shared/domain/reconciliation-answers';
import { dynamoReconciliationWrites } from '../shared/data/reconciliations-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { date: string }>({
  name: 'getSettlementReconciliation',
  handle: ({ auth, path }) =>
    getReconciliation({ store: dynamoReconciliationWrites, clock: systemClock }, auth.tenant, path.date),
});
