/** GET /v1/keys: the client's Bre-B keys, a page at a time. */
import { systemClock } from '../shared/domain/clock';
import { listKeys } from '../shared/domain/keys';
import { dynamoKeyStore } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';
import type { KeyListQuery } from '../shared/schemas/keys';
import { keyListQuery } from '../shared/schemas/generated/keys';

export const handler = httpHandler<undefined, KeyListQuery>({
  name: 'listKeys',
  query: keyListQuery,
  handle: ({ auth, query }) => listKeys(dynamoKeyStore, auth.tenant, query, systemClock.now()),
});
