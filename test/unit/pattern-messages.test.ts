/**
 * Validation messages say what a value must be, never the regular expression it failed: every
 * `pattern` of the request schemas carries a `patternMessage`, and the validators report it.
 */
import type { FieldError } from '../../shared/domain/errors';
import { bodyValidator, queryValidator } from '../../shared/http/validation';
import { linkAccountRequest } from '../../shared/schemas/generated/accounts';
import { customerListQuery, linkMerchantRequest } from '../../shared/schemas/generated/customers';
import { createPaymentRequest } from '../../shared/schemas/generated/payments';
import { PATTERN_MESSAGE, requestAjv } from '../../tools/request-ajv';
import { requestSchemaModules } from '../../tools/validators';
import { appErrorFrom } from '../support/thrown';

interface PatternSite {
  readonly at: string;
  readonly pattern: unknown;
  readonly message: unknown;
}

/** Every subschema with a `pattern`, anywhere in `schema`, by its JSON path. */
function patternSites(schema: unknown, at: string): PatternSite[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const own = 'pattern' in node ? [{ at, pattern: node['pattern'], message: node[PATTERN_MESSAGE] }] : [];
  return [...own, ...Object.entries(node).flatMap(([key, value]) => patternSites(value, `${at}.${key}`))];
}

describe('every pattern of every request schema', () => {
  const sites: PatternSite[] = [];
  beforeAll(async () => {
    for (const module of await requestSchemaModules()) {
      for (const { schemaName, schema } of module.schemas)
        sites.push(...patternSites(schema, `${module.name}.${schemaName}`));
    }
  });

  test('the walk finds the patterns (the check below is not empty)', () => {
    expect(sites.length).toBeGreaterThan(20);
  });

  test('has a patternMessage', () => {
    const undescribed = sites.filter((site) => typeof site.message !== 'string' || site.message === '');
    expect(undescribed.map((site) => `${site.at}: ${String(site.pattern)}`)).toEqual([]);
  });

  test('says what is expected in words: "must …", without the regular expression', () => {
    const unreadable = sites.filter(
      (site) => !/^must /.test(String(site.message)) || String(site.message).includes(String(site.pattern)),
    );
    expect(unreadable.map((site) => `${site.at}: ${String(site.message)}`)).toEqual([]);
  });
});

describe('the request AJV', () => {
  test('refuses to compile a pattern without a patternMessage, naming the pattern', () => {
    expect(() => requestAjv('body').compile({ type: 'string', pattern: '^[0-9]{3}$' })).toThrow(
      'The pattern "^[0-9]{3}$" has no patternMessage',
    );
  });

  test('refuses a patternMessage without a pattern', () => {
    expect(() => requestAjv('body').compile({ type: 'string', patternMessage: 'must be 3 digits' })).toThrow(
      /patternMessage/,
    );
  });
});

describe('the messages a client reads', () => {
  const fieldErrorsOf = (validate: () => unknown): readonly FieldError[] =>
    appErrorFrom(validate).extensions.errors ?? [];

  test('an account number with letters: must be 4 to 20 digits', () => {
    const validate = bodyValidator(linkAccountRequest);
    const body = { customer_id: '7d7c5a1e-0000-4000-8000-000000000000', type: 'ORDINARY', number: '0001002003AB' };
    expect(fieldErrorsOf(() => validate(body))).toEqual([{ field: 'number', message: 'must be 4 to 20 digits' }]);
  });

  test('a merchant category code of 3 digits and a blank business name', () => {
    const validate = bodyValidator(linkMerchantRequest);
    const body = {
      type: 'BUSINESS',
      business_name: '   ',
      email: 'pagos@esperanza.co',
      mobile_phone_number: '300-123',
      identification_type: 'NIT',
      identification_number: '900123456',
      address: { line_1: 'Calle 10', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
      merchant_category_code: '541',
    };
    expect(fieldErrorsOf(() => validate(body))).toEqual([
      { field: 'business_name', message: 'must not be blank' },
      { field: 'mobile_phone_number', message: 'must be 7 to 15 digits, with or without a leading +' },
      { field: 'merchant_category_code', message: 'must be 4 digits' },
    ]);
  });

  test('an amount with one decimal: the amount format, with the 13 digits a payment allows', () => {
    const validate = bodyValidator(createPaymentRequest);
    const body = {
      customer_id: '7d7c5a1e-0000-4000-8000-000000000000',
      account_id: '7d7c5a1e-0000-4000-8000-000000000001',
      resolution_id: '7d7c5a1e-0000-4000-8000-000000000002',
      amount: { value: '1500.5', currency: 'COP' },
    };
    expect(fieldErrorsOf(() => validate(body))).toEqual([
      {
        field: 'amount.value',
        message:
          'must be an amount with two decimals and 1 to 13 digits before the point, without leading zeros, e.g. 15000.00',
      },
    ]);
  });

  test('a query parameter: order_direction=up', () => {
    const validate = queryValidator(customerListQuery);
    expect(fieldErrorsOf(() => validate({ order_direction: 'up' }))).toEqual([
      { field: 'order_direction', message: 'must be asc or desc, in any letter case' },
    ]);
  });
});
