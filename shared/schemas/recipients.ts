/** Recipient schemas (docs/payments.md, Recipients): saving the payee of a resolution, listing them. */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, text, UUID } from './common';
import { listQueryUnderCustomer } from './lists';

/** POST /v1/recipients: the payee of one of the customer's resolutions, under a name of the client's. */
export const createRecipientRequestSchema = allRequired({
  customer_id: UUID,
  resolution_id: UUID,
  alias: text(100),
});

export type CreateRecipientRequest = FromSchema<typeof createRecipientRequestSchema>;

export const recipientListQuerySchema = listQueryUnderCustomer({});

export type RecipientListQuery = FromSchema<typeof recipientListQuerySchema>;
