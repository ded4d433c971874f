/** Sandbox operator tool: approve a merchant at the sponsor bank (docs/sandbox.md). */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, closedObject, MONEY_VALUE, NIT, text } from './common';

export const approveSponsorBankMerchantRequestSchema = closedObject(
  {
    identification_type: { type: 'string', enum: ['NIT'] },
    identification_number: NIT,
    business_name: text(140),
    accounts: {
      type: 'array',
      maxItems: 100,
      // An account number, or an account number with the balance it opens with.
      items: {
        anyOf: [ACCOUNT_NUMBER, closedObject({ number: ACCOUNT_NUMBER, available_balance: MONEY_VALUE }, ['number'])],
      },
    },
  },
  ['identification_type', 'identification_number', 'business_name'],
);

export type ApproveSponsorBankMerchantRequest = FromSchema<typeof approveSponsorBankMerchantRequestSchema>;
