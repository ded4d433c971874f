/**
 * Webhooks in DynamoDB (docs/data-model.md, docs/webhooks.md): listed in the tenant's `WEBHOOK`
 * collection only (no scope: the list has no filter), with the secrets in the item. A change holds
 * only while the webhook is at the version it was read at; a delete takes it out of its list's
 * counter in the same transaction. Every change writes its audit event in its own transaction. A
 * create and a delete also add the webhook's id to, and take it from, its tenant's webhook set
 * (itemKeys.webhookSet), in that same transaction: the dispatcher's consistent list of the tenant's
 * webhooks.
 */
import type { StoredWebhook, WebhookChanges, WebhookListFilters, WebhookStore } from '../domain/webhooks';
import { tableName } from './client';
import { collectionPartition, itemKeys, updatedAtKeys } from './item-keys';
import { queryAll } from './item-collection';
import { deleteListed, insertListed, listedStore, recordGetter, type ListedKind } from './listed-records';
import { auditItems } from './audit-trail';
import { getRecord } from './records';
import { writeUnless, type TransactItem } from './transactions';
import { versionedUpdateItem } from './versioned-update';

/** What an audit event says of the webhook it is about. */
const audited = (webhook: StoredWebhook) => ({ resourceType: 'WEBHOOK' as const, resourceId: webhook.id });

/** What a webhook keeps of its failed deliveries (shared/data/webhook-health.ts): a new start removes them. */
const FAILURE_ATTRIBUTES = ['failing_since', 'disabled_reason'] as const;

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

/** The tenant's webhook set as stored: no `ids` once its last webhook is deleted (no set is empty). */
interface WebhookSetItem {
  readonly ids?: ReadonlySet<string>;
}

/**
 * The transaction item that adds a webhook's id to its tenant's webhook set (`ADD`, creating the item
 * on the tenant's first webhook) or takes it out (`DELETE`). One item per tenant, so two creates of
 * one tenant at the same moment conflict: transactWrite retries the loser (shared/data/transactions.ts),
 * and webhooks are created rarely. An `ADD` holds only while the set has fewer than `limit` ids:
 * the limit, kept exactly however many creates race. (A webhook created before the set existed is in
 * none: such an old client's limit counts only the ones created since.)
 */
const webhookSetChange = (webhook: StoredWebhook, change: 'ADD' | 'DELETE', limit?: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: itemKeys.webhookSet(webhook.tenant),
    UpdateExpression: `SET entity = :entity, #tenant = :tenant ${change} #ids :id`,
    ExpressionAttributeNames: { '#tenant': 'tenant', '#ids': 'ids' },
    ExpressionAttributeValues: {
      ':entity': 'WEBHOOK_SET',
      ':tenant': webhook.tenant,
      ':id': new Set([webhook.id]),
      ...(limit === undefined ? {} : { ':max': limit }),
    },
    ...(limit === undefined ? {} : { ConditionExpression: 'attribute_not_exists(#ids) OR size(#ids) < :max' }),
  },
});

/** The webhooks' get and writes: what createWebhook and the sender take, without the list reads. */
export const dynamoWebhookWrites: Omit<WebhookStore, 'list' | 'walk'> = {
  ...recordGetter(WEBHOOKS),

  async insert(webhook: StoredWebhook, limit: number): Promise<'inserted' | 'limit_reached'> {
    // A fresh UUID: the webhook's own condition (the item not there yet) cannot fail; the set's can.
    const outcome = await insertListed<StoredWebhook, 'limit_reached'>(
      WEBHOOKS,
      { ...webhook, version: 1 } as WebhookItem,
      [{ item: webhookSetChange(webhook, 'ADD', limit), refused: () => 'limit_reached' }],
      auditItems({ action: 'webhook.created', ...audited(webhook), after: webhook, at: webhook.created_at }),
    );
    return outcome === 'limit_reached' ? outcome : 'inserted';
  },

  async update(seen: StoredWebhook, changes: WebhookChanges, now: string): Promise<StoredWebhook | undefined> {
    const { clearFailures, ...fields } = changes;
    const { item, after } = versionedUpdateItem<StoredWebhook>(
      itemKeys.webhook(seen.id),
      seen,
      fields,
      now,
      { gsi2sk: updatedAtKeys(seen.id, now, false).gsi2sk },
      clearFailures ? FAILURE_ATTRIBUTES.filter((name) => seen[name] !== undefined) : [],
    );
    const action = changes.secrets === undefined ? 'webhook.updated' : 'webhook.secret_rotated';
    const refusal = await writeUnless(
      [{ item, refused: () => 'changed' as const }],
      auditItems({ action, ...audited(seen), before: seen, after, at: now }),
    );
    return refusal ? undefined : after;
  },

  async webhooksOf(tenant: string): Promise<readonly StoredWebhook[]> {
    // The tenant's webhook set, read consistently, names every webhook created since the set exists,
    // one created a moment before the event included: gsi1 is eventually consistent and may not list
    // it yet. Webhooks created before the set existed are in no set; they are that old, so gsi1 has
    // long listed them: the ids are the union of both. Each webhook is then read from the table,
    // consistently, so that one disabled, deleted or changed a moment ago counts as it is now.
    const [set, listed] = await Promise.all([
      getRecord<WebhookSetItem>(itemKeys.webhookSet(tenant), { consistent: true }),
      queryAll({
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :partition',
        ExpressionAttributeValues: { ':partition': collectionPartition(tenant, WEBHOOKS.name) },
        ProjectionExpression: 'id',
      }),
    ]);
    const ids = new Set([...(set?.ids ?? []), ...listed.map((item) => item['id'] as string)]);
    const read = await Promise.all([...ids].map((id) => dynamoWebhookWrites.get(id)));
    return read.filter((webhook): webhook is StoredWebhook => webhook?.tenant === tenant);
  },

  delete: (webhook: StoredWebhook): Promise<boolean> =>
    deleteListed(WEBHOOKS, webhook, [
      webhookSetChange(webhook, 'DELETE'),
      ...auditItems({
        action: 'webhook.deleted',
        ...audited(webhook),
        before: webhook,
        at: new Date().toISOString(),
      }),
    ]),
};

/** Every read and write of the webhooks, lists included. */
export const dynamoWebhookStore: WebhookStore = /* @__PURE__ */ listedStore(WEBHOOKS, dynamoWebhookWrites);
