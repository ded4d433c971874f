/** The link-merchant request schema (docs/contract.md, Customers), through the validator every route uses. */
import { AppError, type FieldError } from '../../shared/domain/errors';
import { bodyValidator } from '../../shared/http/validation';
import { linkMerchantRequestSchema, type LinkMerchantRequest } from '../../shared/schemas/customers';
import { linkMerchantRequest } from '../../shared/schemas/generated/customers';
import { appErrorFrom } from '../support/thrown';

const validate = bodyValidator<LinkMerchantRequest>(linkMerchantRequest);

type Body = Record<string, any>;

function validBody(): Body {
  return {
    type: 'BUSINESS',
    business_name: 'Tienda La Esperanza SAS',
    email: 'pagos@esperanza.co',
    mobile_phone_number: '+573001234567',
    identification_type: 'NIT',
    identification_number: '900123456',
    address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
    merchant_category_code: '5411',
  };
}

/** A valid body changed by `change` (which may delete members). */
function bodyWith(change: (body: Body) => void): Body {
  const body = validBody();
  change(body);
  return body;
}

/** The field errors of a body, or [] when it is valid. */
function fieldErrors(body: unknown): readonly FieldError[] {
  let thrown: unknown;
  try {
    validate(body);
    return [];
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(AppError);
  expect((thrown as AppError).code).toBe('VALIDATION_FAILED');
  return (thrown as AppError).extensions.errors ?? [];
}

const fieldsOf = (body: unknown): string[] => [...new Set(fieldErrors(body).map((e) => e.field))];

test('a complete body is valid and comes back unchanged', () => {
  expect(validate(validBody())).toEqual(validBody());
  expect(fieldErrors(bodyWith((b) => (b['address'].line_2 = 'Local 3')))).toEqual([]);
});

describe('type and identification', () => {
  test.each(['PERSON', 'business', ''])('type %j is rejected: BUSINESS only', (type) => {
    expect(fieldErrors(bodyWith((b) => (b['type'] = type)))).toEqual([
      { field: 'type', message: 'must be one of BUSINESS' },
    ]);
  });

  test.each(['CC', 'nit', 'NIT ', 'PASSPORT'])('identification_type %j is rejected: NIT only', (type) => {
    expect(fieldErrors(bodyWith((b) => (b['identification_type'] = type)))).toEqual([
      { field: 'identification_type', message: 'must be one of NIT' },
    ]);
  });

  test.each(['12345678', '1234567890', '90012345a', '900-12345', ' 90012345', '９00123456'])(
    'identification_number %j is rejected: exactly 9 digits',
    (nit) => {
      expect(fieldsOf(bodyWith((b) => (b['identification_number'] = nit)))).toEqual(['identification_number']);
    },
  );

  test('identification_number must be a string, not a number', () => {
    expect(fieldsOf(bodyWith((b) => (b['identification_number'] = 900123456)))).toEqual(['identification_number']);
  });
});

describe('business_name', () => {
  test.each([1, 140])('%d characters are accepted', (length) => {
    expect(fieldErrors(bodyWith((b) => (b['business_name'] = 'N'.repeat(length))))).toEqual([]);
  });

  test.each([
    ['141 characters', 'N'.repeat(141)],
    ['empty', ''],
    ['spaces only', '   '],
    ['whitespace only', '\t\n '],
  ])('%s is rejected', (_rule, name) => {
    expect(fieldsOf(bodyWith((b) => (b['business_name'] = name)))).toEqual(['business_name']);
  });
});

describe('email', () => {
  const emailOfLength = (length: number) => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

  test('35 characters are accepted', () => {
    expect(emailOfLength(35)).toHaveLength(35);
    expect(fieldErrors(bodyWith((b) => (b['email'] = emailOfLength(35))))).toEqual([]);
  });

  test('36 characters are rejected', () => {
    expect(fieldsOf(bodyWith((b) => (b['email'] = emailOfLength(36))))).toEqual(['email']);
  });

  test.each(['not-an-email', 'a@', '@example.com', 'a b@example.com', ''])('%j is not an email', (email) => {
    expect(fieldsOf(bodyWith((b) => (b['email'] = email)))).toEqual(['email']);
  });
});

describe('mobile_phone_number and merchant_category_code', () => {
  test.each(['3001234567', '573001234567', '+573001234567'])('phone %j passes the schema', (phone) => {
    expect(fieldErrors(bodyWith((b) => (b['mobile_phone_number'] = phone)))).toEqual([]);
  });

  test.each(['300 123 4567', '+1234567890123456', '123456', 'phone'])('phone %j is rejected', (phone) => {
    expect(fieldsOf(bodyWith((b) => (b['mobile_phone_number'] = phone)))).toEqual(['mobile_phone_number']);
  });

  test.each(['541', '54111', '54a1', ''])('merchant_category_code %j is rejected: 4 digits', (mcc) => {
    expect(fieldsOf(bodyWith((b) => (b['merchant_category_code'] = mcc)))).toEqual(['merchant_category_code']);
  });
});

describe('required fields', () => {
  test.each(linkMerchantRequestSchema.required.map((name) => [name]))('%s is required', (name) => {
    expect(fieldErrors(bodyWith((b) => delete b[name]))).toEqual([{ field: name, message: 'is required' }]);
  });

  test.each(['line_1', 'city', 'state', 'post_code', 'country'])(
    'address.%s is required, reported with its path',
    (name) => {
      expect(fieldErrors(bodyWith((b) => delete b['address'][name]))).toEqual([
        { field: `address.${name}`, message: 'is required' },
      ]);
    },
  );

  test.each(['line_2', 'line_3'])('address.%s is optional', (name) => {
    expect(fieldErrors(bodyWith((b) => (b['address'][name] = 'Oficina 201')))).toEqual([]);
  });
});

describe('address', () => {
  test.each(['US', 'co', 'COL', ''])('country %j is rejected: always CO', (country) => {
    expect(fieldErrors(bodyWith((b) => (b['address'].country = country)))).toEqual([
      { field: 'address.country', message: 'must be CO' },
    ]);
  });

  test.each(['11011', '1101111', 'ABC123'])('post_code %j is rejected: six digits', (postCode) => {
    expect(fieldsOf(bodyWith((b) => (b['address'].post_code = postCode)))).toEqual(['address.post_code']);
  });

  test('a city of spaces only is rejected at its path', () => {
    expect(fieldsOf(bodyWith((b) => (b['address'].city = '  ')))).toEqual(['address.city']);
  });

  test('the address must be an object', () => {
    expect(fieldsOf(bodyWith((b) => (b['address'] = 'Calle 10 # 5-20')))).toEqual(['address']);
  });
});

describe('unknown fields', () => {
  test('a top-level unknown field is rejected by name', () => {
    expect(fieldErrors(bodyWith((b) => (b['nickname'] = 'La Esperanza')))).toEqual([
      { field: 'nickname', message: 'is not allowed' },
    ]);
  });

  test('an unknown field inside address is rejected with its path (the older guide used zip_code)', () => {
    expect(fieldErrors(bodyWith((b) => (b['address'].zip_code = '110111')))).toEqual([
      { field: 'address.zip_code', message: 'is not allowed' },
    ]);
  });

  test('merchant_category_code inside address (older guide) is not allowed there', () => {
    expect(fieldErrors(bodyWith((b) => (b['address'].merchant_category_code = '5411')))).toEqual([
      { field: 'address.merchant_category_code', message: 'is not allowed' },
    ]);
  });
});

describe('every violation at once', () => {
  test('a body with three mistakes yields three field errors', () => {
    const body = bodyWith((b) => {
      b['type'] = 'PERSON';
      delete b['address'].city;
      b['zip_code'] = '110111';
    });
    const error = appErrorFrom(() => validate(body));
    expect(error.extensions.errors).toHaveLength(3);
    expect(error.extensions.errors).toEqual(
      expect.arrayContaining([
        { field: 'type', message: 'must be one of BUSINESS' },
        { field: 'address.city', message: 'is required' },
        { field: 'zip_code', message: 'is not allowed' },
      ]),
    );
    expect(error.detail).toBe('The body has 3 invalid field(s)');
  });

  test('an empty object reports every required field', () => {
    expect(fieldsOf({}).sort()).toEqual([...linkMerchantRequestSchema.required].sort());
  });

  test.each([null, [], 'text', 42])('a body that is not an object (%j) is rejected as a whole', (body) => {
    expect(fieldsOf(body)).toEqual(['(body)']);
  });
});
