/** GET /v1/customers: the client's customers, a page at a time (docs/pagination.md). */
import { systemClock } from '../shared/domain/clock';
import { listCustomers } from '../shared/domain/customers';
import { dynamoCustomerStore } from '../shared/data/customers-repository';
import { httpHandler } from '../shared/http/handler';
import type { CustomerListQuery } from '../shared/schemas/customers';
import { customerListQuery } from '../shared/schemas/generated/customers';

export const handler = httpHandler<undefined, CustomerListQuery>({
  name: 'listCustomers',
  query: customerListQuery,
  handle: ({ auth, query }) => listCustomers(dynamoCustomerStore, auth.tenant, query, systemClock.now()),
});
