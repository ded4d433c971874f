/** GET /v1/keys: the client's Bre-B keys, a page at a time. */
import { systemClock } from '../shared/domain/clock';
import { listKeys } from '../shared/domain/keys';
import { dynamoKeyStore } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';
import { keyListQuerySchema, type KeyListQuery } from '../shared/schemas/keys';

export const handler = httpHandler<undefined, KeyListQuery>({
  name: 'listKeys',
  query: keyListQuerySchema,
  handle: ({ auth, query }) => listKeys(dynamoKeyStore, auth.tenant, query, systemClock.now()),
});
