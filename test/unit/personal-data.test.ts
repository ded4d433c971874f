/**
 * Finding and masking a person in stored records (shared/domain/personal-data.ts, docs/privacy.md):
 * by identification type and number anywhere in a record, a stored answer's JSON body included;
 * masked where they are named, with the account and key beside them; nobody else touched.
 */
import { maskNumber } from '../../shared/domain/masking';
import { maskSubject, namesSubject } from '../../shared/domain/personal-data';

const ana = { identification_type: 'CC', identification_number: '1020304050' };
const owner = { ...ana, type: 'PERSON', first_name: 'Ana', first_last_name: 'Gómez' };
const counterparty = {
  key: { key_type: 'PHONE', key_value: '+573001234567' },
  owner,
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
};

test('a number keeps its last four', () => {
  expect(maskNumber('1020304050')).toBe('****4050');
  expect(maskNumber('4050')).toBe('****');
});

test('a person is named by type and number, however deep, in a JSON body too; a credit may omit the type', () => {
  expect(namesSubject({ detail: { counterparty } }, ana)).toBe(true);
  expect(namesSubject({ response: { statusCode: 200, body: JSON.stringify({ counterparty }) } }, ana)).toBe(true);
  expect(namesSubject({ owner: { identification_number: '1020304050', name: 'ANA GOMEZ' } }, ana)).toBe(true);
  expect(namesSubject({ counterparty }, { ...ana, identification_type: 'NIT' })).toBe(false);
  expect(namesSubject({ counterparty }, { ...ana, identification_number: '1020304051' })).toBe(false);
  expect(namesSubject({ note: '1020304050' }, ana)).toBe(false);
});

test('masking hides the person, their account and key beside them, and nothing else', () => {
  const body = JSON.stringify({ id: 'p-1', counterparty });
  const masked = maskSubject({ status: 'COMPLETED', response: { statusCode: 200, body } }, ana) as any;
  const answer = JSON.parse(masked.response.body);
  expect(answer.counterparty).toEqual({
    key: { key_type: 'PHONE', key_value: '****4567' },
    owner: { ...owner, identification_number: '****4050', first_name: '[erased]', first_last_name: '[erased]' },
    participant: counterparty.participant,
    account: { account_number: '****2003', account_type: 'SAVINGS' },
  });
  expect(masked.status).toBe('COMPLETED');
  expect(namesSubject(masked, ana)).toBe(false);
  const someoneElse = { counterparty: { ...counterparty, owner: { ...owner, identification_number: '9' } } };
  expect(maskSubject(someoneElse, ana)).toEqual(someoneElse);
});
