/**
 * The sponsor bank's decisions on merchants (docs/onboarding.md): `PUT /network/v1/merchants/NIT/{nit}`
 * approves a merchant for one platform (our client) with its accounts and their opening balances, or
 * revokes it. A revocation deactivates the platform's customer of that NIT (its accounts follow) and
 * suspends its ACTIVE keys, so that they no longer resolve in the directory. Each step is safe to
 * repeat: the bank sending the same decision again changes nothing more.
 */
import type { MerchantDecisionAnswer, MerchantDecisionRequest } from '../schemas/network';
import type { Clock, IdGenerator } from './clock';
import { setCustomerStatus, type CustomerStatusFollowers, type CustomerStore } from './customers';
import { AppError } from './errors';
import type { KeyPublisher } from './key-publishing';
import { moveKey, type KeyStore, type StoredKey } from './keys';
import { MAX_PAGE_SIZE } from '../schemas/bounds';
import { parsePageRequest, walkPages } from './lists';
import { cop, parseCents } from './money';
import { EVERY_PLATFORM, type SponsorBankStore } from './sponsor-bank';

export interface MerchantDecisionDeps {
  readonly sponsorBank: Pick<SponsorBankStore, 'saveMerchant' | 'findMerchant'>;
  readonly customers: Pick<CustomerStore, 'findByNit' | 'get' | 'updateStatus'>;
  readonly followers: CustomerStatusFollowers;
  readonly keys: Pick<KeyStore, 'walk' | 'get' | 'transition'>;
  /** The network's directory, where the suspended keys stop resolving too. */
  readonly publisher: KeyPublisher;
  readonly clock: Clock;
  /** The customer.updated event of a revocation's deactivation. */
  readonly ids: IdGenerator;
  /**
   * Runs changes to a platform's records as the bank's, in that platform's own audit trail (a
   * revocation's deactivation and suspensions).
   */
  readonly onBehalfOf: <T>(platform: string, work: () => Promise<T>) => Promise<T>;
}

const NIT_PATTERN = /^[0-9]{9}$/;

/** The ACTIVE keys of a customer, every page of them, as they stand now. */
async function activeKeysOf(deps: MerchantDecisionDeps, tenant: string, customerId: string): Promise<StoredKey[]> {
  const request = parsePageRequest({ page_size: MAX_PAGE_SIZE }, deps.clock.now());
  const found: StoredKey[] = [];
  const pages = walkPages(
    (after) => deps.keys.walk(tenant, { customerId, status: 'ACTIVE' }, request, after),
    (key: StoredKey) => key,
  );
  for await (const page of pages) found.push(...page);
  return found;
}

/**
 * Deactivates the platform's customer of a revoked NIT and suspends its ACTIVE keys. Whether this
 * call deactivated it (false when there is none, or it was INACTIVE already).
 */
async function withdraw(deps: MerchantDecisionDeps, platform: string, nit: string): Promise<boolean> {
  const customer = await deps.customers.findByNit(platform, nit);
  if (!customer) return false;
  const wasActive = customer.status === 'ACTIVE';
  // Run even when INACTIVE already: a repeat of the decision finishes what a crash left half done.
  await setCustomerStatus(deps, platform, customer.id, 'INACTIVE');
  for (const key of await activeKeysOf(deps, platform, customer.id)) {
    // A key changed meanwhile by its client ('conflict') is read again by the next repeat, if any;
    // a directory that does not answer fails the decision (503), which the bank sends again.
    await moveKey(deps, key, 'SUSPENDED', deps.clock.now());
  }
  return wasActive;
}

export async function applyMerchantDecision(
  deps: MerchantDecisionDeps,
  path: { readonly identification_type: string; readonly identification_number: string },
  request: MerchantDecisionRequest,
): Promise<MerchantDecisionAnswer> {
  if (path.identification_type !== 'NIT' || !NIT_PATTERN.test(path.identification_number)) {
    throw new AppError('NOT_FOUND', 'A merchant is named by NIT and its 9 digits, without check digit');
  }
  const nit = path.identification_number;
  const now = deps.clock.now();
  const before = await deps.sponsorBank.findMerchant(nit);
  const accounts = await deps.sponsorBank.saveMerchant(
    {
      identificationType: 'NIT',
      identificationNumber: nit,
      businessName: request.business_name,
      approvedAt: now,
      platform: request.platform,
      status: request.status,
    },
    (request.accounts ?? []).map((account) => ({
      number: account.account_number,
      availableBalanceCents: parseCents(account.opening_balance.value),
    })),
    'bank',
  );
  if (accounts === 'other_platform') throw new Error('The bank writes any approval');
  // Withdrawn: the platform of a revocation, and a platform the approval no longer names (a revocation
  // or a move naming another platform must not leave the first one's customer active).
  const withdrawn = new Set<string>();
  if (request.status === 'REVOKED') withdrawn.add(request.platform);
  if (before?.platform !== undefined && before.platform !== EVERY_PLATFORM && before.platform !== request.platform) {
    withdrawn.add(before.platform);
  }
  let deactivated = false;
  for (const platform of withdrawn) {
    deactivated = (await deps.onBehalfOf(platform, () => withdraw(deps, platform, nit))) || deactivated;
  }
  return {
    identification_type: 'NIT',
    identification_number: nit,
    platform: request.platform,
    business_name: request.business_name,
    status: request.status,
    accounts: accounts.map((account) => ({
      account_number: account.number,
      opening_balance: cop(account.availableBalanceCents),
    })),
    customer_deactivated: deactivated,
  };
}
