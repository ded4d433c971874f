/** POST /v1/keys: register a Bre-B key for one of the client's accounts (docs/keys.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { registerKey } from '../shared/domain/keys';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { runtimeConfig } from '../shared/runtime/config';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';
import type { RegisterKeyRequest } from '../shared/schemas/keys';
import { registerKeyRequest } from '../shared/schemas/generated/keys';
import { stagePublisher } from './network-ports';

export const handler = httpHandler<RegisterKeyRequest>({
  name: 'registerKey',
  body: registerKeyRequest,
  oneTransaction: true,
  handle: ({ auth, body }) =>
    registerKey(
      {
        ...systemNewRecords,
        customers: dynamoCustomerWrites,
        accounts: dynamoAccountWrites,
        keys: dynamoKeyWrites,
        publisher: stagePublisher,
        participant: runtimeConfig().participant,
      },
      auth.tenant,
      body,
    ),
});
