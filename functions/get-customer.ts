/** GET /v1/customers/{id}: one of the client's customers. */
import { getOwnCustomer, publicCustomer } from '../shared/domain/customers';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getCustomer',
  handle: async ({ auth, path }) => publicCustomer(await getOwnCustomer(dynamoCustomerWrites, auth.tenant, path.id)),
});
