/**
 * QR codes in DynamoDB (docs/data-model.md, docs/qrcodes.md). One transaction writes the code
 * (listed in the tenant's collection and in its customer's scope) and its reference guard, checks
 * that the customer, the key and the key's account are ACTIVE, and updates the counters of both
 * lists: a key suspended or a customer deactivated a moment before can never get a new code. Making
 * and deleting a code write their audit event in their transaction (a payment that marks a DYNAMIC
 * code PAID is the payment's change, not the client's: no event of the code's).
 */
import type { QrCodeReferences } from '../domain/network-credits';
import type { InsertQrCodeResult, QrCodeListFilters, QrCodeStore, StoredQrCode } from '../domain/qrcodes';
import { auditItems } from './audit-trail';
import { uniqueGuard } from './inserts';
import { getRecord } from './records';
import { itemKeys } from './item-keys';
import { insertListed, listedStore, recordGetter, underCustomer } from './listed-records';
import { statusUpdate } from './status-changes';
import { activeOr, whileActive, writeUnless, type TransactItem } from './transactions';

const QR_CODES = underCustomer<StoredQrCode, QrCodeListFilters>('QRCODE', itemKeys.qrCode, (filters) => ({
  key_id: filters.keyId,
  type: filters.type,
  channel: filters.channel,
  status: filters.status,
}));

/**
 * The code's item in the transaction of a payment of it: the code must be ACTIVE, and a DYNAMIC code
 * (one payment) becomes PAID with it; a static or hybrid code stays ACTIVE for the next payment.
 */
export function payableQrCode(code: StoredQrCode, now: string): TransactItem {
  const key = itemKeys.qrCode(code.id);
  if (code.type !== 'DYNAMIC') return whileActive(key);
  return { Update: statusUpdate(key, code.id, { from: 'ACTIVE', to: 'PAID', now }) };
}

/** What an audit event says of the code it is about. */
const audited = (code: StoredQrCode) => ({ resourceType: 'QR_CODE' as const, resourceId: code.id });

/** The QR codes' get and writes, without the list reads (listedStore). */
export const dynamoQrCodeWrites: Omit<QrCodeStore, 'list' | 'walk'> = {
  ...recordGetter(QR_CODES),

  insert: (code: StoredQrCode): Promise<InsertQrCodeResult> =>
    insertListed(
      QR_CODES,
      code,
      [
        uniqueGuard(
          itemKeys.qrReferenceGuard(code.customer_id, code.reference),
          'QR_REFERENCE_GUARD',
          'qr_code_id',
          code.id,
          (existingId) => ({ inserted: false, reason: 'reference_taken', existingId }),
        ),
        activeOr({ inserted: false, reason: 'customer_inactive' }, itemKeys.customer(code.customer_id)),
        activeOr({ inserted: false, reason: 'key_inactive' }, itemKeys.brebKey(code.key_id)),
        activeOr({ inserted: false, reason: 'account_inactive' }, itemKeys.account(code.account_id), 'account_status'),
      ],
      auditItems({ action: 'qr_code.created', ...audited(code), after: code, at: code.created_at }),
    ),

  // One transaction, not a lone UpdateItem: the change and its audit event are written together.
  markDeleted: async (code: StoredQrCode, now: string): Promise<boolean> =>
    (await writeUnless(
      [
        {
          item: { Update: statusUpdate(itemKeys.qrCode(code.id), code.id, { from: code.status, to: 'DELETED', now }) },
          refused: () => 'changed' as const,
        },
      ],
      auditItems({
        action: 'qr_code.deleted',
        ...audited(code),
        before: code,
        after: { ...code, status: 'DELETED', updated_at: now },
        at: now,
      }),
    )) === undefined,
};

/** Every read and write of the QR codes, lists included. */
export const dynamoQrCodeStore: QrCodeStore = /* @__PURE__ */ listedStore(QR_CODES, dynamoQrCodeWrites);

/** A merchant's code by its reference: the reference guard names the code that holds it (for life). */
export const dynamoQrCodeReferences: QrCodeReferences = {
  async codeIdOf(customerId, reference) {
    const guard = await getRecord<{ qr_code_id?: string }>(itemKeys.qrReferenceGuard(customerId, reference));
    return guard?.qr_code_id;
  },
};
