/**
 * Bre-B key rules (docs/keys.md): on the formats the QR library defines (shared/qr/key-formats.ts),
 * how a value is normalised for storage and comparison, and how a type is inferred from a bare value.
 * Key registration and key resolution use these rules; the QR encoder checks the formats.
 */
import { KEY_PATTERNS, KEY_TYPES, type KeyType } from '../qr/key-formats';
import { invalidField } from './errors';

export { KEY_PATTERNS, KEY_TYPES, type KeyType };

const FORMAT_RULES: Readonly<Record<KeyType, string>> = {
  ID: 'must be 1 to 18 letters or digits, without separators',
  PHONE: 'must be a Colombian mobile number: 10 digits starting with 3, optionally prefixed by +57 or 57',
  EMAIL: 'must be an email with a local part of 1 to 30 characters and a domain of 1 to 61',
  ALPHA: "must be '@' followed by 5 to 20 letters or digits",
  BCODE: "must be 10 digits starting with '00'",
};

/** The order in which a type is inferred from a value sent without one. */
export const INFERENCE_ORDER: readonly KeyType[] = ['ALPHA', 'EMAIL', 'BCODE', 'PHONE', 'ID'];

const isAscii = (value: string): boolean => /^[\x20-\x7E]*$/.test(value);

/** A phone number without its +57 / 57 prefix (only a 12-digit value starting with 57 has one). */
const withoutCountryCode = (raw: string): string => {
  if (raw.startsWith('+57')) return raw.slice(3);
  if (/^57[0-9]{10}$/.test(raw)) return raw.slice(2);
  return raw;
};

/**
 * The stored, compared form of a key value, or undefined when it is not of its type's format:
 * PHONE loses its +57 / 57 prefix, EMAIL is lower-cased; other types are kept as sent.
 */
export function normalisedKeyValue(type: KeyType, raw: string): string | undefined {
  if (!isAscii(raw)) return undefined;
  const value = type === 'PHONE' ? withoutCountryCode(raw) : type === 'EMAIL' ? raw.toLowerCase() : raw;
  return KEY_PATTERNS[type].test(value) ? value : undefined;
}

/** Like normalisedKeyValue, but a value of another format is a 400 naming `field`. */
export function normaliseKeyValue(type: KeyType, raw: string, field = 'key.key_value'): string {
  const value = normalisedKeyValue(type, raw);
  if (value === undefined) throw invalidField(field, `is not a valid ${type} key: ${FORMAT_RULES[type]}`);
  return value;
}

/**
 * The type of a value sent without one: ALPHA (starts with @), EMAIL (contains @), BCODE, PHONE,
 * ID, the first whose format the value fits; undefined when it fits none.
 */
export function inferredKeyType(raw: string): KeyType | undefined {
  if (raw.startsWith('@')) return 'ALPHA';
  if (raw.includes('@')) return 'EMAIL';
  return INFERENCE_ORDER.find((candidate) => normalisedKeyValue(candidate, raw) !== undefined);
}

/** Like inferredKeyType, but a value that fits no type is a 400 naming `field`. */
export function inferKeyType(raw: string, field = 'key.key_value'): KeyType {
  const type = inferredKeyType(raw);
  if (!type) throw invalidField(field, 'fits no Bre-B key format (PHONE, ID, EMAIL, ALPHA or BCODE)');
  return type;
}

/** The type (sent or inferred) and the normalised value of a key. */
export function parseKey(
  key: { readonly key_type?: KeyType | undefined; readonly key_value: string },
  field = 'key',
): { readonly key_type: KeyType; readonly key_value: string } {
  const type = key.key_type ?? inferKeyType(key.key_value, `${field}.key_value`);
  return { key_type: type, key_value: normaliseKeyValue(type, key.key_value, `${field}.key_value`) };
}
