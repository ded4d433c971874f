/**
 * The sponsor bank's records of approved merchants and their accounts. In production they come from
 * the bank's manual onboarding; in the sandbox from the fixtures and the operator endpoint.
 */
import type { ApproveSponsorBankMerchantRequest } from '../schemas/sponsor-bank';
import { cop, parseCents } from './money';

/** A new sandbox account starts with this balance unless the operator says otherwise. */
export const DEFAULT_SANDBOX_BALANCE_CENTS = 1_000_000_00;

export interface ApprovedAccount {
  readonly number: string;
  readonly availableBalanceCents: number;
}

export interface ApprovedMerchant {
  readonly identificationType: 'NIT';
  readonly identificationNumber: string;
  readonly businessName: string;
  readonly approvedAt: string;
}

export interface SponsorBankStore {
  findMerchant(nit: string): Promise<ApprovedMerchant | undefined>;
  /** An account the bank approved for the merchant with this NIT, with its balance. */
  findAccount(nit: string, number: string): Promise<ApprovedAccount | undefined>;
  /** Records the merchant; adds accounts not yet known, leaving existing ones (and balances) alone. */
  saveMerchant(merchant: ApprovedMerchant, accounts: readonly ApprovedAccount[]): Promise<ApprovedAccount[]>;
}

function accountsOf(request: ApproveSponsorBankMerchantRequest): ApprovedAccount[] {
  const byNumber = new Map<string, ApprovedAccount>();
  for (const entry of request.accounts ?? []) {
    const account =
      typeof entry === 'string'
        ? { number: entry, availableBalanceCents: DEFAULT_SANDBOX_BALANCE_CENTS }
        : {
            number: entry.number,
            availableBalanceCents:
              entry.available_balance === undefined
                ? DEFAULT_SANDBOX_BALANCE_CENTS
                : parseCents(entry.available_balance),
          };
    byNumber.set(account.number, account);
  }
  return [...byNumber.values()];
}

/** Approves a merchant (again): the answer lists every account the bank now holds for it. */
export async function approveSponsorBankMerchant(
  store: SponsorBankStore,
  request: ApproveSponsorBankMerchantRequest,
  now: string,
) {
  const merchant: ApprovedMerchant = {
    identificationType: request.identification_type,
    identificationNumber: request.identification_number,
    businessName: request.business_name,
    approvedAt: now,
  };
  const accounts = await store.saveMerchant(merchant, accountsOf(request));
  return {
    identification_type: merchant.identificationType,
    identification_number: merchant.identificationNumber,
    business_name: merchant.businessName,
    accounts: accounts.map((account) => ({
      number: account.number,
      available_balance: cop(account.availableBalanceCents),
    })),
  };
}
