/** The sponsor bank's approved merchants and accounts (sandbox records), keyed by NIT. */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovedAccount, ApprovedMerchant, SponsorBankStore } from '../domain/sponsor-bank';
import { dynamo, tableName } from './client';
import { queryItemCollection } from './item-collection';
import { itemKeys } from './item-keys';

interface AccountItem {
  readonly number: string;
  readonly available_balance_cents: number;
}

export const dynamoSponsorBank: SponsorBankStore = {
  async findMerchant(nit: string): Promise<ApprovedMerchant | undefined> {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.sponsorMerchant(nit) }),
    );
    if (!Item) return undefined;
    return {
      identificationType: Item['identification_type'],
      identificationNumber: Item['identification_number'],
      businessName: Item['business_name'],
      approvedAt: Item['approved_at'],
    };
  },

  async findAccount(nit: string, number: string): Promise<ApprovedAccount | undefined> {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: tableName(), Key: itemKeys.sponsorAccount(nit, number) }),
    );
    if (!Item) return undefined;
    const account = Item as AccountItem;
    return { number: account.number, availableBalanceCents: account.available_balance_cents };
  },

  async saveMerchant(merchant: ApprovedMerchant, accounts: readonly ApprovedAccount[]): Promise<ApprovedAccount[]> {
    const TableName = tableName();
    const nit = merchant.identificationNumber;
    await dynamo().send(
      new UpdateCommand({
        TableName,
        Key: itemKeys.sponsorMerchant(nit),
        UpdateExpression:
          'SET entity = :entity, identification_type = :type, identification_number = :nit, business_name = :name, approved_at = if_not_exists(approved_at, :now)',
        ExpressionAttributeValues: {
          ':entity': 'SPONSOR_MERCHANT',
          ':type': merchant.identificationType,
          ':nit': nit,
          ':name': merchant.businessName,
          ':now': merchant.approvedAt,
        },
      }),
    );
    // An account the bank already holds keeps its balance: approval only adds.
    await Promise.all(
      accounts.map((account) =>
        dynamo()
          .send(
            new PutCommand({
              TableName,
              Item: {
                ...itemKeys.sponsorAccount(nit, account.number),
                entity: 'SPONSOR_ACCOUNT',
                number: account.number,
                available_balance_cents: account.availableBalanceCents,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof ConditionalCheckFailedException)) throw error;
          }),
      ),
    );
    return listAccounts(nit);
  },
};

async function listAccounts(nit: string): Promise<ApprovedAccount[]> {
  const items = (await queryItemCollection(
    itemKeys.sponsorMerchant(nit).pk,
    itemKeys.sponsorAccountPrefix,
  )) as unknown as AccountItem[];
  return items.map((item) => ({ number: item.number, availableBalanceCents: item.available_balance_cents }));
}
