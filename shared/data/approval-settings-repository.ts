/**
 * A client's inbound approval settings in DynamoDB (docs/data-model.md): one item per client, with
 * its secrets. The first is put only where there is none (two first PUTs at once store one secret);
 * a replacement of its fields is written whatever came before it; a change made on what was read
 * (a rotation) holds only while the item is at the version it was read at.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ApprovalSettingsStore, StoredApprovalSettings } from '../domain/inbound-approval';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';
import { getRecord } from './records';
import { updateAnyVersion, updateVersioned } from './versioned-update';

export const dynamoApprovalSettingsStore: ApprovalSettingsStore = {
  // Consistent: a payment arriving right after a PUT is asked about under the settings just stored.
  get: (tenant) => getRecord<StoredApprovalSettings>(itemKeys.approvalSettings(tenant), { consistent: true }),

  async insert(settings) {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...itemKeys.approvalSettings(settings.tenant), entity: 'APPROVAL_SETTINGS', ...settings, version: 1 },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },

  replace: (tenant, changes, now) =>
    updateAnyVersion<StoredApprovalSettings>(itemKeys.approvalSettings(tenant), changes, now),

  update: (seen, changes, now) =>
    updateVersioned<StoredApprovalSettings>(itemKeys.approvalSettings(seen.tenant), seen, changes, now),
};
