/** POST /v1/resolve-key: resolve a Bre-B key to its owner, participant and account (docs/keys.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { resolveKey } from '../shared/domain/directory';
import { LOOKUP_BUDGET } from '../shared/domain/lookup-budget';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { stageDirectory } from './network-ports';
import { dynamoLookupBudget } from '../shared/data/lookup-budget-store';
import { httpHandler } from '../shared/http/handler';
import type { ResolveKeyRequest } from '../shared/schemas/keys';
import { resolveKeyRequest } from '../shared/schemas/generated/keys';

const deps = {
  ...systemNewRecords,
  customers: dynamoCustomerWrites,
  directory: stageDirectory,
  lookups: dynamoLookupBudget(LOOKUP_BUDGET),
};

export const handler = httpHandler<ResolveKeyRequest>({
  name: 'resolveKey',
  body: resolveKeyRequest,
  handle: ({ auth, body }) => resolveKey(deps, auth.tenant, body),
});
