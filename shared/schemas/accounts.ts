/** Account schemas: spec 2.2, 4.2 and 4.3. */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, MONEY_VALUE, TIMESTAMP, UUID } from './common';
import { customerFilters } from './customers';
import { listQueryUnderCustomer, paginationInfoSchema } from './lists';

export const linkAccountRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['customer_id', 'type', 'number'],
  properties: {
    customer_id: UUID,
    type: { type: 'string', enum: ['ORDINARY'] },
    number: ACCOUNT_NUMBER,
  },
} as const;

export type LinkAccountRequest = FromSchema<typeof linkAccountRequestSchema>;

const copSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['currency', 'value'],
  properties: { currency: { type: 'string', const: 'COP' }, value: MONEY_VALUE },
} as const;

/** The answer of the link call and of GET /v1/accounts/{id}. */
export const accountSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'customer_id', 'number', 'type', 'available_balance', 'pending_balance', 'created_at', 'updated_at'],
  properties: {
    id: UUID,
    customer_id: UUID,
    number: ACCOUNT_NUMBER,
    type: { type: 'string', enum: ['ORDINARY'] },
    available_balance: copSchema,
    pending_balance: copSchema,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  },
} as const;

export type Account = FromSchema<typeof accountSchema>;

/** An item of GET /v1/accounts: the fields spec 2.2 lists for the account list. */
export const accountListItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'customer_id',
    'account_number',
    'account_name',
    'bank_name',
    'account_status',
    'account_type',
    'available_balance',
    'pending_balance',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: UUID,
    customer_id: UUID,
    account_number: ACCOUNT_NUMBER,
    account_name: { type: 'string' },
    bank_name: { type: 'string' },
    account_status: { type: 'string', enum: ['ACTIVE'] },
    account_type: { type: 'string', enum: ['ORDINARY'] },
    available_balance: copSchema,
    pending_balance: copSchema,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  },
} as const;

export type AccountListItem = FromSchema<typeof accountListItemSchema>;

export const accountListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['accounts', 'pagination_info'],
  properties: { accounts: { type: 'array', items: accountListItemSchema }, pagination_info: paginationInfoSchema },
} as const;

export const accountListQuerySchema = listQueryUnderCustomer(customerFilters);

export type AccountListQuery = FromSchema<typeof accountListQuerySchema>;
