/**
 * The signing secrets still stored in clear (shared/domain/secret-reseal.ts): a webhook's or an
 * inbound approval settings' `secrets` that is a plain list, from before sealing existed, where a
 * sealed one is a string. Found by scanning the whole table (a one-off operator command: it reads
 * every item once, consistently, a page at a time) and replaced one by one.
 *
 * A replacement holds only while the item still holds the list that was read, compared whole: a
 * rotation or a delete in between wins. It changes neither `version` nor `updated_at`: the secrets
 * are the same, only their stored form changes, so a rotation that read the clear list before it
 * still writes (its version condition holds) and what it made is kept.
 */
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClearSecrets, ClearSecretsKind, ClearSecretsStore } from '../domain/secret-reseal';
import type { SealedSecrets, WebhookSecret } from '../domain/webhooks';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';

/** The item's `entity` of each kind of record that holds signing secrets. */
const KIND_OF_ENTITY: Readonly<Record<string, ClearSecretsKind>> = {
  WEBHOOK: 'WEBHOOK',
  APPROVAL_SETTINGS: 'INBOUND_APPROVAL',
};

const keyOf = (found: ClearSecrets) =>
  found.kind === 'WEBHOOK' ? itemKeys.webhook(found.id) : itemKeys.approvalSettings(found.tenant);

async function* find(): AsyncIterable<ClearSecrets> {
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(
      new ScanCommand({
        TableName: tableName(),
        ConsistentRead: true,
        // `secrets` as a list (L): stored in clear. Sealed, it is a string (S).
        FilterExpression: 'attribute_type(#secrets, :list)',
        ProjectionExpression: '#entity, #tenant, #id, #secrets',
        ExpressionAttributeNames: { '#entity': 'entity', '#tenant': 'tenant', '#id': 'id', '#secrets': 'secrets' },
        ExpressionAttributeValues: { ':list': 'L' },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const kind = KIND_OF_ENTITY[item['entity'] as string];
      // No other record holds signing secrets; one that did would be named here before being sealed.
      if (!kind) throw new Error(`An item of entity ${String(item['entity'])} holds secrets in clear: unknown owner`);
      const tenant = item['tenant'] as string;
      yield {
        kind,
        tenant,
        id: kind === 'WEBHOOK' ? (item['id'] as string) : tenant,
        clear: item['secrets'] as WebhookSecret[],
      };
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

async function replace(found: ClearSecrets, sealed: SealedSecrets): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keyOf(found),
        UpdateExpression: 'SET #secrets = :sealed',
        // The very list that was read: anything else (sealed by a rotation, gone) is left as it is.
        ConditionExpression: '#secrets = :clear',
        ExpressionAttributeNames: { '#secrets': 'secrets' },
        ExpressionAttributeValues: { ':sealed': sealed, ':clear': found.clear },
      }),
    );
    return true;
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

export const dynamoClearSecretsStore: ClearSecretsStore = { find, replace };
