/** POST /v1/settings/inbound-approval/rotate-secret: a new secret, shown once; the previous one signs for 24 h more. */
import { systemClock } from '../shared/domain/clock';
import { rotateApprovalSecret } from '../shared/domain/inbound-approval';
import { randomWebhookSecrets } from '../shared/domain/webhooks';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { secretSealer } from '../shared/data/secret-sealing';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler({
  name: 'rotateInboundApprovalSecret',
  // The secret is shown once: a replay under the same Idempotency-Key answers without it.
  withheldOnReplay: ['secret'],
  handle: ({ auth }) =>
    rotateApprovalSecret(
      {
        settings: dynamoApprovalSettingsStore,
        clock: systemClock,
        secrets: randomWebhookSecrets,
        sealer: secretSealer(),
      },
      auth.tenant,
    ),
});
