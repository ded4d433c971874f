/**
 * Webhooks in DynamoDB (docs/data-model.md, docs/webhooks.md): listed in the tenant's `WEBHOOK`
 * collection only (no scope: the list has no filter), with the secrets in the item. A change holds
 * only while the webhook is at the version it was read at; a delete takes it out of its list's
 * counter in the same transaction.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredWebhook, WebhookChanges, WebhookListFilters, WebhookStore } from '../domain/webhooks';
import { dynamo, tableName } from './client';
import { collectionPartition, itemKeys, updatedAtKeys, withoutStorageAttributes } from './item-keys';
import { queryAll } from './item-collection';
import { deleteListed, insertListed, listedReads, type ListedKind } from './listed-records';

/** The stored item: the domain's webhook and the version its changes are conditioned on. */
type WebhookItem = StoredWebhook & { readonly version: number };

const WEBHOOKS: ListedKind<StoredWebhook, WebhookListFilters> = {
  name: 'WEBHOOK',
  key: itemKeys.webhook,
  scopeOf: () => undefined,
  where: () => ({}),
  // The sender reads the webhook a change just made (disabled, a new URL, a rotated secret).
  consistentGet: true,
};

/** The version a read webhook carries (the store's get answers the item, version included). */
const versionOf = (webhook: StoredWebhook): number => (webhook as WebhookItem).version;

export const dynamoWebhookStore: WebhookStore = {
  ...listedReads(WEBHOOKS),

  async insert(webhook: StoredWebhook): Promise<void> {
    // A fresh UUID: the insert's only condition (the item not there yet) cannot fail.
    await insertListed<StoredWebhook, never>(WEBHOOKS, { ...webhook, version: 1 } as WebhookItem, []);
  },

  async update(seen: StoredWebhook, changes: WebhookChanges, now: string): Promise<StoredWebhook | undefined> {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    const names = Object.fromEntries(fields.map(([name], i) => [`#f${i}`, name]));
    const values = Object.fromEntries(fields.map(([, value], i) => [`:f${i}`, value]));
    const sets = fields.map((_, i) => `#f${i} = :f${i}`);
    const version = versionOf(seen);
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.webhook(seen.id),
          UpdateExpression: `SET ${[...sets, 'updated_at = :now', 'gsi2sk = :gsi2sk', 'version = :next'].join(', ')}`,
          ConditionExpression: 'version = :seen',
          ...(fields.length ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: {
            ...values,
            ':now': now,
            ':gsi2sk': updatedAtKeys(seen.id, now, false).gsi2sk,
            ':seen': version,
            ':next': version + 1,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return withoutStorageAttributes<StoredWebhook>(Attributes!);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  },

  async webhooksOf(tenant: string): Promise<readonly StoredWebhook[]> {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :partition',
      ExpressionAttributeValues: { ':partition': collectionPartition(tenant, WEBHOOKS.name) },
    });
    return items.map((item) => withoutStorageAttributes<StoredWebhook>(item));
  },

  delete: (webhook: StoredWebhook): Promise<boolean> => deleteListed(WEBHOOKS, webhook),
};
