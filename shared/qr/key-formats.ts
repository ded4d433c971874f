/**
 * The Bre-B key types and their formats, as the QR payload layout defines them: the encoder checks a
 * merchant's key against them before writing it into tag 26. The rules built on them (normalising a
 * value for storage, inferring a type) are the domain's, in shared/domain/key-formats.ts.
 */
export type KeyType = 'ID' | 'PHONE' | 'EMAIL' | 'ALPHA' | 'BCODE';

export const KEY_TYPES: readonly KeyType[] = ['ID', 'PHONE', 'EMAIL', 'ALPHA', 'BCODE'];

/** The formats, on the normalised value. */
export const KEY_PATTERNS: Readonly<Record<KeyType, RegExp>> = {
  ID: /^[A-Za-z0-9]{1,18}$/,
  PHONE: /^3[0-9]{9}$/,
  EMAIL: /^[^\s@]{1,30}@[A-Za-z0-9.-]{1,61}$/,
  ALPHA: /^@[A-Za-z0-9]{5,20}$/,
  BCODE: /^00[0-9]{8}$/,
};
