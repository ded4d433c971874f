/**
 * QR code schemas (docs/qrcodes.md). The schema checks shapes, enums and lengths; the rules that
 * tie fields together (what a DYNAMIC code needs, value formats by type, the amount covering its
 * fixed parts) are in shared/domain/qr-request.ts, which reports them with the same field paths.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { MAX_PAYLOAD_LENGTH } from '../qr/emv-decode';
import { CHANNELS, TRANSACTION_PURPOSES } from '../qr/tags';
import { allRequired, closedObject, COP, digits, moneySchema, TIMESTAMPS, UUID } from './common';
import { KEY_TYPE, typedKeySchema } from './keys';
import { listAnswer, listQueryUnderCustomer } from './lists';

export const QR_CODE_TYPES = ['STATIC', 'DYNAMIC'] as const;
/** PAID: a DYNAMIC code that was paid (once; docs/qrcodes.md). */
export const QR_CODE_STATUSES = ['ACTIVE', 'PAID', 'DELETED'] as const;
export type QrCodeStatus = (typeof QR_CODE_STATUSES)[number];

const QR_CODE_TYPE = { type: 'string', enum: QR_CODE_TYPES } as const;
const CHANNEL = { type: 'string', enum: CHANNELS } as const;
const TAX_TYPE = { type: 'string', enum: ['WALLET', 'FIXED', 'PERCENTAGE'] } as const;
const TIP_TYPE = { type: 'string', enum: ['REQUEST', 'FIXED', 'PERCENTAGE'] } as const;
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
  // The contract's codes and the word forms its examples carry.
  customer_info: { type: 'string', enum: ['A', 'E', 'P', 'ADDRESS', 'EMAIL', 'PHONE'] },
  channel_presentation: { type: 'string', minLength: 3, maxLength: 3 },
});

export const vatSchema = allRequired({ vat_type: TAX_TYPE, vat_value: NUMBER_TEXT, vat_base_value: NUMBER_TEXT });

export const incSchema = closedObject({ inc_type: TAX_TYPE, inc_value: NUMBER_TEXT }, ['inc_type']);

export const qrAmountSchema = closedObject({ value: NUMBER_TEXT, currency: COP }, ['value']);

export const tipSchema = closedObject(
  {
    tip_type: TIP_TYPE,
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

/** The merchant's data the payload carries, as it was when the code was created. */
export const qrCodeMerchantSchema = allRequired({
  merchant_category_code: digits(4),
  merchant_country: { type: 'string', const: 'CO' },
  merchant_name: { type: 'string', minLength: 1 },
  merchant_city: { type: 'string', minLength: 1 },
  merchant_post_code: { type: 'string' },
});

const qrCodeProperties = {
  id: UUID,
  status: { type: 'string', enum: QR_CODE_STATUSES },
  type: QR_CODE_TYPE,
  channel: CHANNEL,
  customer_id: UUID,
  account_id: UUID,
  key_id: UUID,
  key: typedKeySchema,
  qr_code_data: { type: 'string', minLength: 1, maxLength: MAX_PAYLOAD_LENGTH },
  /** The network's form of the reference: CO.COM.<ACQUIRER>.TRXIDP<reference>. */
  qr_code_reference: { type: 'string', minLength: 1 },
  acquirer_network_identifier: { type: 'string', minLength: 1 },
  merchant: qrCodeMerchantSchema,
  additional_info: additionalInfoSchema,
  vat: vatSchema,
  inc: incSchema,
  tip: tipSchema,
  amount: moneySchema,
  ...TIMESTAMPS,
} as const;

const QR_CODE_REQUIRED = [
  'id',
  'status',
  'type',
  'channel',
  'customer_id',
  'account_id',
  'key_id',
  'key',
  'qr_code_data',
  'qr_code_reference',
  'acquirer_network_identifier',
  'merchant',
  'created_at',
  'updated_at',
] as const;

/** A QR code without its image: an item of GET /v1/qrcodes, and the answer of DELETE. */
export const qrCodeSchema = closedObject(qrCodeProperties, QR_CODE_REQUIRED);

/** A QR code with its image, a PNG in Base64: the answer of create and of GET /v1/qrcodes/{id}. */
export const qrCodeWithImageSchema = closedObject(
  {
    ...qrCodeProperties,
    qr_code_image: { type: 'string', minLength: 1, contentEncoding: 'base64', contentMediaType: 'image/png' },
  },
  [...QR_CODE_REQUIRED, 'qr_code_image'],
);

export const qrCodeListSchema = listAnswer('qr_codes', qrCodeSchema);

/** Any string a payload holds, or null where the payload has no such field. */
const FOUND = { type: ['string', 'null'] } as const;
const tlvFieldSchema = allRequired({ id: { type: 'string' }, value: { type: 'string' } });
const TLV_FIELDS = { type: 'array', items: tlvFieldSchema } as const;
const nullable = <const S extends object>(schema: S) => ({ anyOf: [schema, { type: 'null' }] }) as const;
const typeOrNull = <const E extends readonly string[]>(values: E) => ({ enum: [...values, null] }) as const;
const OPTIONAL_TEXT = { type: 'string' } as const;

/**
 * The answer of POST /v1/qrcodes/decode: every field this profile knows (null where the payload has
 * none), every tag as written, whether the CRC checks out and, for our acquirer's payloads, whether
 * our signature does.
 */
export const decodedQrCodeSchema = closedObject(
  {
    payload_format_indicator: FOUND,
    point_of_initiation_method: FOUND,
    type: typeOrNull(QR_CODE_TYPES),
    key: nullable(allRequired({ key_type: KEY_TYPE, key_value: OPTIONAL_TEXT })),
    merchant_accounts: {
      type: 'array',
      items: allRequired({ tag: { type: 'string' }, guid: FOUND, fields: TLV_FIELDS }),
    },
    acquirer_network_identifier: FOUND,
    merchant_category_code: FOUND,
    transaction_currency: FOUND,
    amount: FOUND,
    tip: nullable(
      closedObject(
        {
          indicator: OPTIONAL_TEXT,
          tip_type: typeOrNull(TIP_TYPE.enum),
          tip_value: OPTIONAL_TEXT,
          tip_percentage: OPTIONAL_TEXT,
        },
        ['indicator', 'tip_type'],
      ),
    ),
    country_code: FOUND,
    merchant_name: FOUND,
    merchant_city: FOUND,
    merchant_post_code: FOUND,
    additional_info: nullable(
      closedObject({
        invoice_number: OPTIONAL_TEXT,
        mobile_phone_number: OPTIONAL_TEXT,
        store_label: OPTIONAL_TEXT,
        loyalty_label: OPTIONAL_TEXT,
        reference_label: OPTIONAL_TEXT,
        customer_label: OPTIONAL_TEXT,
        terminal_label: OPTIONAL_TEXT,
        transaction_purpose: OPTIONAL_TEXT,
        customer_info: OPTIONAL_TEXT,
        merchant_nit: OPTIONAL_TEXT,
        channel_presentation: OPTIONAL_TEXT,
      }),
    ),
    language_template: nullable(
      closedObject({ language_preference: OPTIONAL_TEXT, merchant_name: OPTIONAL_TEXT, merchant_city: OPTIONAL_TEXT }),
    ),
    channel: FOUND,
    vat: nullable(
      closedObject({ vat_type: typeOrNull(TAX_TYPE.enum), vat_value: OPTIONAL_TEXT, vat_base_value: OPTIONAL_TEXT }, [
        'vat_type',
      ]),
    ),
    inc: nullable(closedObject({ inc_type: typeOrNull(TAX_TYPE.enum), inc_value: OPTIONAL_TEXT }, ['inc_type'])),
    reference: FOUND,
    qr_code_reference: FOUND,
    security_value: FOUND,
    crc: FOUND,
    crc_valid: { type: 'boolean' },
    signature_valid: { type: 'boolean' },
    acquirer_matches: { type: 'boolean' },
    tags: {
      type: 'array',
      items: closedObject({ id: { type: 'string' }, value: { type: 'string' }, fields: TLV_FIELDS }, ['id', 'value']),
    },
    warnings: { type: 'array', items: { type: 'string' } },
  },
  [
    'payload_format_indicator',
    'point_of_initiation_method',
    'type',
    'key',
    'merchant_accounts',
    'acquirer_network_identifier',
    'merchant_category_code',
    'transaction_currency',
    'amount',
    'tip',
    'country_code',
    'merchant_name',
    'merchant_city',
    'merchant_post_code',
    'additional_info',
    'language_template',
    'channel',
    'vat',
    'inc',
    'reference',
    'qr_code_reference',
    'security_value',
    'crc',
    'crc_valid',
    'tags',
    'warnings',
  ],
);
