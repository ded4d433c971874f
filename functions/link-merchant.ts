/** POST /v1/customers/business/link: link a merchant approved at the sponsor bank (docs/contract.md, Customers). */
import { systemNewRecords } from '../shared/domain/clock';
import { linkMerchant } from '../shared/domain/customers';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoSponsorBank } from '../shared/data/sponsor-bank-repository';
import { httpHandler } from '../shared/http/handler';
import type { LinkMerchantRequest } from '../shared/schemas/customers';
import { linkMerchantRequest } from '../shared/schemas/generated/customers';

const deps = { ...systemNewRecords, customers: dynamoCustomerWrites, sponsorBank: dynamoSponsorBank };

export const handler = httpHandler<LinkMerchantRequest>({
  name: 'linkMerchant',
  body: linkMerchantRequest,
  oneTransaction: true,
  handle: ({ auth, body }) => linkMerchant(deps, auth.tenant, body),
});
