/** Linking business customers (merchants): spec 2.1 and 4.1. */
import type { Customer, LinkMerchantRequest } from '../schemas/customers';
import type { Clock, IdGenerator } from './clock';
import { AppError } from './errors';
import { normaliseMobilePhone } from './phone';
import type { SponsorBankStore } from './sponsor-bank';

/** A customer as stored: the public object plus the client (tenant) that linked it. */
export interface StoredCustomer extends Customer {
  readonly tenant: string;
}

export type InsertCustomerResult =
  { readonly inserted: true } | { readonly inserted: false; readonly existingId: string };

export interface CustomerStore {
  /** Inserts unless the tenant already linked this NIT; atomic against concurrent inserts. */
  insert(customer: StoredCustomer): Promise<InsertCustomerResult>;
  get(id: string): Promise<StoredCustomer | undefined>;
}

export interface LinkMerchantDeps {
  readonly customers: CustomerStore;
  readonly sponsorBank: Pick<SponsorBankStore, 'findMerchant'>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

export function publicCustomer({ tenant: _tenant, ...customer }: StoredCustomer): Customer {
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
export async function getOwnCustomer(
  customers: Pick<CustomerStore, 'get'>,
  tenant: string,
  id: string,
): Promise<StoredCustomer> {
  const customer = await customers.get(id);
  if (!customer) throw new AppError('NOT_FOUND', `Customer ${id} does not exist`);
  if (customer.tenant !== tenant) throw new AppError('FORBIDDEN', `Customer ${id} belongs to another client`);
  return customer;
}
