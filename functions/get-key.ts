/** GET /v1/keys/{id}: one of the client's Bre-B keys. */
import { getOwnKey, publicKey } from '../shared/domain/keys';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getKey',
  handle: async ({ auth, path }) => publicKey(await getOwnKey(dynamoKeyWrites, auth.tenant, path.id)),
});
