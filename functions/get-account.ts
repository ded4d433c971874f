/** GET /v1/accounts/{id}: one of the client's accounts, as the link call answered it. */
import { getOwnAccount, publicAccount } from '../shared/domain/accounts';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getAccount',
  handle: async ({ auth, path }) => publicAccount(await getOwnAccount(dynamoAccountWrites, auth.tenant, path.id)),
});
