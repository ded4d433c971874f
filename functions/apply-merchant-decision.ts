/**
 * PUT /network/v1/merchants/{identification_type}/{identification_number} (docs/onboarding.md): the
 * sponsor bank approves a merchant for one platform, with its accounts, or revokes it; signed by the
 * connector. A revocation deactivates the platform's customer and suspends its keys, audited as the
 * bank's doing in the platform's trail.
 */
import { systemNewRecords } from '../shared/domain/clock';
import { applyMerchantDecision } from '../shared/domain/onboarding';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { actingAs } from '../shared/data/audit-trail';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoKeyWalks } from '../shared/data/keys-repository';
import { dynamoSponsorBank } from '../shared/data/sponsor-bank-repository';
import { logger } from '../shared/http/logger';
import { networkHandler } from '../shared/http/network-handler';
import type { MerchantDecisionRequest } from '../shared/schemas/network';
import { merchantDecisionRequest } from '../shared/schemas/generated/network';
import { stagePublisher, verifyNetworkRequest } from './network-ports';

/** Who the audit trail names for the bank's changes to a platform's records. */
const SPONSOR_BANK_ACTOR = 'sponsor-bank';

const depsFor = (requestId: string) => ({
  sponsorBank: dynamoSponsorBank,
  customers: dynamoCustomerWrites,
  followers: dynamoAccountWrites,
  keys: dynamoKeyWalks,
  publisher: stagePublisher,
  ...systemNewRecords,
  onBehalfOf: <T>(platform: string, work: () => Promise<T>) =>
    actingAs({ tenant: platform, subject: SPONSOR_BANK_ACTOR, requestId }, work),
});

export const handler = networkHandler<
  MerchantDecisionRequest,
  { identification_type: string; identification_number: string }
>({
  name: 'applyMerchantDecision',
  body: merchantDecisionRequest,
  checksOwnPath: true,
  verify: verifyNetworkRequest,
  handle: async ({ body, path, requestId }) => {
    const answer = await applyMerchantDecision(depsFor(requestId), path, body);
    logger.info('Merchant decision', {
      status: answer.status,
      accounts: answer.accounts.length,
      customer_deactivated: answer.customer_deactivated,
    });
    return answer;
  },
});
