/** POST /v1/webhooks: a webhook for the client's events; the answer shows its secret, once (docs/webhooks.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { createWebhook, randomWebhookSecrets } from '../shared/domain/webhooks';
import { webhookUrlDeps } from '../shared/data/host-resolver';
import { secretSealer } from '../shared/data/secret-sealing';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';
import type { CreateWebhookRequest } from '../shared/schemas/webhooks';
import { createWebhookRequest } from '../shared/schemas/generated/webhooks';

export const handler = httpHandler<CreateWebhookRequest>({
  name: 'createWebhook',
  body: createWebhookRequest,
  oneTransaction: true,
  // The secret is shown once: a replay under the same Idempotency-Key answers without it.
  withheldOnReplay: ['secret'],
  handle: ({ auth, body }) =>
    createWebhook(
      {
        ...systemNewRecords,
        ...webhookUrlDeps(),
        webhooks: dynamoWebhookWrites,
        secrets: randomWebhookSecrets,
        sealer: secretSealer(),
      },
      auth.tenant,
      body,
    ),
});
