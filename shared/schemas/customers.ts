/** Customer (business merchant) schemas: linking a merchant, reading, changing and listing customers. */
import type { FromSchema } from 'json-schema-to-ts';
import { allRequired, closedObject, digits, matching, NIT, text, TIMESTAMPS, UUID } from './common';
import { anyCase, listAnswer, listQuery } from './lists';

export const addressSchema = closedObject(
  {
    line_1: text(100),
    line_2: text(100),
    line_3: text(100),
    city: text(60),
    state: text(60),
    // Colombian postal codes have six digits.
    post_code: digits(6),
    country: { type: 'string', const: 'CO' },
  },
  ['line_1', 'city', 'state', 'post_code', 'country'],
);

export const linkMerchantRequestSchema = allRequired({
  type: { type: 'string', enum: ['BUSINESS'] },
  business_name: text(140),
  email: { type: 'string', minLength: 1, maxLength: 35, format: 'email' },
  // E.164 with at most 15 digits, with or without the leading +; normalised by the domain.
  mobile_phone_number: matching('^\\+?[0-9]{7,15}$', 'must be 7 to 15 digits, with or without a leading +'),
  identification_type: { type: 'string', enum: ['NIT'] },
  identification_number: NIT,
  address: addressSchema,
  merchant_category_code: digits(4),
});

export type LinkMerchantRequest = FromSchema<typeof linkMerchantRequestSchema>;
export type Address = FromSchema<typeof addressSchema>;

const customerProperties = {
  id: UUID,
  status: { type: 'string', enum: ['ACTIVE', 'INACTIVE'] },
  ...linkMerchantRequestSchema.properties,
  // The name the sponsor bank approved (what the directory shows); the link request's, when it differs,
  // is `trade_name`.
  trade_name: text(140),
  mobile_phone_number: matching('^\\+[0-9]{7,15}$', 'must be + and 7 to 15 digits'),
  ...TIMESTAMPS,
} as const;

export const customerSchema = closedObject(customerProperties, [
  'id',
  'status',
  'type',
  'business_name',
  'email',
  'mobile_phone_number',
  'identification_type',
  'identification_number',
  'address',
  'merchant_category_code',
  'created_at',
  'updated_at',
]);

export type Customer = FromSchema<typeof customerSchema>;
export type CustomerStatus = Customer['status'];

/** PATCH /v1/customers/{id}: the status is the one field a client changes. */
export const updateCustomerRequestSchema = allRequired({ status: customerSchema.properties.status });

export type UpdateCustomerRequest = FromSchema<typeof updateCustomerRequestSchema>;

/** The filters on the customer, in the lists of customers and of accounts. */
export const customerFilters = {
  // The original contract's examples write the status in lower case.
  customer_status: anyCase('ACTIVE', 'INACTIVE'),
  // A mobile number in any of the accepted forms. A `+` sent unencoded in a query string arrives as
  // a space, so a leading space is read as `+`.
  mobile: matching('^[+ ]?[0-9]{7,15}$', 'must be 7 to 15 digits, with or without a leading +'),
} as const;

export const customerListQuerySchema = listQuery({ ...customerFilters, identification_number: NIT });

export type CustomerListQuery = FromSchema<typeof customerListQuerySchema>;

export const customerListSchema = listAnswer('customers', customerSchema);
