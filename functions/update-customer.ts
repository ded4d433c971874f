/** PATCH /v1/customers/{id}: activate or deactivate one of the client's customers. */
import { systemNewRecords } from '../shared/domain/clock';
import { setCustomerStatus } from '../shared/domain/customers';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { httpHandler } from '../shared/http/handler';
import type { UpdateCustomerRequest } from '../shared/schemas/customers';
import { updateCustomerRequest } from '../shared/schemas/generated/customers';

const deps = {
  customers: dynamoCustomerWrites,
  followers: dynamoAccountWrites,
  ...systemNewRecords,
};

export const handler = httpHandler<UpdateCustomerRequest, Record<string, never>, { id: string }>({
  name: 'updateCustomer',
  body: updateCustomerRequest,
  handle: ({ auth, body, path }) => setCustomerStatus(deps, auth.tenant, path.id, body.status),
});
