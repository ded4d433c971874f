/** POST /v1/webhooks/{id}/rotate-secret: a new secret, shown once; the previous one signs for 24 h more. */
import { systemClock } from '../shared/domain/clock';
import { randomWebhookSecrets, rotateWebhookSecret } from '../shared/domain/webhooks';
import { secretSealer } from '../shared/data/secret-sealing';
import { dynamoWebhookWrites } from '../shared/data/webhooks-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'rotateWebhookSecret',
  // The secret is shown once: a replay under the same Idempotency-Key answers without it.
  withheldOnReplay: ['secret'],
  handle: ({ auth, path }) =>
    rotateWebhookSecret(
      { webhooks: dynamoWebhookWrites, clock: systemClock, secrets: randomWebhookSecrets, sealer: secretSealer() },
      auth.tenant,
      path.id,
    ),
});
