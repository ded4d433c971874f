/** POST /v1/validate-key: whether a person or business owns a Bre-B key, MATCH or NO_MATCH (docs/keys.md). */
import { validateKey } from '../shared/domain/directory';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { httpHandler } from '../shared/http/handler';
import type { ValidateKeyRequest } from '../shared/schemas/keys';
import { validateKeyRequest } from '../shared/schemas/generated/keys';

export const handler = httpHandler<ValidateKeyRequest>({
  name: 'validateKey',
  body: validateKeyRequest,
  // Writes nothing: an Idempotency-Key's answer is recorded in one write.
  oneTransaction: true,
  handle: ({ body }) => validateKey(dynamoDirectory, body),
});
