/** Account schemas: linking an account, reading it, listing accounts (docs/endpoints.md). */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, allRequired, moneySchema, TIMESTAMPS, UUID } from './common';
import { customerFilters } from './customers';
import { signedMoneySchema } from './ledger';
import { listAnswer, listQueryUnderCustomer } from './lists';

const ACCOUNT_TYPE = { type: 'string', enum: ['ORDINARY'] } as const;

export const linkAccountRequestSchema = allRequired({ customer_id: UUID, type: ACCOUNT_TYPE, number: ACCOUNT_NUMBER });

export type LinkAccountRequest = FromSchema<typeof linkAccountRequestSchema>;

/**
 * The balances and timestamps both account answers end with. The available balance is signed: a
 * reversal of a credit the merchant already spent takes it below zero (docs/network.md, "Reversals").
 */
const balancesAndTimestamps = {
  available_balance: signedMoneySchema,
  pending_balance: moneySchema,
  ...TIMESTAMPS,
} as const;

/** The answer of the link call and of GET /v1/accounts/{id}. */
export const accountSchema = allRequired({
  id: UUID,
  customer_id: UUID,
  number: ACCOUNT_NUMBER,
  type: ACCOUNT_TYPE,
  ...balancesAndTimestamps,
});

export type Account = FromSchema<typeof accountSchema>;

/** An item of GET /v1/accounts: the fields of the contract's account list. */
export const accountListItemSchema = allRequired({
  id: UUID,
  customer_id: UUID,
  account_number: ACCOUNT_NUMBER,
  account_name: { type: 'string' },
  bank_name: { type: 'string' },
  account_status: { type: 'string', enum: ['ACTIVE'] },
  account_type: ACCOUNT_TYPE,
  ...balancesAndTimestamps,
});

export type AccountListItem = FromSchema<typeof accountListItemSchema>;

export const accountListSchema = listAnswer('accounts', accountListItemSchema);

export const accountListQuerySchema = listQueryUnderCustomer(customerFilters);

export type AccountListQuery = FromSchema<typeof accountListQuerySchema>;
