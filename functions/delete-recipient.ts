/** DELETE /v1/recipients/{id}: the recipient is gone; payments made to it stay. */
import { deleteRecipient } from '../shared/domain/recipients';
import { dynamoRecipientWrites } from '../shared/data/recipients-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'deleteRecipient',
  handle: ({ auth, path }) => deleteRecipient(dynamoRecipientWrites, auth.tenant, path.id),
});
