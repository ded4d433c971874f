/** GET /v1/accounts and GET /accounts: the client's accounts, a page at a time (docs/pagination.md). */
import { listAccounts } from '../shared/domain/accounts';
import { systemClock } from '../shared/domain/clock';
import { dynamoAccountStore } from '../shared/data/accounts-repository';
import { runtimeConfig } from '../shared/runtime/config';
import { httpHandler } from '../shared/http/handler';
import type { AccountListQuery } from '../shared/schemas/accounts';
import { accountListQuery } from '../shared/schemas/generated/accounts';

export const handler = httpHandler<undefined, AccountListQuery>({
  name: 'listAccounts',
  query: accountListQuery,
  handle: ({ auth, query }) =>
    listAccounts(
      { accounts: dynamoAccountStore, bankName: runtimeConfig().participant.name },
      auth.tenant,
      query,
      systemClock.now(),
    ),
});
