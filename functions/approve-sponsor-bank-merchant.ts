/** POST /sandbox/sponsor-bank/merchants: the sandbox's stand-in for the bank's manual approval. */
import { systemClock } from '../shared/domain/clock';
import { approveSponsorBankMerchant } from '../shared/domain/sponsor-bank';
import { dynamoSponsorBank } from '../shared/data/sponsor-bank-repository';
import { httpHandler } from '../shared/http/handler';
import type { ApproveSponsorBankMerchantRequest } from '../shared/schemas/sponsor-bank';
import { approveSponsorBankMerchantRequest } from '../shared/schemas/generated/sponsor-bank';

export const handler = httpHandler<ApproveSponsorBankMerchantRequest>({
  name: 'approveSponsorBankMerchant',
  body: approveSponsorBankMerchantRequest,
  status: 201,
  handle: ({ auth, body }) => approveSponsorBankMerchant(dynamoSponsorBank, body, systemClock.now(), auth.tenant),
});
