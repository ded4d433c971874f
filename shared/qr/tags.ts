/**
 * The Bre-B merchant-presented QR profile (docs/qr-payload.md): tag ids, the GUIDs of the Colombian
 * templates (`CO.COM.<ACQ>.<SUFFIX>`) and the codes written under them. The encoder and the decoder
 * read their vocabulary from here.
 */
import type { KeyType } from './key-formats';

export const TAG = {
  payloadFormat: '00',
  initiationMethod: '01',
  key: '26',
  network: '49',
  mcc: '52',
  currency: '53',
  amount: '54',
  tipIndicator: '55',
  tipFixed: '56',
  tipPercentage: '57',
  country: '58',
  merchantName: '59',
  merchantCity: '60',
  postalCode: '61',
  additionalData: '62',
  crc: '63',
  language: '64',
  channel: '80',
  vatCondition: '81',
  vatValue: '82',
  vatBase: '83',
  incCondition: '84',
  incValue: '85',
  transactionId: '90',
  security: '91',
} as const;

export const PAYLOAD_FORMAT = '01';
export const CURRENCY_COP = '170';
export const COUNTRY_CO = 'CO';
export const LANGUAGE_ES = 'ES';
/** Tag 90's value is `P` + qr_code_reference; hence no P in references. */
export const REFERENCE_MARK = 'P';

export type InitiationMethod = 'STATIC' | 'DYNAMIC';
export const INITIATION_CODE: Readonly<Record<InitiationMethod, string>> = { STATIC: '11', DYNAMIC: '12' };

export type { KeyType };
/** Tag 26: the key value sits under the sub-tag of its type. */
export const KEY_SUBTAG: Readonly<Record<KeyType, string>> = {
  ID: '01',
  PHONE: '02',
  EMAIL: '03',
  ALPHA: '04',
  BCODE: '05',
};

export type Channel = 'IM' | 'POS' | 'APP' | 'ECOMM' | 'MPOS' | 'CB' | 'OFC' | 'ATM';
export const CHANNELS: readonly Channel[] = ['IM', 'POS', 'APP', 'ECOMM', 'MPOS', 'CB', 'OFC', 'ATM'];

export type TipType = 'REQUEST' | 'FIXED' | 'PERCENTAGE';
export const TIP_CODE: Readonly<Record<TipType, string>> = { REQUEST: '01', FIXED: '02', PERCENTAGE: '03' };

/** Tags 81 and 84: who sets the tax. WALLET and PERCENTAGE are inferred (qr-payload.md). */
export type TaxType = 'WALLET' | 'FIXED' | 'PERCENTAGE';
export const TAX_CODE: Readonly<Record<TaxType, string>> = { WALLET: '01', FIXED: '02', PERCENTAGE: '03' };

export type TransactionPurpose = '00' | '02' | '03' | '04' | '05' | '06' | '07';
export const TRANSACTION_PURPOSES: readonly TransactionPurpose[] = ['00', '02', '03', '04', '05', '06', '07'];

/** EMVCo 62-09 letters: A address, M mobile number, E email. */
export type CustomerInfoCode = 'A' | 'M' | 'E';

/** Tag 62 sub-tags. */
export const ADDITIONAL_SUBTAG = {
  invoiceNumber: '01',
  mobileNumber: '02',
  storeLabel: '03',
  loyaltyLabel: '04',
  referenceLabel: '05',
  customerLabel: '06',
  terminalLabel: '07',
  purpose: '08',
  customerInfo: '09',
  merchantNit: '10',
  channelPresentation: '11',
} as const;

/** Suffixes of the Colombian template GUIDs, `CO.COM.<ACQ>.<suffix>`. */
export const GUID_SUFFIX = {
  key: 'LLA',
  network: 'RED',
  channel: 'CANAL',
  vatCondition: 'CIVA',
  vatValue: 'IVA',
  vatBase: 'BASE',
  incCondition: 'CINC',
  incValue: 'INC',
  transactionId: 'TRXID',
  security: 'SEC',
} as const;

export const guid = (acquirerId: string, suffix: string): string => `CO.COM.${acquirerId}.${suffix}`;

/** Reads `CO.COM.<ACQ>.<SUFFIX>` (any case), or undefined when `value` is not such a GUID. */
export function parseGuid(value: string): { acquirerId: string; suffix: string } | undefined {
  const match = /^CO\.COM\.([A-Za-z0-9]{1,10})\.([A-Za-z]+)$/i.exec(value);
  return match ? { acquirerId: match[1]!, suffix: match[2]!.toUpperCase() } : undefined;
}

export function invert<K extends string>(map: Readonly<Record<K, string>>): ReadonlyMap<string, K> {
  return new Map(Object.entries(map).map(([key, code]) => [code as string, key as K]));
}
