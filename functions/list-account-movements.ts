/** GET /v1/accounts/{id}/movements: an account's ledger, a page at a time (docs/reconciliation.md). */
import { systemClock } from '../shared/domain/clock';
import { listMovements } from '../shared/domain/ledger';
import { dynamoLedgerStore } from '../shared/data/ledger-repository';
import { httpHandler } from '../shared/http/handler';
import type { MovementListQuery } from '../shared/schemas/ledger';
import { movementListQuery } from '../shared/schemas/generated/ledger';

export const handler = httpHandler<undefined, MovementListQuery, { id: string }>({
  name: 'listAccountMovements',
  query: movementListQuery,
  handle: ({ auth, path, query }) =>
    listMovements({ ledger: dynamoLedgerStore }, auth.tenant, path.id, query, systemClock.now()),
});
