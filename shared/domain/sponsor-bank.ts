/**
 * The sponsor bank's records of approved merchants and their accounts (docs/onboarding.md). On a
 * connector stage the bank pushes its decisions (`PUT /network/v1/merchants/...`, shared/domain/
 * onboarding.ts); on a sandbox stage the fixtures and the operator route write the same records. Each
 * approval names the one platform (client) that may link the merchant; the sandbox's fixture merchant
 * is approved for every sandbox client (EVERY_PLATFORM).
 */
import type { ApproveSponsorBankMerchantRequest } from '../schemas/sponsor-bank';
import { AppError } from './errors';
import { cop, parseCents } from './money';

/** A new sandbox account starts with this balance unless the operator says otherwise. */
export const DEFAULT_SANDBOX_BALANCE_CENTS = 1_000_000_00;

/** The platform of an approval any client may link: the sandbox's fixture merchant. */
export const EVERY_PLATFORM = '*';

export type ApprovalStatus = 'APPROVED' | 'REVOKED';

export interface ApprovedAccount {
  readonly number: string;
  readonly availableBalanceCents: number;
}

export interface ApprovedMerchant {
  readonly identificationType: 'NIT';
  readonly identificationNumber: string;
  readonly businessName: string;
  readonly approvedAt: string;
  /**
   * The client that may link the merchant and its accounts, or EVERY_PLATFORM. Absent, as is the
   * status, on an approval stored before approvals named them (sandbox stages only: production had
   * none): such an approval is APPROVED for every platform.
   */
  readonly platform?: string;
  readonly status?: ApprovalStatus;
}

/** Who may overwrite an approval's platform: the bank (its decision), or only the same platform (sandbox). */
export type ApprovalWriter = 'bank' | 'platform';

export interface SponsorBankStore {
  findMerchant(nit: string): Promise<ApprovedMerchant | undefined>;
  /** An account the bank approved for the merchant with this NIT, with its balance. */
  findAccount(nit: string, number: string): Promise<ApprovedAccount | undefined>;
  /**
   * Records the merchant; adds accounts not yet known, leaving existing ones (and balances) alone.
   * As the 'platform' writer, only while the NIT is not approved for another platform: else
   * 'other_platform' and nothing is written.
   */
  saveMerchant(
    merchant: ApprovedMerchant,
    accounts: readonly ApprovedAccount[],
    writer?: ApprovalWriter,
  ): Promise<ApprovedAccount[] | 'other_platform'>;
}

/**
 * The platforms an approval may name for `tenant` to hold it: its own, or every platform. What
 * approvedFor checks of a read approval, a store checks as a condition (an approval that names none,
 * stored before approvals named them, holds too).
 */
export const platformsApprovingFor = (tenant: string): readonly string[] => [tenant, EVERY_PLATFORM];

/** Whether `tenant` may link the merchant of this approval (and its accounts) now. */
export const approvedFor = (approval: ApprovedMerchant | undefined, tenant: string): approval is ApprovedMerchant =>
  approval !== undefined &&
  approval.status !== 'REVOKED' &&
  (approval.platform === undefined || approval.platform === EVERY_PLATFORM || approval.platform === tenant);

/**
 * Whether what is linked under this approval is claimed across all clients: a NIT by one platform, an
 * account number by one customer. Not for an approval of every platform (the sandbox's fixture, which
 * every sandbox client links on its own).
 */
export const claimsAcrossClients = (approval: ApprovedMerchant): boolean =>
  approval.platform !== undefined && approval.platform !== EVERY_PLATFORM;

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

/**
 * POST /sandbox/sponsor-bank/merchants: approves a merchant (again) for its caller, `platform`. A NIT
 * approved for another client is 403: the sandbox's operator writes only its own approvals (it would
 * otherwise take another client's merchant, and read its accounts); the sandbox's seed writes as the
 * bank. The answer lists every account the bank now holds for it.
 */
export async function approveSponsorBankMerchant(
  store: SponsorBankStore,
  request: ApproveSponsorBankMerchantRequest,
  now: string,
  platform: string,
  writer: ApprovalWriter = 'platform',
) {
  const merchant: ApprovedMerchant = {
    identificationType: request.identification_type,
    identificationNumber: request.identification_number,
    businessName: request.business_name,
    approvedAt: now,
    platform,
    status: 'APPROVED',
  };
  const accounts = await store.saveMerchant(merchant, accountsOf(request), writer);
  if (accounts === 'other_platform') {
    throw new AppError('FORBIDDEN', 'This NIT is approved at the sponsor bank for another client');
  }
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
