/** Business customers (merchants): linking (docs/contract.md, Customers), reading, listing, activation. */
import type { Customer, CustomerListQuery, CustomerStatus, LinkMerchantRequest } from '../schemas/customers';
import type { Clock, NewRecords } from './clock';
import { AppError } from './errors';
import { ownReader } from './ownership';
import { listOf, type RecordReader } from './lists';
import { normaliseMobilePhone } from './phone';
import type { SponsorBankStore } from './sponsor-bank';

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
  { readonly inserted: true } | { readonly inserted: false; readonly existingId: string };

export interface CustomerListFilters {
  readonly status?: CustomerStatus;
  readonly mobile?: string;
  readonly identificationNumber?: string;
}

export interface CustomerStore extends RecordReader<StoredCustomer, CustomerListFilters> {
  /** Inserts unless the tenant already linked this NIT; atomic against concurrent inserts. */
  insert(customer: StoredCustomer): Promise<InsertCustomerResult>;
  /**
   * Sets the status (and updated_at) unless the status changed since `seen` was read; answers the
   * customer as stored afterwards, or undefined when another change came first.
   */
  updateStatus(seen: StoredCustomer, status: CustomerStatus, now: string): Promise<StoredCustomer | undefined>;
}

/** What a customer's status change must reach besides the customer: its accounts' copies. */
export interface CustomerStatusFollowers {
  propagateCustomerStatus(customerId: string, status: CustomerStatus, version: number): Promise<void>;
}

export interface LinkMerchantDeps extends NewRecords {
  readonly customers: CustomerStore;
  readonly sponsorBank: Pick<SponsorBankStore, 'findMerchant'>;
}

export function publicCustomer({ tenant: _tenant, status_version: _version, ...customer }: StoredCustomer): Customer {
  return customer;
}

export async function linkMerchant(
  deps: LinkMerchantDeps,
  tenant: string,
  request: LinkMerchantRequest,
): Promise<Customer> {
  const mobilePhone = normaliseMobilePhone(request.mobile_phone_number);
  const approved = await deps.sponsorBank.findMerchant(request.identification_number);
  if (!approved || approved.identificationType !== request.identification_type) {
    throw new AppError(
      'MERCHANT_NOT_APPROVED',
      'No merchant with this identification is approved at the sponsor bank; the identification type and number must match the sign-up data',
    );
  }
  const now = deps.clock.now();
  // Field by field, not newRecord: the answer is this object without its tenant, in this order.
  const customer: StoredCustomer = {
    id: deps.ids.newId(),
    status: 'ACTIVE',
    type: request.type,
    business_name: request.business_name,
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
  const result = await deps.customers.insert(customer);
  if (!result.inserted) {
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
  readonly followers: CustomerStatusFollowers;
  readonly clock: Clock;
}

const STATUS_CHANGE_ATTEMPTS = 3;

/**
 * PATCH /v1/customers/{id}: activates or deactivates a customer. Setting the status it already has
 * changes nothing (updated_at stays). Either way the status is copied onto the customer's accounts
 * before answering, so account lists filtered by customer_status agree with the customer (and a
 * retry repairs a copy an earlier attempt left unfinished).
 */
export async function setCustomerStatus(
  deps: SetCustomerStatusDeps,
  tenant: string,
  id: string,
  status: CustomerStatus,
): Promise<Customer> {
  let customer = await getOwnCustomer(deps.customers, tenant, id);
  for (let attempt = 1; customer.status !== status; attempt += 1) {
    const updated = await deps.customers.updateStatus(customer, status, deps.clock.now());
    if (updated) {
      customer = updated;
      break;
    }
    if (attempt >= STATUS_CHANGE_ATTEMPTS) {
      throw new AppError('CONCURRENT_UPDATE', 'The customer is being changed by another request; retry');
    }
    customer = await getOwnCustomer(deps.customers, tenant, id);
  }
  await deps.followers.propagateCustomerStatus(customer.id, customer.status, customer.status_version ?? 0);
  return publicCustomer(customer);
}

/** Filter values as a list query sends them, in the one form the store compares. */
export const customerStatusFilter = (value: string | undefined): CustomerStatus | undefined =>
  value === undefined ? undefined : (value.toUpperCase() as CustomerStatus);

export const mobileFilter = (value: string | undefined): string | undefined =>
  value === undefined ? undefined : normaliseMobilePhone(value.replace(/^ /, '+'), 'mobile');

/** GET /v1/customers: the tenant's customers, a page at a time (docs/pagination.md). */
export const listCustomers = listOf({
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
