/**
 * QR codes in DynamoDB (docs/data-model.md, docs/qrcodes.md). One transaction writes the code
 * (listed in the tenant's collection and in its customer's scope) and its reference guard, checks
 * that the customer, the key and the key's account are ACTIVE, and updates the counters of both
 * lists: a key suspended or a customer deactivated a moment before can never get a new code.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { PageRequest, PageResult } from '../domain/lists';
import type { InsertQrCodeResult, QrCodeListFilters, QrCodeStore, StoredQrCode } from '../domain/qrcodes';
import { dynamo, tableName } from './client';
import { guardPut, listedRecordInsert } from './inserts';
import { itemKeys, updatedAtKeys } from './item-keys';
import { getRecord } from './records';
import { listRecords } from './pagination';
import { failedConditions, transactWrite, whileActive } from './transactions';

export const QR_CODES_COLLECTION = 'QRCODE';

/** The scope of a code in its collection: its customer (the customer_id filter reads only it). */
export const qrCodeCustomerScope = (customerId: string): string => `CUSTOMER#${customerId}`;

/**
 * The code's item in the transaction of a payment of it: the code must be ACTIVE, and a DYNAMIC code
 * (one payment) becomes PAID with it; a static or hybrid code stays ACTIVE for the next payment.
 */
export function payableQrCode(code: StoredQrCode, now: string) {
  const Key = itemKeys.qrCode(code.id);
  const active = {
    ConditionExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
  };
  if (code.type !== 'DYNAMIC') {
    return {
      ConditionCheck: { TableName: tableName(), Key, ...active, ExpressionAttributeValues: { ':active': 'ACTIVE' } },
    };
  }
  const moved = updatedAtKeys(code.id, now, true);
  return {
    Update: {
      TableName: tableName(),
      Key,
      UpdateExpression: 'SET #status = :paid, updated_at = :now, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk',
      ...active,
      ExpressionAttributeValues: {
        ':active': 'ACTIVE',
        ':paid': 'PAID',
        ':now': now,
        ':gsi2sk': moved.gsi2sk,
        ':gsi4sk': moved.gsi4sk,
      },
    },
  };
}

export const dynamoQrCodeStore: QrCodeStore = {
  async insert(code: StoredQrCode): Promise<InsertQrCodeResult> {
    const listing = { collection: QR_CODES_COLLECTION, scope: qrCodeCustomerScope(code.customer_id) };
    try {
      await transactWrite({
        TransactItems: [
          guardPut(itemKeys.qrReferenceGuard(code.customer_id, code.reference), 'QR_REFERENCE_GUARD', {
            qr_code_id: code.id,
          }),
          whileActive(itemKeys.customer(code.customer_id)),
          whileActive(itemKeys.brebKey(code.key_id)),
          whileActive(itemKeys.account(code.account_id), 'account_status'),
          ...listedRecordInsert(code, itemKeys.qrCode(code.id), 'QRCODE', listing),
        ],
      });
      return { inserted: true };
    } catch (error) {
      const failed = failedConditions(error);
      if (failed?.has(0)) {
        return { inserted: false, reason: 'reference_taken', existingId: String(failed.get(0)?.['qr_code_id']) };
      }
      if (failed?.has(1)) return { inserted: false, reason: 'customer_inactive' };
      if (failed?.has(2)) return { inserted: false, reason: 'key_inactive' };
      if (failed?.has(3)) return { inserted: false, reason: 'account_inactive' };
      throw error;
    }
  },

  async get(id: string): Promise<StoredQrCode | undefined> {
    return getRecord<StoredQrCode>(itemKeys.qrCode(id));
  },

  list: (tenant: string, filters: QrCodeListFilters, request: PageRequest): Promise<PageResult<StoredQrCode>> =>
    listRecords<StoredQrCode>({
      tenant,
      collection: QR_CODES_COLLECTION,
      scope: filters.customerId && qrCodeCustomerScope(filters.customerId),
      equals: { key_id: filters.keyId, type: filters.type, channel: filters.channel, status: filters.status },
      request,
    }),

  async markDeleted(code: StoredQrCode, now: string): Promise<boolean> {
    const moved = updatedAtKeys(code.id, now, true);
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.qrCode(code.id),
          UpdateExpression: 'SET #status = :deleted, updated_at = :now, gsi2sk = :gsi2sk, gsi4sk = :gsi4sk',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':deleted': 'DELETED',
            ':from': code.status,
            ':now': now,
            ':gsi2sk': moved.gsi2sk,
            ':gsi4sk': moved.gsi4sk,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },
};
