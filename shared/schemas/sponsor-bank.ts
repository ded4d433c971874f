/** Sandbox operator tool: approve a merchant at the sponsor bank (docs/sandbox.md). */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, MONEY_VALUE, NIT, text } from './common';

export const approveSponsorBankMerchantRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['identification_type', 'identification_number', 'business_name'],
  properties: {
    identification_type: { type: 'string', enum: ['NIT'] },
    identification_number: NIT,
    business_name: text(140),
    accounts: {
      type: 'array',
      maxItems: 100,
      items: {
        anyOf: [
          ACCOUNT_NUMBER,
          {
            type: 'object',
            additionalProperties: false,
            required: ['number'],
            properties: { number: ACCOUNT_NUMBER, available_balance: MONEY_VALUE },
          },
        ],
      },
    },
  },
} as const;

export type ApproveSponsorBankMerchantRequest = FromSchema<typeof approveSponsorBankMerchantRequestSchema>;
