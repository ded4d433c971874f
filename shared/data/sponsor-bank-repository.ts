/**
 * The sponsor bank's approved merchants and accounts, keyed by NIT: the bank's decisions on a
 * connector stage, the sandbox's records on the others.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalWriter, ApprovedAccount, ApprovedMerchant, SponsorBankStore } from '../domain/sponsor-bank';
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
      // Neither on an approval stored before approvals named them (sandbox stages only).
      ...(Item['platform'] === undefined ? {} : { platform: Item['platform'] }),
      ...(Item['approval_status'] === undefined ? {} : { status: Item['approval_status'] }),
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

  async saveMerchant(
    merchant: ApprovedMerchant,
    accounts: readonly ApprovedAccount[],
    writer: ApprovalWriter = 'bank',
  ): Promise<ApprovedAccount[] | 'other_platform'> {
    const TableName = tableName();
    const nit = merchant.identificationNumber;
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName,
          Key: itemKeys.sponsorMerchant(nit),
          UpdateExpression:
            'SET entity = :entity, identification_type = :type, identification_number = :nit, business_name = :name, ' +
            '#platform = :platform, approval_status = :status, approved_at = if_not_exists(approved_at, :now)',
          // A platform writes only its own approvals (or a new NIT, or one stored before approvals
          // named their platform); the bank writes any.
          ...(writer === 'platform'
            ? {
                ConditionExpression:
                  'attribute_not_exists(pk) OR attribute_not_exists(#platform) OR #platform = :platform',
              }
            : {}),
          ExpressionAttributeNames: { '#platform': 'platform' },
          ExpressionAttributeValues: {
            ':entity': 'SPONSOR_MERCHANT',
            ':type': merchant.identificationType,
            ':nit': nit,
            ':name': merchant.businessName,
            ':platform': merchant.platform,
            ':status': merchant.status,
            ':now': merchant.approvedAt,
          },
        }),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'other_platform';
      throw error;
    }
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
