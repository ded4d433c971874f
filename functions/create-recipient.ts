/** POST /v1/recipients: save the payee of one of the customer's resolutions, under an alias (docs/payments.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { createRecipient } from '../shared/domain/recipients';
import { dynamoResolutionStore } from '../shared/data/directory-repository';
import { dynamoRecipientWrites } from '../shared/data/recipients-repository';
import { httpHandler } from '../shared/http/handler';
import type { CreateRecipientRequest } from '../shared/schemas/recipients';
import { createRecipientRequest } from '../shared/schemas/generated/recipients';

export const handler = httpHandler<CreateRecipientRequest>({
  name: 'createRecipient',
  body: createRecipientRequest,
  oneTransaction: true,
  handle: ({ auth, body }) =>
    createRecipient(
      { ...systemNewRecords, resolutions: dynamoResolutionStore, recipients: dynamoRecipientWrites },
      auth.tenant,
      body,
    ),
});
