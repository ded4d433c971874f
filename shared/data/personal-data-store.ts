/**
 * The table's side of a data subject's request (shared/domain/personal-data.ts, docs/privacy.md).
 * No index names a person by their identification, so finding them reads the whole table: a Scan,
 * run by an operator's command only, never by a route. Its cost is the table's size: half a read
 * unit per 4 KB read (eventually consistent), docs/privacy.md says it in money.
 */
import { DeleteCommand, ScanCommand, UpdateCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { FoundItem, PersonalDataStore, RequestAuthor, RequestSummary } from '../domain/personal-data';
import type { StoredRecipient } from '../domain/recipients';
import { actorAuditItems } from './audit-trail';
import { dynamo, tableName } from './client';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import { readPayment } from './payment-details';
import { dynamoRecipientWrites } from './recipients-repository';
import { transactWrite } from './transactions';

type Item = Record<string, unknown>;

const PAYMENT_PREFIX = 'PAYMENT#';

/** The client an item belongs to: its `tenant`, or an idempotency record's, in its key. */
function tenantOf(item: Item): string | undefined {
  if (typeof item['tenant'] === 'string') return item['tenant'];
  if (item['entity'] === 'IDEMPOTENCY') return String(item['pk']).split('#')[1];
  return undefined;
}

const foundItem = (item: Item, entity = String(item['entity'])): FoundItem => {
  const tenant = tenantOf(item);
  const expiresAt = item['expires_at'];
  return {
    pk: String(item['pk']),
    sk: String(item['sk']),
    entity,
    record: withoutStorageAttributes(item),
    ...(tenant === undefined ? {} : { tenant }),
    ...(typeof expiresAt === 'number' ? { expires_at: new Date(expiresAt * 1000).toISOString() } : {}),
  };
};

/**
 * A payment's detail (its counterparty) is found as its payment, read whole: what names the person
 * is the payment, and an export shows it as GET /v1/payments/{id} reads it.
 */
async function asPayment(detail: Item): Promise<FoundItem> {
  const id = String(detail['pk']).slice(PAYMENT_PREFIX.length);
  const payment = await readPayment(id, false);
  if (!payment) return foundItem(detail);
  return { ...foundItem({ ...payment, ...itemKeys.payment(id), entity: 'PAYMENT' }), tenant: payment.tenant };
}

export const dynamoPersonalDataStore: PersonalDataStore = {
  async find(names) {
    const found = new Map<string, FoundItem>();
    let ExclusiveStartKey: Item | undefined;
    do {
      const page: ScanCommandOutput = await dynamo().send(
        new ScanCommand({ TableName: tableName(), ExclusiveStartKey }),
      );
      for (const item of page.Items ?? []) {
        if (!names(item)) continue;
        const entry = item['entity'] === 'PAYMENT_DETAIL' ? await asPayment(item) : foundItem(item);
        found.set(`${entry.pk}|${entry.sk}`, entry);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return [...found.values()];
  },

  async remove(item) {
    await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: { pk: item.pk, sk: item.sk } }));
  },

  async removeRecipient(item) {
    await dynamoRecipientWrites.delete({ ...item.record, tenant: item.tenant } as StoredRecipient);
  },

  async update(item, fields) {
    const names = Object.keys(fields);
    if (names.length === 0) return;
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
          ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
        }),
      );
    } catch (error) {
      // Gone since it was read (its TTL, a client's delete): nothing left to mask.
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    }
  },

  async audit(author: RequestAuthor, tenant: string, summary: RequestSummary) {
    const { action, ...fields } = summary;
    await transactWrite({
      TransactItems: actorAuditItems(
        { tenant, subject: `operator:${author.operator}`, requestId: author.requestId },
        {
          action,
          resourceType: 'PERSONAL_DATA',
          resourceId: author.requestId,
          after: fields,
          at: new Date().toISOString(),
        },
      ),
    });
  },
};
