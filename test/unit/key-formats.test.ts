/** Bre-B key formats (docs/qr-payload.md): every rule of each type, normalisation and inference. */
import {
  inferKeyType,
  normaliseKeyValue,
  normalisedKeyValue,
  parseKey,
  type KeyType,
} from '../../shared/domain/key-formats';
import { KEY_PATTERNS as QR_KEY_PATTERNS } from '../../shared/qr/emv-input';
import { KEY_PATTERNS } from '../../shared/domain/key-formats';
import { appErrorFrom } from '../support/thrown';

const valid: [KeyType, string, string, string][] = [
  ['PHONE', '10 digits starting with 3', '3001234567', '3001234567'],
  ['PHONE', '+57 prefix is dropped', '+573001234567', '3001234567'],
  ['PHONE', '57 prefix is dropped', '573001234567', '3001234567'],
  ['PHONE', 'any 3xx operator', '3209998877', '3209998877'],
  ['ID', 'one character', '7', '7'],
  ['ID', '18 letters or digits', 'AB1234567890123456', 'AB1234567890123456'],
  ['ID', 'digits only', '1020304050', '1020304050'],
  ['ID', 'letters are kept as sent', 'Pa123', 'Pa123'],
  ['EMAIL', 'a plain address', 'ana.gomez@example.com', 'ana.gomez@example.com'],
  ['EMAIL', 'lower-cased', 'Ana.Gomez@Example.COM', 'ana.gomez@example.com'],
  ['EMAIL', '30-character local part', `${'a'.repeat(30)}@x.co`, `${'a'.repeat(30)}@x.co`],
  ['EMAIL', '61-character domain', `a@${'b'.repeat(58)}.co`, `a@${'b'.repeat(58)}.co`],
  ['EMAIL', 'symbols in the local part', 'a+b_c@x.co', 'a+b_c@x.co'],
  ['ALPHA', '@ and 5 characters', '@abcde', '@abcde'],
  ['ALPHA', '@ and 20 characters', `@${'a1'.repeat(10)}`, `@${'a1'.repeat(10)}`],
  ['ALPHA', 'case is kept', '@AnaGomez1', '@AnaGomez1'],
  ['BCODE', '00 and 8 digits', '0012345678', '0012345678'],
];

const invalid: [KeyType, string, string][] = [
  ['PHONE', '9 digits', '300123456'],
  ['PHONE', '11 digits', '30012345678'],
  ['PHONE', 'not starting with 3', '2001234567'],
  ['PHONE', '+57 and 9 digits', '+57300123456'],
  ['PHONE', 'another country code', '+13001234567'],
  ['PHONE', 'separators', '300-123-4567'],
  ['PHONE', 'spaces', '300 123 4567'],
  ['PHONE', 'letters', '300123456a'],
  ['ID', 'empty', ''],
  ['ID', '19 characters', 'A'.repeat(19)],
  ['ID', 'separators', '1.020.304.050'],
  ['ID', 'a dash', '1020-304'],
  ['ID', 'non-ASCII letters', 'Ñandú123'],
  ['EMAIL', 'no @', 'ana.example.com'],
  ['EMAIL', 'two @', 'ana@b@example.com'],
  ['EMAIL', '31-character local part', `${'a'.repeat(31)}@x.co`],
  ['EMAIL', '62-character domain', `a@${'b'.repeat(59)}.co`],
  ['EMAIL', 'empty local part', '@example.com'],
  ['EMAIL', 'empty domain', 'ana@'],
  ['EMAIL', 'whitespace', 'ana gomez@example.com'],
  ['EMAIL', 'underscore in the domain', 'ana@exa_mple.com'],
  ['EMAIL', 'non-ASCII', 'añá@example.com'],
  ['ALPHA', 'no @', 'anagomez1'],
  ['ALPHA', '4 characters after @', '@abcd'],
  ['ALPHA', '21 characters after @', `@${'a'.repeat(21)}`],
  ['ALPHA', 'a symbol', '@ana.gomez'],
  ['ALPHA', 'a second @', '@ana@gomez'],
  ['BCODE', 'not starting with 00', '0112345678'],
  ['BCODE', '9 digits', '001234567'],
  ['BCODE', '11 digits', '00123456789'],
  ['BCODE', 'letters', '00123456AB'],
];

describe('normaliseKeyValue', () => {
  test.each(valid)('%s: %s', (type, _rule, raw, expected) => {
    expect(normaliseKeyValue(type, raw)).toBe(expected);
  });

  test.each(invalid)('%s rejects %s', (type, _rule, raw) => {
    expect(normalisedKeyValue(type, raw)).toBeUndefined();
    const error = appErrorFrom(() => normaliseKeyValue(type, raw));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.extensions.errors).toEqual([{ field: 'key.key_value', message: expect.stringContaining(type) }]);
  });

  test('the QR encoder reads the same patterns', () => {
    expect(QR_KEY_PATTERNS).toBe(KEY_PATTERNS);
  });
});

describe('inferKeyType', () => {
  test.each([
    ['ALPHA: starts with @', '@anagomez1', 'ALPHA'],
    ['ALPHA even when the rest is not valid (then a format error)', '@a', 'ALPHA'],
    ['EMAIL: contains @', 'ana.gomez@example.com', 'EMAIL'],
    ['BCODE: 00 and 8 digits', '0012345678', 'BCODE'],
    ['PHONE: 10 digits starting with 3', '3001234567', 'PHONE'],
    ['PHONE: with +57', '+573001234567', 'PHONE'],
    ['PHONE: with 57', '573001234567', 'PHONE'],
    ['ID: other digits', '1020304050', 'ID'],
    ['ID: letters and digits', 'PA123456', 'ID'],
  ])('%s', (_rule, raw, type) => {
    expect(inferKeyType(raw)).toBe(type);
  });

  test.each([
    ['separators', '1.020.304.050'],
    ['a plus without 57', '+13001234567'],
    ['spaces', 'ana gomez'],
    ['too long for an ID', 'A'.repeat(19)],
    ['empty', ''],
  ])('a value that fits no type is a 400 (%s)', (_rule, raw) => {
    const error = appErrorFrom(() => inferKeyType(raw));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.extensions.errors?.[0]?.field).toBe('key.key_value');
  });
});

describe('parseKey', () => {
  test('infers and normalises', () => {
    expect(parseKey({ key_value: '+573001234567' })).toEqual({ key_type: 'PHONE', key_value: '3001234567' });
    expect(parseKey({ key_value: 'Ana.Gomez@Example.com' })).toEqual({
      key_type: 'EMAIL',
      key_value: 'ana.gomez@example.com',
    });
  });

  test('a value not of the type sent is a 400, even when it fits another type', () => {
    expect(appErrorFrom(() => parseKey({ key_type: 'PHONE', key_value: '0012345678' })).code).toBe('VALIDATION_FAILED');
    expect(appErrorFrom(() => parseKey({ key_type: 'ALPHA', key_value: '@a' })).code).toBe('VALIDATION_FAILED');
  });

  test('an inferred ALPHA with a bad format is a 400', () => {
    expect(appErrorFrom(() => parseKey({ key_value: '@ab' })).code).toBe('VALIDATION_FAILED');
  });
});
