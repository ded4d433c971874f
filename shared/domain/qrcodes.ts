/**
 * Payment QR codes (docs/qrcodes.md): creating a code for an ACTIVE key of an
 * ACTIVE merchant, reading, listing and deleting it, and decoding any EMVCo payload. The payload is
 * fixed at creation (the merchant's data as it was then); the image is drawn from it on each read.
 */
import { readTogether } from './read-together';
import { decodeEmvPayload, type DecodedEmvPayload } from '../qr/emv-decode';
import { QrFieldError } from '../qr/errors';
import type { EmvSettings } from '../qr/emv-input';
import { encodeEmvPayload, prefixedReference } from '../qr/emv-payload';
import type { SigningSecret } from '../qr/signature';
import type {
  CreateQrCodeRequest,
  QrAdditionalInfo,
  QrCodeListQuery,
  QrCodeStatus,
  QrIncRequest,
  QrTipRequest,
  QrVatRequest,
} from '../schemas/qrcodes';
import { newRecord, type Clock, type NewRecords } from './clock';
import { getOwnCustomer, type CustomerStore, type StoredCustomer } from './customers';
import { AppError, invalidField } from './errors';
import { ownReader } from './ownership';
import { keyForNewQrCode, type KeyStore } from './keys';
import { listOf, type RecordReader } from './lists';
import { CURRENCY, type Money } from './money';
import { checkQrCodeRequest, emvInputFor } from './qr-request';
import type { KeyType } from './key-formats';

export interface QrCodeMerchant {
  readonly merchant_category_code: string;
  readonly merchant_country: string;
  readonly merchant_name: string;
  readonly merchant_city: string;
  readonly merchant_post_code: string;
}

/** The QR code object (docs/contract.md, QR codes), without its image. */
export interface QrCode {
  readonly id: string;
  readonly status: QrCodeStatus;
  readonly type: CreateQrCodeRequest['type'];
  readonly channel: CreateQrCodeRequest['channel'];
  readonly customer_id: string;
  readonly account_id: string;
  readonly key_id: string;
  readonly key: { readonly key_type: KeyType; readonly key_value: string };
  readonly qr_code_data: string;
  /** The network's form, CO.COM.<ACQ>.TRXIDP<reference>. */
  readonly qr_code_reference: string;
  readonly acquirer_network_identifier: string;
  readonly merchant: QrCodeMerchant;
  readonly additional_info?: QrAdditionalInfo;
  readonly vat?: QrVatRequest;
  readonly inc?: QrIncRequest;
  readonly tip?: QrTipRequest;
  readonly amount?: Money;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface StoredQrCode extends QrCode {
  readonly tenant: string;
  /** qr_code_reference as the merchant sent it: unique per merchant, whatever its case. */
  readonly reference: string;
}

/** Create and read answers carry the image: a PNG in Base64. */
export type QrCodeWithImage = QrCode & { readonly qr_code_image: string };

export type InsertQrCodeResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly reason: 'reference_taken'; readonly existingId: string }
  | { readonly inserted: false; readonly reason: 'customer_inactive' | 'key_inactive' | 'account_inactive' };

export interface QrCodeListFilters {
  readonly customerId?: string;
  readonly keyId?: string;
  readonly type?: QrCode['type'];
  readonly channel?: QrCode['channel'];
  readonly status?: QrCodeStatus;
}

export interface QrCodeStore extends RecordReader<StoredQrCode, QrCodeListFilters> {
  /**
   * Inserts the code unless its merchant already used the reference, and only while the customer,
   * the key and the key's account are ACTIVE; atomic against concurrent inserts.
   */
  insert(code: StoredQrCode): Promise<InsertQrCodeResult>;
  /** ACTIVE -> DELETED; false when the status changed since `code` was read. */
  markDeleted(code: StoredQrCode, now: string): Promise<boolean>;
}

/**
 * Draws a code's image: a PNG in Base64 (shared/qr/image.ts renderQrBase64). Passed in by the two
 * functions that answer images, so that only they load the QR image code.
 */
export type DrawQrImage = (qrCodeData: string) => Promise<string>;

export interface CreateQrCodeDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly keys: Pick<KeyStore, 'get'>;
  readonly qrCodes: Pick<QrCodeStore, 'insert'>;
  /** The acquirer and the current signing key, read when a code is created (the key rotates). */
  readonly emvSettings: () => Promise<EmvSettings>;
  readonly drawImage: DrawQrImage;
}

/**
 * The answer's fields in the contract's order (a stored item comes back in no particular order), with
 * the image when given.
 */
export function publicQrCode(code: StoredQrCode, image?: string): QrCode {
  return {
    id: code.id,
    status: code.status,
    type: code.type,
    channel: code.channel,
    customer_id: code.customer_id,
    account_id: code.account_id,
    key_id: code.key_id,
    key: { key_type: code.key.key_type, key_value: code.key.key_value },
    qr_code_data: code.qr_code_data,
    ...(image === undefined ? {} : { qr_code_image: image }),
    qr_code_reference: code.qr_code_reference,
    acquirer_network_identifier: code.acquirer_network_identifier,
    merchant: {
      merchant_category_code: code.merchant.merchant_category_code,
      merchant_country: code.merchant.merchant_country,
      merchant_name: code.merchant.merchant_name,
      merchant_city: code.merchant.merchant_city,
      merchant_post_code: code.merchant.merchant_post_code,
    },
    ...(code.additional_info ? { additional_info: code.additional_info } : {}),
    ...(code.vat ? { vat: code.vat } : {}),
    ...(code.inc ? { inc: code.inc } : {}),
    ...(code.tip ? { tip: code.tip } : {}),
    ...(code.amount ? { amount: { value: code.amount.value, currency: code.amount.currency } } : {}),
    created_at: code.created_at,
    updated_at: code.updated_at,
  };
}

const withImage = async (code: StoredQrCode, drawImage: DrawQrImage): Promise<QrCodeWithImage> =>
  publicQrCode(code, await drawImage(code.qr_code_data)) as QrCodeWithImage;

const merchantOf = (customer: StoredCustomer): QrCodeMerchant => ({
  merchant_category_code: customer.merchant_category_code,
  merchant_country: customer.address.country,
  merchant_name: customer.business_name,
  merchant_city: customer.address.city,
  merchant_post_code: customer.address.post_code,
});

const customerInactive = (id: string) =>
  new AppError('CUSTOMER_INACTIVE', `Customer ${id} is inactive: activate it before creating QR codes`);
const referenceTaken = (reference: string, existingId: string) =>
  new AppError('QR_CODE_REFERENCE_TAKEN', `This merchant already has a QR code with reference ${reference}`, {
    qr_code_id: existingId,
  });

/**
 * POST /v1/qrcodes: checks the request, reads the customer and the key together, encodes and draws
 * the code, then stores it with its reference guard in one transaction. 400 for a broken rule or an
 * inactive customer or account, 404 / 403 for an unknown or another client's customer or key, 409
 * for a key that is not ACTIVE or a reference the merchant already used.
 */
export async function createQrCode(
  deps: CreateQrCodeDeps,
  tenant: string,
  request: CreateQrCodeRequest,
): Promise<QrCodeWithImage> {
  checkQrCodeRequest(request);
  // The customer's answer first, whichever read finished first.
  const [customerRead, keyRead] = await readTogether(
    getOwnCustomer(deps.customers, tenant, request.customer_id),
    keyForNewQrCode(deps.keys, tenant, request.key_id),
  );
  const customer = customerRead();
  const key = keyRead();
  if (key.customer_id !== customer.id) throw invalidField('key_id', `is a key of another customer than ${customer.id}`);
  if (customer.status !== 'ACTIVE') throw customerInactive(customer.id);

  const settings = await deps.emvSettings();
  const merchant = merchantOf(customer);
  const qrCodeData = refusedAsInvalid(() =>
    encodeEmvPayload(
      emvInputFor(
        request,
        { keyType: key.key_type, keyValue: key.key_value },
        {
          name: merchant.merchant_name,
          city: merchant.merchant_city,
          postCode: merchant.merchant_post_code,
          mcc: merchant.merchant_category_code,
          nit: customer.identification_number,
        },
      ),
      settings,
    ),
  );
  const code: StoredQrCode = {
    ...newRecord(deps, tenant),
    status: 'ACTIVE',
    type: request.type,
    channel: request.channel,
    customer_id: customer.id,
    account_id: key.account_id,
    key_id: key.id,
    key: { key_type: key.key_type, key_value: key.key_value },
    qr_code_data: qrCodeData,
    reference: request.qr_code_reference,
    qr_code_reference: prefixedReference(settings.acquirerId, request.qr_code_reference),
    acquirer_network_identifier: settings.acquirerId,
    merchant,
    ...(request.additional_info ? { additional_info: request.additional_info } : {}),
    ...(request.vat ? { vat: request.vat } : {}),
    ...(request.inc ? { inc: request.inc } : {}),
    ...(request.tip ? { tip: request.tip } : {}),
    ...(request.amount ? { amount: { value: request.amount.value, currency: CURRENCY } } : {}),
  };
  // Drawn before the write: a code that could not be drawn is never stored.
  const answer = await withImage(code, deps.drawImage);

  const result = await deps.qrCodes.insert(code);
  if (!result.inserted) {
    switch (result.reason) {
      case 'reference_taken':
        throw referenceTaken(request.qr_code_reference, result.existingId);
      case 'customer_inactive':
        throw customerInactive(customer.id);
      case 'key_inactive':
        throw new AppError('KEY_STATUS_CONFLICT', `Key ${key.id} stopped being ACTIVE: it serves no new QR code`);
      case 'account_inactive':
        throw new AppError('ACCOUNT_INACTIVE', `Account ${key.account_id} of key ${key.id} is not active`);
    }
  }
  return answer;
}

/** Reads one of the tenant's QR codes: 404 when unknown, 403 when another client's. */
export const getOwnQrCode = ownReader<StoredQrCode>('QR code');

/** GET /v1/qrcodes/{id}: the code with its image. */
export async function readQrCode(
  deps: { readonly qrCodes: Pick<QrCodeStore, 'get'>; readonly drawImage: DrawQrImage },
  tenant: string,
  id: string,
): Promise<QrCodeWithImage> {
  return withImage(await getOwnQrCode(deps.qrCodes, tenant, id), deps.drawImage);
}

export interface DeleteQrCodeDeps {
  readonly qrCodes: Pick<QrCodeStore, 'get' | 'markDeleted'>;
  readonly clock: Clock;
}

/**
 * DELETE /v1/qrcodes/{id}: an ACTIVE code becomes DELETED and can no longer be paid; its reference
 * stays taken (payments already made carry it). Deleting a code that is not ACTIVE is 409.
 */
export async function deleteQrCode(deps: DeleteQrCodeDeps, tenant: string, id: string): Promise<QrCode> {
  const code = await getOwnQrCode(deps.qrCodes, tenant, id);
  if (code.status !== 'ACTIVE') {
    throw new AppError('QR_CODE_STATUS_CONFLICT', `A ${code.status} QR code cannot be deleted`, {
      qr_code_status: code.status,
    });
  }
  const now = deps.clock.now();
  if (!(await deps.qrCodes.markDeleted(code, now))) {
    throw new AppError('CONCURRENT_UPDATE', `QR code ${code.id} was changed by another request: read it and retry`);
  }
  return publicQrCode({ ...code, status: 'DELETED', updated_at: now });
}

/** GET /v1/qrcodes: the tenant's codes, a page at a time, without their images. */
export const listQrCodes = /* @__PURE__ */ listOf({
  name: 'qr_codes',
  filters: (query: QrCodeListQuery): QrCodeListFilters => ({
    customerId: query.customer_id?.toLowerCase(),
    keyId: query.key_id?.toLowerCase(),
    type: query.type,
    channel: query.channel,
    status: query.status,
  }),
  toPublic: publicQrCode,
});

export interface DecodeSettings {
  readonly acquirerId: string;
  /** The keys a signature of ours verifies with: current, then previous during a rotation. */
  readonly verificationKeys: readonly SigningSecret[];
}

/** What the QR library refuses to encode is the request's fault: a 400 naming the same field. */
function refusedAsInvalid<T>(encode: () => T): T {
  try {
    return encode();
  } catch (error) {
    if (error instanceof QrFieldError) throw invalidField(error.field, error.problem);
    throw error;
  }
}

/**
 * POST /v1/qrcodes/decode: the fields of any EMVCo merchant payload, with `crc_valid`; for a payload
 * of our acquirer, `signature_valid` too (another acquirer's signature is not ours to check).
 */
export function decodeQrCode(settings: DecodeSettings, qrCodeData: string): DecodedEmvPayload {
  let decoded: DecodedEmvPayload;
  try {
    decoded = decodeEmvPayload(qrCodeData, {
      acquirerId: settings.acquirerId,
      signingSecret: settings.verificationKeys,
    });
  } catch (error) {
    if (error instanceof QrFieldError) throw invalidField('qr_code_data', `is not an EMVCo payload: ${error.message}`);
    throw error;
  }
  if (decoded.acquirer_matches) return decoded;
  const { signature_valid: _notOurs, ...rest } = decoded;
  return rest;
}
