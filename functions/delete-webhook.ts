/** DELETE /v1/webhooks/{id}: the webhook is gone; nothing more is sent to it. */
import { deleteWebhook } from '../shared/domain/webhooks';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'deleteWebhook',
  handle: ({ auth, path }) => deleteWebhook(dynamoWebhookWrites, auth.tenant, path.id),
});
