/**
 * Stored records built directly for the repository tests (no HTTP): a customer with an ACTIVE
 * account, a key of it with its directory entry, and a QR code of the key. Pass the repositories, imported after the
 * test's table exists (test/support/dynamo-table.ts).
 */
import { randomUUID } from 'node:crypto';
import type { AccountStore, StoredAccount } from '../../shared/domain/accounts';
import type { CustomerStore, StoredCustomer } from '../../shared/domain/customers';
import type { DirectoryEntry } from '../../shared/domain/directory';
import type { KeyType } from '../../shared/domain/key-formats';
import type { StoredKey } from '../../shared/domain/keys';
import type { StoredQrCode } from '../../shared/domain/qrcodes';

export interface Owner {
  readonly customer: StoredCustomer;
  readonly account: StoredAccount;
}

let counter = 0;
const now = (): string => new Date().toISOString();

/** A customer (ACTIVE, a NIT of its own) and its ACTIVE account opened with `balanceCents`, inserted. */
export async function insertOwner(
  stores: { customers: Pick<CustomerStore, 'insert'>; accounts: Pick<AccountStore, 'insert'> },
  tenant = `tenant-${randomUUID()}`,
  balanceCents = 0,
): Promise<Owner> {
  const at = now();
  const customer: StoredCustomer = {
    id: randomUUID(),
    status: 'ACTIVE',
    type: 'BUSINESS',
    business_name: 'Tienda La Esperanza SAS',
    email: 'pagos@esperanza.co',
    mobile_phone_number: '+573001234567',
    identification_type: 'NIT',
    identification_number: String(700_000_000 + (process.pid % 1000) * 10_000 + ++counter),
    address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
    merchant_category_code: '5411',
    created_at: at,
    updated_at: at,
    tenant,
  };
  await stores.customers.insert(customer);
  return { customer, account: await insertAccount(stores.accounts, customer, balanceCents) };
}

/** Another ACTIVE account of the customer, opened with `balanceCents` at `at`, inserted. */
export async function insertAccount(
  accounts: Pick<AccountStore, 'insert'>,
  customer: StoredCustomer,
  balanceCents = 0,
  at = now(),
): Promise<StoredAccount> {
  const account: StoredAccount = {
    id: randomUUID(),
    tenant: customer.tenant,
    customer_id: customer.id,
    number: String(100_000_000_000 + ++counter),
    type: 'ORDINARY',
    account_status: 'ACTIVE',
    account_name: customer.business_name,
    available_balance_cents: balanceCents,
    pending_balance_cents: 0,
    customer_status: 'ACTIVE',
    customer_status_version: 0,
    customer_mobile: customer.mobile_phone_number,
    created_at: at,
    updated_at: at,
  };
  const inserted = await accounts.insert(account);
  if (!inserted.inserted) throw new Error(`Account not inserted: ${inserted.reason}`);
  return account;
}

/** An ACTIVE key of the owner's account and its directory entry (not inserted). */
export function keyOf(
  o: Owner,
  keyType: KeyType = 'ALPHA',
  keyValue = `@value${++counter}`,
): [StoredKey, DirectoryEntry] {
  const at = now();
  const stored: StoredKey = {
    id: randomUUID(),
    tenant: o.customer.tenant,
    customer_id: o.customer.id,
    account_id: o.account.id,
    key_type: keyType,
    key_value: keyValue,
    display_name: o.customer.business_name,
    status: 'ACTIVE',
    created_at: at,
    updated_at: at,
  };
  const entry: DirectoryEntry = {
    key: { key_type: keyType, key_value: keyValue },
    owner: {
      identification_type: 'NIT',
      identification_number: o.customer.identification_number,
      type: 'BUSINESS',
      business_name: o.customer.business_name,
    },
    participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
    account: { account_number: o.account.number, account_type: 'ORDINARY' },
    source: 'API',
    status: 'ACTIVE',
    key_id: stored.id,
    tenant: stored.tenant,
    created_at: at,
    updated_at: at,
  };
  return [stored, entry];
}

/** A QR code of the owner's key (not inserted): ACTIVE, STATIC and without an amount unless `extra` says. */
export function qrCodeOf(
  o: Owner,
  keyId: string,
  reference = `REF${randomUUID().slice(0, 8)}`,
  extra: Partial<StoredQrCode> = {},
): StoredQrCode {
  const at = now();
  return {
    id: randomUUID(),
    tenant: o.customer.tenant,
    status: 'ACTIVE',
    type: 'STATIC',
    channel: 'POS',
    customer_id: o.customer.id,
    account_id: o.account.id,
    key_id: keyId,
    key: { key_type: 'ALPHA', key_value: '@value' },
    qr_code_data: '000201010211',
    reference,
    qr_code_reference: `CO.COM.RBM.TRXIDP${reference}`,
    acquirer_network_identifier: 'RBM',
    merchant: {
      merchant_category_code: '5411',
      merchant_country: 'CO',
      merchant_name: o.customer.business_name,
      merchant_city: 'Bogotá',
      merchant_post_code: '110111',
    },
    created_at: at,
    updated_at: at,
    ...extra,
  };
}
