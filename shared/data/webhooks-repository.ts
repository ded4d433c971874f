/**
 * Webhooks in DynamoDB (docs/data-model.md, docs/webhooks.md): listed in the tenant's `WEBHOOK`
 * collection only (no scope: the list has no filter), with the secrets in the item. A change holds
 * only while the webhook is at the version it was read at; a delete takes it out of its list's
 * counter in the same transaction. Every change writes its audit event in its own transaction.
 */
import type { StoredWebhook, WebhookChanges, WebhookListFilters, WebhookStore } from '../domain/webhooks';
import { collectionPartition, itemKeys, updatedAtKeys } from './item-keys';
import { queryAll } from './item-collection';
import { deleteListed, insertListed, listedReads, type ListedKind } from './listed-records';
import { auditItems } from './audit-trail';
import { writeUnless } from './transactions';
import { versionedUpdateItem } from './versioned-update';

/** What an audit event says of the webhook it is about. */
const audited = (webhook: StoredWebhook) => ({ resourceType: 'WEBHOOK' as const, resourceId: webhook.id });

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

export const dynamoWebhookStore: WebhookStore = {
  ...listedReads(WEBHOOKS),

  async insert(webhook: StoredWebhook): Promise<void> {
    // A fresh UUID: the insert's only condition (the item not there yet) cannot fail.
    await insertListed<StoredWebhook, never>(
      WEBHOOKS,
      { ...webhook, version: 1 } as WebhookItem,
      [],
      auditItems({ action: 'webhook.created', ...audited(webhook), after: webhook, at: webhook.created_at }),
    );
  },

  async update(seen: StoredWebhook, changes: WebhookChanges, now: string): Promise<StoredWebhook | undefined> {
    const { item, after } = versionedUpdateItem<StoredWebhook>(itemKeys.webhook(seen.id), seen, changes, now, {
      gsi2sk: updatedAtKeys(seen.id, now, false).gsi2sk,
    });
    const action = changes.secrets === undefined ? 'webhook.updated' : 'webhook.secret_rotated';
    const refusal = await writeUnless(
      [{ item, refused: () => 'changed' as const }],
      auditItems({ action, ...audited(seen), before: seen, after, at: now }),
    );
    return refusal ? undefined : after;
  },

  async webhooksOf(tenant: string): Promise<readonly StoredWebhook[]> {
    // The tenant's webhooks are listed only in gsi1, which is eventually consistent: it names them,
    // then each is read from the table, consistently, so that a webhook disabled, deleted or changed
    // a moment ago counts as it is now. (One created within the index's lag, typically under a
    // second, may still be missing: it existed only just before the event.)
    const listed = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :partition',
      ExpressionAttributeValues: { ':partition': collectionPartition(tenant, WEBHOOKS.name) },
      ProjectionExpression: 'id',
    });
    const read = await Promise.all(listed.map((item) => dynamoWebhookStore.get(item['id'] as string)));
    return read.filter((webhook): webhook is StoredWebhook => webhook !== undefined);
  },

  delete: (webhook: StoredWebhook): Promise<boolean> =>
    deleteListed(
      WEBHOOKS,
      webhook,
      auditItems({ action: 'webhook.deleted', ...audited(webhook), before: webhook, at: new Date().toISOString() }),
    ),
};
