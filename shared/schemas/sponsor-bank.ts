/** Sandbox operator tool: approve a merchant at the sponsor bank (docs/sandbox.md). */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, allRequired, closedObject, MONEY_VALUE, moneySchema, NIT, text } from './common';

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

/** The answer: the merchant as the bank now holds it, with every account approved for it. */
export const approvedMerchantSchema = allRequired({
  identification_type: approveSponsorBankMerchantRequestSchema.properties.identification_type,
  identification_number: NIT,
  business_name: text(140),
  accounts: { type: 'array', items: allRequired({ number: ACCOUNT_NUMBER, available_balance: moneySchema }) },
});
