/** POST /v1/validate-key: whether a person or business owns a Bre-B key, MATCH or NO_MATCH (docs/keys.md). */
import { validateKey } from '../shared/domain/directory';
import { LOOKUP_BUDGET } from '../shared/domain/lookup-budget';
import { stageDirectory } from './network-ports';
import { dynamoLookupBudget } from '../shared/data/lookup-budget-store';
import { httpHandler } from '../shared/http/handler';
import { readParticipant } from '../shared/runtime/config';
import type { ValidateKeyRequest } from '../shared/schemas/keys';
import { validateKeyRequest } from '../shared/schemas/generated/keys';

const deps = {
  directory: stageDirectory,
  lookups: dynamoLookupBudget(LOOKUP_BUDGET),
  get participant() {
    return readParticipant(process.env);
  },
};

export const handler = httpHandler<ValidateKeyRequest>({
  name: 'validateKey',
  body: validateKeyRequest,
  // Writes nothing of its own (the lookup budget's counter is no work to undo): an Idempotency-Key's
  // answer is recorded in one write.
  oneTransaction: true,
  handle: ({ auth, body }) => validateKey(deps, auth.tenant, body),
});
