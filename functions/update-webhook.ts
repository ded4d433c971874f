/** PATCH /v1/webhooks/{id}: change the URL (checked as on create), events, delivery mode, enabled, description. */
import { systemClock } from '../shared/domain/clock';
import { updateWebhook } from '../shared/domain/webhooks';
import { webhookUrlDeps } from '../shared/data/host-resolver';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';
import type { UpdateWebhookRequest } from '../shared/schemas/webhooks';
import { updateWebhookRequest } from '../shared/schemas/generated/webhooks';

export const handler = httpHandler<UpdateWebhookRequest, Record<string, never>, { id: string }>({
  name: 'updateWebhook',
  body: updateWebhookRequest,
  handle: ({ auth, body, path }) =>
    updateWebhook(
      { ...webhookUrlDeps(), webhooks: dynamoWebhookWrites, clock: systemClock },
      auth.tenant,
      path.id,
      body,
    ),
});
