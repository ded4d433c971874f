/** PUT /v1/settings/inbound-approval: the client's inbound approval settings, replaced (docs/inbound-approval.md). */
import { systemClock } from '../shared/domain/clock';
import { putApprovalSettings } from '../shared/domain/inbound-approval';
import { randomWebhookSecrets } from '../shared/domain/webhooks';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { webhookUrlDeps } from '../shared/data/host-resolver';
import { secretSealer } from '../shared/data/secret-sealing';
import { httpHandler } from '../shared/http/handler';
import type { PutInboundApprovalRequest } from '../shared/schemas/inbound-approval';
import { putInboundApprovalRequest } from '../shared/schemas/generated/inbound-approval';

export const handler = httpHandler<PutInboundApprovalRequest>({
  name: 'putInboundApproval',
  body: putInboundApprovalRequest,
  // The secret is shown once: a replay under the same Idempotency-Key answers without it.
  withheldOnReplay: ['secret'],
  handle: ({ auth, body }) =>
    putApprovalSettings(
      {
        settings: dynamoApprovalSettingsStore,
        secrets: randomWebhookSecrets,
        sealer: secretSealer(),
        clock: systemClock,
        ...webhookUrlDeps(),
      },
      auth.tenant,
      body,
    ),
});
