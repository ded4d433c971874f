/**
 * The sandbox's out-of-band data (design.md section 2): the merchant approved at the sponsor bank
 * and its accounts. Seeding is idempotent: existing accounts keep their balances.
 */
import { approveSponsorBankMerchant, type SponsorBankStore } from '../../shared/domain/sponsor-bank';

export const SANDBOX_MERCHANT = {
  identification_type: 'NIT',
  identification_number: '900123456',
  business_name: 'Tienda La Esperanza SAS',
  accounts: ['000100200301', '000100200302', '000100200303'],
} as const;

export async function seedSandbox(sponsorBank: SponsorBankStore, now: string): Promise<void> {
  await approveSponsorBankMerchant(sponsorBank, { ...SANDBOX_MERCHANT, accounts: [...SANDBOX_MERCHANT.accounts] }, now);
}
