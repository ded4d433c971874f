/** GET /v1/recipients: the client's recipients, a page at a time; filter customer_id. */
import { systemClock } from '../shared/domain/clock';
import { listRecipients } from '../shared/domain/recipients';
import { dynamoRecipientStore } from '../shared/data/recipients-repository';
import { httpHandler } from '../shared/http/handler';
import type { RecipientListQuery } from '../shared/schemas/recipients';
import { recipientListQuery } from '../shared/schemas/generated/recipients';

export const handler = httpHandler<undefined, RecipientListQuery>({
  name: 'listRecipients',
  query: recipientListQuery,
  handle: ({ auth, query }) => listRecipients(dynamoRecipientStore, auth.tenant, query, systemClock.now()),
});
