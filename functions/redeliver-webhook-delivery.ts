/** POST /v1/webhooks/{id}/deliveries/{delivery_id}/redeliver: a new round of attempts, from now. */
import { systemClock } from '../shared/domain/clock';
import { redeliver } from '../shared/domain/delivery-log';
import { dynamoDeliveryWrites } from '../shared/data/deliveries-repository';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';
import { deliveriesAfterCommit } from './after-commit';

export const handler = httpHandler<undefined, Record<string, never>, { id: string; delivery_id: string }>({
  name: 'redeliverWebhookDelivery',
  handle: ({ auth, path }) =>
    redeliver(
      {
        webhooks: dynamoWebhookWrites,
        deliveries: dynamoDeliveryWrites,
        queue: deliveriesAfterCommit(),
        clock: systemClock,
      },
      auth.tenant,
      path.id,
      path.delivery_id,
    ),
});
