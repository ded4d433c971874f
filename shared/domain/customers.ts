/** Business customers (merchants): linking (docs/contract.md, Customers), reading, listing, activation. */
import type { Customer, CustomerListQuery, CustomerStatus, LinkMerchantRequest } from '../schemas/customers';
import type { Clock, IdGenerator, NewRecords } from './clock';
import { AppError } from './errors';
import { newEvent, type DomainEvent } from './events';
import { ownReader } from './ownership';
import { listOf, type RecordReader } from './lists';
import { normaliseMobilePhone } from './phone';
import { approvedFor, claimsAcrossClients, platformsApprovingFor, type SponsorBankStore } from './sponsor-bank';

/** A customer as stored: the public object plus the client (tenant) that linked it. */
export interface StoredCustomer extends Customer {
  readonly tenant: string;
  /**
   * Incremented by every status change, and copied with the status onto the customer's accounts, so
   * that a late copy of an older status never overwrites a newer one. Absent on a new customer (0).
   */
  readonly status_version?: number;
}

export type InsertCustomerResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly reason: 'already_linked'; readonly existingId: string }
  | { readonly inserted: false; readonly reason: 'linked_elsewhere' };

export interface CustomerListFilters {
  readonly status?: CustomerStatus;
  readonly mobile?: string;
  readonly identificationNumber?: string;
}

export interface CustomerStore extends RecordReader<StoredCustomer, CustomerListFilters> {
  /**
   * Inserts unless the tenant already linked this NIT ('already_linked') or, when `claim` says the NIT
   * is claimed across all clients, another client did ('linked_elsewhere'); atomic against
   * concurrent inserts.
   */
  insert(customer: StoredCustomer, claim?: { readonly acrossClients: boolean }): Promise<InsertCustomerResult>;
  /** The customer `tenant` linked with this NIT, if any. */
  findByNit(tenant: string, nit: string): Promise<StoredCustomer | undefined>;
  /**
   * Sets the status (and updated_at) unless the status changed since `seen` was read; answers the
   * customer as stored afterwards, or undefined when another change came first. With `approvedFor`
   * (platformsApprovingFor a client), only while the sponsor bank approves the customer's NIT for one
   * of them (approvedFor, sponsor-bank.ts), checked in the change's own write: else 'not_approved',
   * nothing written.
   */
  updateStatus(
    seen: StoredCustomer,
    status: CustomerStatus,
    now: string,
    /** The change's events, written with it (customer.updated), made from the customer as changed. */
    events?: (updated: StoredCustomer) => readonly DomainEvent[],
    approvedFor?: readonly string[],
  ): Promise<StoredCustomer | undefined | 'not_approved'>;
}

/** What a customer's status change must reach besides the customer: its accounts' copies. */
export interface CustomerStatusFollowers {
  /** The ids of the customer's accounts now: read beside the customer, before its change. */
  accountIdsOf(customerId: string): Promise<readonly string[]>;
  /**
   * Copies a customer's status onto its accounts; a copy of a newer version already there wins.
   * Those `known` (read before the change) are copied at once, beside a read of the accounts that
   * finds any linked since, which are copied then: an account linked while the status changed is
   * never missed, and the usual change pays no read after it.
   */
  propagateCustomerStatus(
    customerId: string,
    status: CustomerStatus,
    version: number,
    known?: readonly string[],
  ): Promise<void>;
}

export interface LinkMerchantDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'insert'>;
  readonly sponsorBank: Pick<SponsorBankStore, 'findMerchant'>;
}

export function publicCustomer({ tenant: _tenant, status_version: _version, ...customer }: StoredCustomer): Customer {
  return customer;
}

/**
 * The one answer to a NIT this client may not link: not approved, approved for another platform,
 * revoked, or linked by another client. The same words for each, so that no answer tells one
 * platform what another holds (docs/onboarding.md).
 */
export const merchantNotApproved = (): AppError =>
  new AppError(
    'MERCHANT_NOT_APPROVED',
    'No merchant with this identification is approved at the sponsor bank for this client; the identification type and number must match the sign-up data',
  );

/**
 * POST /v1/customers/business/link: a merchant the sponsor bank approved for this client. Its name is
 * the bank's `business_name` (what the directory shows); a name the request gives that differs is
 * kept as `trade_name`.
 */
export async function linkMerchant(
  deps: LinkMerchantDeps,
  tenant: string,
  request: LinkMerchantRequest,
): Promise<Customer> {
  const mobilePhone = normaliseMobilePhone(request.mobile_phone_number);
  const approved = await deps.sponsorBank.findMerchant(request.identification_number);
  if (!approvedFor(approved, tenant) || approved.identificationType !== request.identification_type) {
    throw merchantNotApproved();
  }
  const now = deps.clock.now();
  // Field by field, not newRecord: the answer is this object without its tenant, in this order.
  const customer: StoredCustomer = {
    id: deps.ids.newId(),
    status: 'ACTIVE',
    type: request.type,
    business_name: approved.businessName,
    ...(request.business_name === approved.businessName ? {} : { trade_name: request.business_name }),
    email: request.email,
    mobile_phone_number: mobilePhone,
    identification_type: request.identification_type,
    identification_number: request.identification_number,
    address: request.address,
    merchant_category_code: request.merchant_category_code,
    created_at: now,
    updated_at: now,
    tenant,
  };
  const result = await deps.customers.insert(customer, { acrossClients: claimsAcrossClients(approved) });
  if (!result.inserted) {
    if (result.reason === 'linked_elsewhere') throw merchantNotApproved();
    throw new AppError('CUSTOMER_ALREADY_LINKED', 'This client already linked a merchant with this NIT', {
      customer_id: result.existingId,
    });
  }
  return publicCustomer(customer);
}

/** Reads one of the tenant's customers: 404 when unknown, 403 when another client's. */
export const getOwnCustomer = ownReader<StoredCustomer>('Customer');

export interface SetCustomerStatusDeps {
  readonly customers: Pick<CustomerStore, 'get' | 'updateStatus'>;
  readonly ids: IdGenerator;
  readonly followers: CustomerStatusFollowers;
  readonly clock: Clock;
}

const STATUS_CHANGE_ATTEMPTS = 3;

/**
 * PATCH /v1/customers/{id}: activates or deactivates a customer. Setting the status it already has
 * changes nothing (updated_at stays). Either way the status is copied onto the customer's accounts
 * before answering, so account lists filtered by customer_status agree with the customer (and a
 * retry repairs a copy an earlier attempt left unfinished). Activating a merchant the sponsor bank
 * no longer approves for this client is 400 MERCHANT_NOT_APPROVED.
 */
export async function setCustomerStatus(
  deps: SetCustomerStatusDeps,
  tenant: string,
  id: string,
  status: CustomerStatus,
): Promise<Customer> {
  // The accounts to copy the status onto are read beside the customer: one round trip less after the change.
  const [first, accountIds] = await Promise.all([
    getOwnCustomer(deps.customers, tenant, id),
    deps.followers.accountIdsOf(id),
  ]);
  let customer = first;
  for (let attempt = 1; customer.status !== status; attempt += 1) {
    const updated = await deps.customers.updateStatus(
      customer,
      status,
      deps.clock.now(),
      (changed) => [newEvent(deps.ids, tenant, 'customer.updated', changed.updated_at, publicCustomer(changed))],
      // Activating holds only while the sponsor bank approves the merchant for this client: a merchant
      // it revoked, or approved for another client, stays INACTIVE.
      status === 'ACTIVE' ? platformsApprovingFor(tenant) : undefined,
    );
    if (updated === 'not_approved') throw merchantNotApproved();
    if (updated) {
      customer = updated;
      break;
    }
    if (attempt >= STATUS_CHANGE_ATTEMPTS) {
      throw new AppError('CONCURRENT_UPDATE', 'The customer is being changed by another request; retry');
    }
    customer = await getOwnCustomer(deps.customers, tenant, id);
  }
  await deps.followers.propagateCustomerStatus(customer.id, customer.status, customer.status_version ?? 0, accountIds);
  return publicCustomer(customer);
}

/** Filter values as a list query sends them, in the one form the store compares. */
export const customerStatusFilter = (value: string | undefined): CustomerStatus | undefined =>
  value === undefined ? undefined : (value.toUpperCase() as CustomerStatus);

export const mobileFilter = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : normaliseMobilePhone(value.replace(/^ /, '+'), 'mobile');

/** GET /v1/customers: the tenant's customers, a page at a time (docs/pagination.md). */
export const listCustomers = /* @__PURE__ */ listOf({
  name: 'customers',
  filters: (query: CustomerListQuery): CustomerListFilters => {
    const status = customerStatusFilter(query.customer_status);
    const mobile = mobileFilter(query.mobile);
    return {
      ...(status ? { status } : {}),
      ...(mobile ? { mobile } : {}),
      ...(query.identification_number ? { identificationNumber: query.identification_number } : {}),
    };
  },
  toPublic: publicCustomer,
});
