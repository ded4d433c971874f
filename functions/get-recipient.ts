/** GET /v1/recipients/{id}: one of the client's recipients. */
import { getRecipient } from '../shared/domain/recipients';
import { dynamoRecipientWrites } from '../shared/data/recipients-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getRecipient',
  handle: ({ auth, path }) => getRecipient(dynamoRecipientWrites, auth.tenant, path.id),
});
