/** GET /v1/webhooks: the client's webhooks, a page at a time, without their secrets. */
import { systemClock } from '../shared/domain/clock';
import { listWebhooks } from '../shared/domain/webhooks';
import { dynamoWebhookStore } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';
import type { WebhookListQuery } from '../shared/schemas/webhooks';
import { webhookListQuery } from '../shared/schemas/generated/webhooks';

export const handler = httpHandler<undefined, WebhookListQuery>({
  name: 'listWebhooks',
  query: webhookListQuery,
  handle: ({ auth, query }) => listWebhooks(dynamoWebhookStore, auth.tenant, query, systemClock.now()),
});
