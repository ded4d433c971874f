/** GET /v1/settings/inbound-approval: the client's inbound approval settings, without the secret. */
import { getApprovalSettings } from '../shared/domain/inbound-approval';
import { dynamoApprovalSettingsStore } from '../shared/data/approval-settings-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler({
  name: 'getInboundApproval',
  handle: ({ auth }) => getApprovalSettings(dynamoApprovalSettingsStore, auth.tenant),
});
