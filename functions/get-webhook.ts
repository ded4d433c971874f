/** GET /v1/webhooks/{id}: one of the client's webhooks, without its secret. */
import { getWebhook } from '../shared/domain/webhooks';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getWebhook',
  handle: ({ auth, path }) => getWebhook(dynamoWebhookWrites, auth.tenant, path.id),
});
