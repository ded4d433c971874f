/** POST /v1/webhooks/{id}/test: a `webhook.test` event sent to this webhook alone; answers its delivery. */
import { systemNewRecords } from '../shared/domain/clock';
import { sendTestEvent } from '../shared/domain/delivery-log';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'sendWebhookTest',
  oneTransaction: true,
  handle: ({ auth, path }) =>
    sendTestEvent(
      { ...systemNewRecords, webhooks: dynamoWebhookWrites, deliveries: dynamoDeliveryWrites },
      auth.tenant,
      path.id,
    ),
});
