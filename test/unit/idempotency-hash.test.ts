/** What makes two requests "the same" under an Idempotency-Key, and which keys are accepted. */
import { IDEMPOTENCY_HEADER, readIdempotencyKey, requestHash } from '../../shared/http/idempotency';
import { appErrorFrom } from '../support/thrown';

const request = (body: unknown, method = 'POST', path = '/v1/customers/business/link') => ({ method, path, body });

describe('requestHash', () => {
  const body = {
    type: 'BUSINESS',
    business_name: 'Tienda',
    address: { city: 'Bogotá', country: 'CO' },
    tags: ['a', 'b'],
  };

  test('is a SHA-256 hex digest and is stable', () => {
    expect(requestHash(request(body))).toMatch(/^[0-9a-f]{64}$/);
    expect(requestHash(request(body))).toBe(requestHash(request(structuredClone(body))));
  });

  test('ignores the order of keys, also in nested objects', () => {
    const reordered = {
      tags: ['a', 'b'],
      address: { country: 'CO', city: 'Bogotá' },
      business_name: 'Tienda',
      type: 'BUSINESS',
    };
    expect(requestHash(request(reordered))).toBe(requestHash(request(body)));
  });

  test('ignores key order in objects inside arrays', () => {
    expect(requestHash(request({ accounts: [{ number: '1', balance: '2.00' }] }))).toBe(
      requestHash(request({ accounts: [{ balance: '2.00', number: '1' }] })),
    );
  });

  test('differs for another body', () => {
    expect(requestHash(request({ ...body, business_name: 'Otra' }))).not.toBe(requestHash(request(body)));
    expect(requestHash(request({ ...body, address: { city: 'Cali', country: 'CO' } }))).not.toBe(
      requestHash(request(body)),
    );
  });

  test('differs when a member is added or removed', () => {
    expect(requestHash(request({ ...body, extra: null }))).not.toBe(requestHash(request(body)));
  });

  test('keeps the order of array items (they are data, not keys)', () => {
    expect(requestHash(request({ ...body, tags: ['b', 'a'] }))).not.toBe(requestHash(request(body)));
  });

  test('tells values of other types apart', () => {
    expect(requestHash(request({ n: 1 }))).not.toBe(requestHash(request({ n: '1' })));
  });

  test('differs for another path', () => {
    expect(requestHash(request(body, 'POST', '/sandbox/sponsor-bank/merchants'))).not.toBe(requestHash(request(body)));
  });

  test('differs for another method', () => {
    expect(requestHash(request(body, 'PATCH'))).not.toBe(requestHash(request(body)));
  });
});

describe('readIdempotencyKey', () => {
  const read = (key: string | undefined) => readIdempotencyKey({ [IDEMPOTENCY_HEADER]: key });

  test('no header means no key', () => {
    expect(readIdempotencyKey({})).toBeUndefined();
    expect(read(undefined)).toBeUndefined();
  });

  test.each([
    ['a UUID', '3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11'],
    ['one character', 'a'],
    ['255 characters', 'k'.repeat(255)],
    ['the first and last visible ASCII characters', '!~'],
    ['punctuation', 'order:42/retry#1'],
  ])('accepts %s', (_rule, key) => {
    expect(read(key)).toBe(key);
  });

  test.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'order 42'],
    ['a tab', 'order\t42'],
    ['a newline', 'order\n42'],
    ['a NUL', 'order\u000042'],
    ['DEL', 'order\u007f'],
    ['non-ASCII', 'clé-42'],
    ['an emoji', 'key-😀'],
  ])('rejects %s', (_rule, key) => {
    const error = appErrorFrom(() => read(key));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.extensions.errors?.[0]?.field).toBe('Idempotency-Key');
  });
});
