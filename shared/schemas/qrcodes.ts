/**
 * QR code schemas (spec 2.4 and 4.5). The schema checks shapes, enums and lengths; the rules that
 * tie fields together (what a DYNAMIC code needs, value formats by type, the amount covering its
 * fixed parts) are in shared/domain/qr-request.ts, which reports them with the same field paths.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_PAYLOAD_LENGTH } from '../qr/emv-decode';
import { CHANNELS, TRANSACTION_PURPOSES } from '../qr/tags';
import { allRequired, closedObject, COP, UUID } from './common';
import { listQueryUnderCustomer } from './lists';

export const QR_CODE_TYPES = ['STATIC', 'DYNAMIC'] as const;
/** PAID: a DYNAMIC code that was paid (once; docs/qrcodes.md). */
export const QR_CODE_STATUSES = ['ACTIVE', 'PAID', 'DELETED'] as const;
export type QrCodeStatus = (typeof QR_CODE_STATUSES)[number];

const QR_CODE_TYPE = { type: 'string', enum: QR_CODE_TYPES } as const;
const CHANNEL = { type: 'string', enum: CHANNELS } as const;
const TAX_TYPE = { type: 'string', enum: ['WALLET', 'FIXED', 'PERCENTAGE'] } as const;
/** An amount or a rate: the format each type needs is checked by the domain, with its message. */
const NUMBER_TEXT = { type: 'string', minLength: 1, maxLength: 20 } as const;
/** additional_info text fields: written into the payload as they are, so printable ASCII only. */
const LABEL = { type: 'string', minLength: 1, maxLength: 25 } as const;

export const additionalInfoSchema = closedObject({
  transaction_purpose: { type: 'string', enum: TRANSACTION_PURPOSES },
  terminal_label: LABEL,
  invoice_number: LABEL,
  mobile_phone_number: LABEL,
  store_label: LABEL,
  loyalty_label: LABEL,
  reference_label: LABEL,
  customer_label: LABEL,
  // The spec's codes and the word forms its examples carry.
  customer_info: { type: 'string', enum: ['A', 'E', 'P', 'ADDRESS', 'EMAIL', 'PHONE'] },
  channel_presentation: { type: 'string', minLength: 3, maxLength: 3 },
});

export const vatSchema = allRequired({ vat_type: TAX_TYPE, vat_value: NUMBER_TEXT, vat_base_value: NUMBER_TEXT });

export const incSchema = closedObject({ inc_type: TAX_TYPE, inc_value: NUMBER_TEXT }, ['inc_type']);

export const qrAmountSchema = closedObject({ value: NUMBER_TEXT, currency: COP }, ['value']);

export const tipSchema = closedObject(
  {
    tip_type: { type: 'string', enum: ['REQUEST', 'FIXED', 'PERCENTAGE'] },
    tip_value: NUMBER_TEXT,
    tip_percentage: NUMBER_TEXT,
  },
  ['tip_type'],
);

export const createQrCodeRequestSchema = closedObject(
  {
    key_id: UUID,
    customer_id: UUID,
    type: QR_CODE_TYPE,
    channel: CHANNEL,
    qr_code_reference: { type: 'string', minLength: 1, maxLength: 17 },
    additional_info: additionalInfoSchema,
    vat: vatSchema,
    inc: incSchema,
    amount: qrAmountSchema,
    tip: tipSchema,
  },
  ['key_id', 'customer_id', 'type', 'channel', 'qr_code_reference'],
);

export type CreateQrCodeRequest = FromSchema<typeof createQrCodeRequestSchema>;
export type QrAdditionalInfo = FromSchema<typeof additionalInfoSchema>;
export type QrVatRequest = FromSchema<typeof vatSchema>;
export type QrIncRequest = FromSchema<typeof incSchema>;
export type QrTipRequest = FromSchema<typeof tipSchema>;

export const qrCodeListQuerySchema = listQueryUnderCustomer({
  key_id: UUID,
  type: QR_CODE_TYPE,
  channel: CHANNEL,
  status: { type: 'string', enum: QR_CODE_STATUSES },
});

export type QrCodeListQuery = FromSchema<typeof qrCodeListQuerySchema>;

/** POST /v1/qrcodes/decode: any EMVCo merchant-presented payload, at most what a QR code holds. */
export const decodeQrCodeRequestSchema = allRequired({
  qr_code_data: { type: 'string', minLength: 1, maxLength: MAX_PAYLOAD_LENGTH },
});

export type DecodeQrCodeRequest = FromSchema<typeof decodeQrCodeRequestSchema>;
