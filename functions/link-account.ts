/** POST /accounts and POST /v1/accounts: link an account approved at the sponsor bank (docs/contract.md, Accounts). */
import { systemNewRecords } from '../shared/domain/clock';
import { linkAccount } from '../shared/domain/accounts';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoSponsorBank } from '../shared/data/sponsor-bank-repository';
import { httpHandler } from '../shared/http/handler';
import type { LinkAccountRequest } from '../shared/schemas/accounts';
import { linkAccountRequest } from '../shared/schemas/generated/accounts';

const deps = {
  ...systemNewRecords,
  customers: dynamoCustomerWrites,
  accounts: dynamoAccountWrites,
  sponsorBank: dynamoSponsorBank,
};

export const handler = httpHandler<LinkAccountRequest>({
  name: 'linkAccount',
  body: linkAccountRequest,
  oneTransaction: true,
  handle: ({ auth, body }) => linkAccount(deps, auth.tenant, body),
});
