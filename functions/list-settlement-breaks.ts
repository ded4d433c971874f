/** GET /v1/settlement-reconciliations/{date}/breaks: the client's breaks of a day, a page at a time. */
import { systemClock } from '../shared/domain/clock';
import { listSettlementBreaks } from '../shared/domain/reconciliation-answers';
import { dynamoReconciliationStore } from '../shared/data/reconciliations-repository';
import { httpHandler } from '../shared/http/handler';
import type { SettlementBreakListQuery } from '../shared/schemas/reconciliations';
import { settlementBreakListQuery } from '../shared/schemas/generated/reconciliations';

export const handler = httpHandler<undefined, SettlementBreakListQuery, { date: string }>({
  name: 'listSettlementBreaks',
  query: settlementBreakListQuery,
  handle: ({ auth, path, query }) =>
    listSettlementBreaks(dynamoReconciliationStore, auth.tenant, path.date, query, systemClock.now()),
});
