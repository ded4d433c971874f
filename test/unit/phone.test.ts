/** Contact phones are answered in one E.164 form (with or without +57: docs/contract.md, Customers). */
import { normaliseMobilePhone } from '../../shared/domain/phone';
import { appErrorFrom } from '../support/thrown';

describe('normaliseMobilePhone', () => {
  test.each([
    ['10 national digits get +57', '3001234567', '+573001234567'],
    ['57 + 10 digits get the plus', '573001234567', '+573001234567'],
    ['+57 + 10 digits are kept', '+573001234567', '+573001234567'],
    ['another country with + is kept (US)', '+14155552671', '+14155552671'],
    ['another country with + is kept (UK)', '+442071838750', '+442071838750'],
    ['15 digits with + is the E.164 maximum', '+123456789012345', '+123456789012345'],
  ])('%s', (_rule, raw, expected) => {
    expect(normaliseMobilePhone(raw)).toBe(expected);
  });

  test.each([
    ['+57 with 9 national digits', '+57300123456'],
    ['+57 with 11 national digits', '+5730012345678'],
    ['letters', '300123456a'],
    ['only letters', 'phone'],
    ['separators', '300-123-4567'],
    ['more than 15 digits', '+1234567890123456'],
    ['more than 15 digits without +', '1234567890123456'],
    ['fewer than 7 digits', '+123456'],
    ['fewer than 10 digits without + (not Colombian)', '300123456'],
    ['11 digits without + (neither national nor 57-prefixed)', '30012345678'],
    ['12 digits without + not starting with 57', '583001234567'],
    ['a lone plus', '+'],
    ['empty', ''],
  ])('rejects %s', (_rule, raw) => {
    const error = appErrorFrom(() => normaliseMobilePhone(raw));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.extensions.errors).toHaveLength(1);
    expect(error.extensions.errors?.[0]?.field).toBe('mobile_phone_number');
    expect(error.extensions.errors?.[0]?.message).toEqual(expect.any(String));
  });

  test('reports the field name it is given', () => {
    const error = appErrorFrom(() => normaliseMobilePhone('abc', 'owner.phone'));
    expect(error.extensions.errors?.[0]?.field).toBe('owner.phone');
  });
});
