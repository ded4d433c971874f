/**
 * Accounts in DynamoDB (docs/data-model.md). One transaction writes the account (listed in the
 * tenant's collection and in its customer's scope), its balance item (shared/data/balances.ts), the
 * guard of its number in the customer's item collection, a check that the customer is still ACTIVE,
 * the first movement of its balance (the opening balance), the number's claim across all clients when
 * its approval binds it to one platform, the counters of both lists, and its audit event. Every read
 * answers the account with the balance its balance item holds.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AccountListFilters, AccountStore, InsertAccountResult, StoredAccount } from '../domain/accounts';
import type { CustomerStatus } from '../schemas/customers';
import { auditItems } from './audit-trail';
import { dynamo, tableName } from './client';
import { queryItemCollection } from './item-collection';
import { uniqueGuard } from './inserts';
import { balanceJoin, newBalancePut, readAccountItems, withBalance } from './balances';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import { insertListed, listedStore, recordGetter, underCustomer } from './listed-records';
import { openingMovement } from './movements';
import { activeOr } from './transactions';

/** The account item: the account without its balance, which its balance item holds. */
type AccountItem = Omit<StoredAccount, 'available_balance_cents'>;

const accountsAs = <T extends AccountItem>() =>
  underCustomer<T, AccountListFilters>('ACCOUNT', itemKeys.account, (filters) => ({
    customer_status: filters.customerStatus,
    customer_mobile: filters.mobile,
  }));

/** Accounts as read: each with its balance item's balance. */
const ACCOUNTS = { ...accountsAs<StoredAccount>(), join: balanceJoin };

/** How many accounts of one customer get their status copy updated at once. */
const PROPAGATION_CONCURRENCY = 8;

/** The accounts' get and writes, without the list reads (listedStore). */
export const dynamoAccountWrites: Omit<AccountStore, 'list' | 'walk'> = {
  ...recordGetter(ACCOUNTS),

  async get(id: string): Promise<StoredAccount | undefined> {
    const { account, balance } = await readAccountItems(id, false);
    return account ? withoutStorageAttributes<StoredAccount>(withBalance(account, balance)) : undefined;
  },

  insert: (
    { available_balance_cents: openingCents, ...account }: StoredAccount,
    claim = { acrossClients: false },
  ): Promise<InsertAccountResult> =>
    insertListed(
      accountsAs<AccountItem>(),
      account,
      [
        uniqueGuard(
          itemKeys.accountNumberGuard(account.customer_id, account.number),
          'ACCOUNT_NUMBER_GUARD',
          'account_id',
          account.id,
          (existingId) => ({ inserted: false, reason: 'number_taken', existingId }),
        ),
        // One customer per number across all clients: one real account, one ledger.
        ...(claim.acrossClients
          ? [
              uniqueGuard(
                itemKeys.accountNumberClaim(account.number),
                'ACCOUNT_NUMBER_CLAIM',
                'account_id',
                account.id,
                () => ({ inserted: false, reason: 'linked_elsewhere' }) as const,
              ),
            ]
          : []),
        // The status copied onto the account must be the customer's: a concurrent deactivation
        // either comes first (and this fails) or finds this account when it copies the status.
        activeOr({ inserted: false, reason: 'customer_inactive' }, itemKeys.customer(account.customer_id)),
      ],
      // The balance's ledger starts with it (docs/payments.md): its item, and the opening's movement.
      [
        newBalancePut(account.id, openingCents, account.created_at),
        openingMovement({ ...account, available_balance_cents: openingCents }),
        ...auditItems({
          action: 'account.linked',
          resourceType: 'ACCOUNT',
          resourceId: account.id,
          after: account,
          at: account.created_at,
        }),
      ],
    ),

  accountIdsOf: customerAccountIds,

  /**
   * The customer's status copy is not part of the account's representation, so updated_at stays:
   * account walks in updated_at order do not reorder when a customer is (de)activated.
   */
  async propagateCustomerStatus(
    customerId: string,
    status: CustomerStatus,
    version: number,
    known: readonly string[] = [],
  ): Promise<void> {
    const [now] = await Promise.all([customerAccountIds(customerId), copyCustomerStatus(known, status, version)]);
    const copied = new Set(known);
    await copyCustomerStatus(
      now.filter((id) => !copied.has(id)),
      status,
      version,
    );
  },
};

/** Every read and write of the accounts, lists included. */
export const dynamoAccountStore: AccountStore = /* @__PURE__ */ listedStore(ACCOUNTS, dynamoAccountWrites);

/** Writes a customer's status (of `version`) onto the accounts `ids`, unless one holds a newer version. */
async function copyCustomerStatus(ids: readonly string[], status: CustomerStatus, version: number): Promise<void> {
  for (let i = 0; i < ids.length; i += PROPAGATION_CONCURRENCY) {
    await Promise.all(
      ids.slice(i, i + PROPAGATION_CONCURRENCY).map(async (id) => {
        try {
          await dynamo().send(
            new UpdateCommand({
              TableName: tableName(),
              Key: itemKeys.account(id),
              UpdateExpression: 'SET customer_status = :status, customer_status_version = :version',
              ConditionExpression:
                'attribute_exists(pk) AND (attribute_not_exists(customer_status_version) OR customer_status_version <= :version)',
              ExpressionAttributeValues: { ':status': status, ':version': version },
            }),
          );
        } catch (error) {
          // A newer status is already there: it wins.
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }),
    );
  }
}

/** Every account of a customer, from the number guards in its item collection (strongly consistent). */
async function customerAccountIds(customerId: string): Promise<string[]> {
  const guards = await queryItemCollection(
    itemKeys.customer(customerId).pk,
    itemKeys.accountNumberGuardPrefix,
    'account_id',
  );
  return guards.map((guard) => String(guard['account_id']));
}
