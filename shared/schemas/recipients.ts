/** Recipient schemas (docs/payments.md, Recipients): saving the payee of a resolution, listing them. */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, text, TIMESTAMPS, UUID } from './common';
import { keyAccountSchema, keyOwnerSchema, participantSchema, typedKeySchema } from './keys';
import { listAnswer, listQueryUnderCustomer } from './lists';

/** POST /v1/recipients: the payee of one of the customer's resolutions, under a name of the client's. */
export const createRecipientRequestSchema = allRequired({
  customer_id: UUID,
  resolution_id: UUID,
  alias: text(100),
});

export type CreateRecipientRequest = FromSchema<typeof createRecipientRequestSchema>;

export const recipientListQuerySchema = listQueryUnderCustomer({});

export type RecipientListQuery = FromSchema<typeof recipientListQuerySchema>;

/** A recipient: the payee of a resolution, as it showed it, under the client's alias. */
export const recipientSchema = allRequired({
  id: UUID,
  customer_id: UUID,
  alias: createRecipientRequestSchema.properties.alias,
  key: typedKeySchema,
  owner: keyOwnerSchema,
  participant: participantSchema,
  account: keyAccountSchema,
  ...TIMESTAMPS,
});

export const recipientListSchema = listAnswer('recipients', recipientSchema);
