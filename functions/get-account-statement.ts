/** GET /v1/accounts/{id}/statements/{date}: a Colombian day of an account (docs/reconciliation.md). */
import { systemClock } from '../shared/domain/clock';
import { getStatement } from '../shared/domain/ledger';
import { dynamoLedgerStore } from '../shared/data/ledger-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string; date: string }>({
  name: 'getAccountStatement',
  handle: ({ auth, path }) =>
    getStatement({ ledger: dynamoLedgerStore }, auth.tenant, path.id, path.date, systemClock.now()),
});
