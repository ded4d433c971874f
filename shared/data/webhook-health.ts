/**
 * A webhook's run of failed deliveries, on its item (shared/domain/webhook-health.ts): `failing_since`
 * set by the run's first failure and removed by a success, each a conditional UpdateItem that moves
 * neither the webhook's version nor its updated_at (they are the sender's notes, not a change of the
 * client's: a PATCH racing them still holds). Disabling it is a change: the webhook, its
 * `webhook.disabled` event and the audit event in one transaction, while the webhook is as read.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../domain/events';
import type { WebhookHealthStore } from '../domain/webhook-health';
import type { StoredWebhook } from '../domain/webhooks';
import { actorAuditItems } from './audit-trail';
import { dynamo, tableName } from './client';
import { eventsPut } from './events';
import { itemKeys, updatedAtKeys } from './item-keys';
import { writeUnless } from './transactions';
import { versionedUpdateItem } from './versioned-update';

/** Who disables a webhook in the audit trail: the service's delivery worker, no person nor client. */
export const DELIVERIES_ACTOR = 'system:webhook-deliveries';

/** An update that may find its condition false: a race another writer won, which is no failure. */
async function updateUnless(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<void> {
  try {
    await dynamo().send(new UpdateCommand(input));
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

export const dynamoWebhookHealth: WebhookHealthStore = {
  startFailing: (webhook: StoredWebhook, at: string) =>
    updateUnless({
      TableName: tableName(),
      Key: itemKeys.webhook(webhook.id),
      UpdateExpression: 'SET failing_since = :at',
      // Not on a webhook deleted meanwhile (an update would make an item of it), nor over a run's start.
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(failing_since)',
      ExpressionAttributeValues: { ':at': at },
    }),

  recover: async (webhook: StoredWebhook) =>
    // A webhook read with no run has none to end.
    webhook.failing_since === undefined
      ? undefined
      : updateUnless({
          TableName: tableName(),
          Key: itemKeys.webhook(webhook.id),
          UpdateExpression: 'REMOVE failing_since',
          ConditionExpression: 'failing_since = :since',
          ExpressionAttributeValues: { ':since': webhook.failing_since },
        }),

  async disable(seen: StoredWebhook, disabled: StoredWebhook, event: DomainEvent, evidence: string): Promise<boolean> {
    const now = disabled.updated_at;
    const { item } = versionedUpdateItem<StoredWebhook>(
      itemKeys.webhook(seen.id),
      seen,
      { enabled: false, disabled_reason: disabled.disabled_reason },
      now,
      { gsi2sk: updatedAtKeys(seen.id, now, false).gsi2sk },
    );
    // As read: no PATCH since (its version), and the same run (a success since would have ended it).
    const update = item.Update!;
    const conditioned = {
      Update: {
        ...update,
        ConditionExpression: `${update.ConditionExpression} AND failing_since = :since`,
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':since': seen.failing_since },
      },
    };
    // The audit event names the worker, what it rests on, and the event that told the other webhooks.
    const actor = { tenant: seen.tenant, subject: DELIVERIES_ACTOR, requestId: event.id, evidence };
    const refusal = await writeUnless(
      [{ item: conditioned, refused: () => 'changed' as const }],
      [
        ...eventsPut([event]),
        ...actorAuditItems(actor, {
          action: 'webhook.disabled',
          resourceType: 'WEBHOOK',
          resourceId: seen.id,
          before: seen,
          after: disabled,
          at: now,
        }),
      ],
    );
    return refusal === undefined;
  },
};
