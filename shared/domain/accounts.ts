/** Bank accounts of business customers: linking, reading and listing (docs/contract.md, Accounts). */
import type { Account, AccountListItem, AccountListQuery, LinkAccountRequest } from '../schemas/accounts';
import type { CustomerStatus } from '../schemas/customers';
import { newRecord, type NewRecords } from './clock';
import {
  customerStatusFilter,
  getOwnCustomer,
  mobileFilter,
  type CustomerStatusFollowers,
  type CustomerStore,
} from './customers';
import { AppError } from './errors';
import { ownReader } from './ownership';
import { listOwn, type RecordReader } from './lists';
import { cop } from './money';
import { approvedFor, claimsAcrossClients, type SponsorBankStore } from './sponsor-bank';

/** An account as stored: the public fields, the tenant, and copies of the owner's data lists filter by. */
export interface StoredAccount {
  readonly id: string;
  readonly tenant: string;
  readonly customer_id: string;
  readonly number: string;
  readonly type: 'ORDINARY';
  readonly account_status: 'ACTIVE';
  /** The owning customer's business name (the list's account_name). */
  readonly account_name: string;
  readonly available_balance_cents: number;
  readonly pending_balance_cents: number;
  /** The owning customer's status, kept in step by PATCH /v1/customers/{id}. */
  readonly customer_status: CustomerStatus;
  /** The customer's status_version the copy above comes from. */
  readonly customer_status_version: number;
  /** The owning customer's mobile phone (E.164). */
  readonly customer_mobile: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export type InsertAccountResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly reason: 'number_taken'; readonly existingId: string }
  | { readonly inserted: false; readonly reason: 'customer_inactive' }
  | { readonly inserted: false; readonly reason: 'linked_elsewhere' };

export interface AccountListFilters {
  readonly customerId?: string;
  readonly customerStatus?: CustomerStatus;
  readonly mobile?: string;
}

export interface AccountStore extends RecordReader<StoredAccount, AccountListFilters>, CustomerStatusFollowers {
  /**
   * Inserts unless the customer already has this account number ('number_taken') or, when `claim` says
   * the number is claimed across all clients, another customer has ('linked_elsewhere'); and only
   * while the customer is ACTIVE; atomic against concurrent inserts and status changes.
   */
  insert(account: StoredAccount, claim?: { readonly acrossClients: boolean }): Promise<InsertAccountResult>;
}

export interface LinkAccountDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly accounts: Pick<AccountStore, 'insert'>;
  readonly sponsorBank: Pick<SponsorBankStore, 'findMerchant' | 'findAccount'>;
}

/** The account object: the answer of the link call and of GET /v1/accounts/{id}. */
export function publicAccount(account: StoredAccount): Account {
  return {
    id: account.id,
    customer_id: account.customer_id,
    number: account.number,
    type: account.type,
    available_balance: cop(account.available_balance_cents),
    pending_balance: cop(account.pending_balance_cents),
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

/**
 * An item of the account list (docs/contract.md, Accounts). account_type repeats the account's type: ORDINARY is the
 * only type the contract supports (docs/data-model.md explains why not the example's LOW_VALUE).
 */
export function accountListItem(account: StoredAccount, bankName: string): AccountListItem {
  return {
    id: account.id,
    customer_id: account.customer_id,
    account_number: account.number,
    account_name: account.account_name,
    bank_name: bankName,
    account_status: account.account_status,
    account_type: account.type,
    available_balance: cop(account.available_balance_cents),
    pending_balance: cop(account.pending_balance_cents),
    created_at: account.created_at,
    updated_at: account.updated_at,
  };
}

const accountNotApproved = () =>
  new AppError(
    'ACCOUNT_NOT_APPROVED',
    "No account with this number is approved at the sponsor bank for the customer's NIT and this client",
  );

const inactive = (customerId: string) =>
  new AppError('CUSTOMER_INACTIVE', `Customer ${customerId} is inactive: activate it before linking accounts`);

/**
 * POST /accounts: links an account the sponsor bank approved for the customer's NIT, for this client.
 * Unknown customer 404, another client's 403, inactive 400; a number not approved, the merchant's
 * approval revoked or another platform's, or the number linked by another customer: the one 400
 * ACCOUNT_NOT_APPROVED (no answer tells one platform what another holds); the customer's own number
 * again 409.
 */
export async function linkAccount(
  deps: LinkAccountDeps,
  tenant: string,
  request: LinkAccountRequest,
): Promise<Account> {
  const customer = await getOwnCustomer(deps.customers, tenant, request.customer_id);
  if (customer.status !== 'ACTIVE') throw inactive(customer.id);
  const [merchant, approved] = await Promise.all([
    deps.sponsorBank.findMerchant(customer.identification_number),
    deps.sponsorBank.findAccount(customer.identification_number, request.number),
  ]);
  if (!approvedFor(merchant, tenant) || !approved) throw accountNotApproved();
  const account: StoredAccount = {
    ...newRecord(deps, tenant),
    customer_id: customer.id,
    number: request.number,
    type: request.type,
    account_status: 'ACTIVE',
    account_name: customer.business_name,
    // Sandbox balances come from the sponsor bank's record; nothing is pending on a new link.
    available_balance_cents: approved.availableBalanceCents,
    pending_balance_cents: 0,
    customer_status: customer.status,
    customer_status_version: customer.status_version ?? 0,
    customer_mobile: customer.mobile_phone_number,
  };
  const result = await deps.accounts.insert(account, { acrossClients: claimsAcrossClients(merchant) });
  if (!result.inserted) {
    if (result.reason === 'customer_inactive') throw inactive(customer.id);
    if (result.reason === 'linked_elsewhere') throw accountNotApproved();
    throw new AppError('ACCOUNT_ALREADY_LINKED', 'This customer already linked an account with this number', {
      account_id: result.existingId,
    });
  }
  return publicAccount(account);
}

/** Reads one of the tenant's accounts: 404 when unknown, 403 when another client's. */
export const getOwnAccount = ownReader<StoredAccount>('Account');

export interface ListAccountsDeps {
  readonly accounts: Pick<AccountStore, 'list'>;
  /** The sponsor bank that holds the accounts (the participant): the list's bank_name. */
  readonly bankName: string;
}

/** The store's filters for a list query: a customer's accounts, and copies of its status and mobile. */
function accountFilters(query: AccountListQuery): AccountListFilters {
  const customerStatus = customerStatusFilter(query.customer_status);
  const mobile = mobileFilter(query.mobile);
  return {
    ...(query.customer_id ? { customerId: query.customer_id.toLowerCase() } : {}),
    ...(customerStatus ? { customerStatus } : {}),
    ...(mobile ? { mobile } : {}),
  };
}

/** GET /v1/accounts: the tenant's accounts, a page at a time (docs/pagination.md). */
export function listAccounts(deps: ListAccountsDeps, tenant: string, query: AccountListQuery, now: string) {
  return listOwn(deps.accounts, tenant, query, now, {
    name: 'accounts',
    filters: accountFilters,
    toPublic: (account: StoredAccount) => accountListItem(account, deps.bankName),
  });
}
