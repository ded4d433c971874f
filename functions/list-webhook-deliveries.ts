/** GET /v1/webhooks/{id}/deliveries: the webhook's deliveries, a page at a time, each with every attempt. */
import { systemClock } from '../shared/domain/clock';
import { listDeliveries } from '../shared/domain/delivery-log';
import { dynamoDeliveryStore } from '../shared/data/deliveries-repository';
import { httpHandler } from '../shared/http/handler';
import type { WebhookDeliveryListQuery } from '../shared/schemas/webhooks';
import { webhookDeliveryListQuery } from '../shared/schemas/generated/webhooks';

export const handler = httpHandler<undefined, WebhookDeliveryListQuery, { id: string }>({
  name: 'listWebhookDeliveries',
  query: webhookDeliveryListQuery,
  handle: ({ auth, path, query }) =>
    listDeliveries(dynamoDeliveryStore, auth.tenant, path.id, query, systemClock.now()),
});
