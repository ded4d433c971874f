/**
 * Accounts in DynamoDB Local: round trip, one number per customer under concurrent inserts, the
 * customer's status checked in the same transaction, counters, and status copies by version.
 */
import { randomUUID } from 'node:crypto';
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredCustomer } from '../../shared/domain/customers';
import { parsePageRequest } from '../../shared/domain/lists';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let accounts: typeof import('../../shared/data/accounts-repository').dynamoAccountStore;
let customers: typeof import('../../shared/data/customers-repository').dynamoCustomerStore;

beforeAll(async () => {
  table = await createTestTable('accounts');
  ({ dynamoAccountStore: accounts } = await import('../../shared/data/accounts-repository'));
  ({ dynamoCustomerStore: customers } = await import('../../shared/data/customers-repository'));
});
afterAll(() => table.drop());

let counter = 0;
const nextNumber = (): string => String(100_000_000_000 + ++counter);

async function newCustomer(tenant = `tenant-${randomUUID()}`): Promise<StoredCustomer> {
  const now = new Date().toISOString();
  const customer: StoredCustomer = {
    id: randomUUID(),
    status: 'ACTIVE',
    type: 'BUSINESS',
    business_name: 'Tienda La Esperanza SAS',
    email: 'pagos@esperanza.co',
    mobile_phone_number: '+573001234567',
    identification_type: 'NIT',
    identification_number: String(700_000_000 + ++counter),
    address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
    merchant_category_code: '5411',
    created_at: now,
    updated_at: now,
    tenant,
  };
  await customers.insert(customer);
  return customer;
}

function account(customer: StoredCustomer, number = nextNumber()): StoredAccount {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    tenant: customer.tenant,
    customer_id: customer.id,
    number,
    type: 'ORDINARY',
    account_status: 'ACTIVE',
    account_name: customer.business_name,
    available_balance_cents: 100_000_000,
    pending_balance_cents: 0,
    customer_status: 'ACTIVE',
    customer_status_version: 0,
    customer_mobile: customer.mobile_phone_number,
    created_at: now,
    updated_at: now,
  };
}

const accountItems = (customerId: string) =>
  table.scan((item: Item) => item['entity'] === 'ACCOUNT' && item['customer_id'] === customerId);
const page = (overrides: Record<string, unknown> = {}) =>
  parsePageRequest({ page_size: 100, ...overrides }, new Date().toISOString());

test('insert then get: the account comes back as inserted, without storage attributes', async () => {
  const linked = account(await newCustomer());
  await expect(accounts.insert(linked)).resolves.toEqual({ inserted: true });
  const read = await accounts.get(linked.id);
  expect(read).toEqual(linked);
  for (const attribute of ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi3pk', 'gsi4sk', 'entity']) {
    expect(read).not.toHaveProperty(attribute);
  }
  await expect(accounts.get(randomUUID())).resolves.toBeUndefined();
});

test('the item is listed in the tenant collection and in its customer scope', async () => {
  const customer = await newCustomer();
  const linked = account(customer);
  await accounts.insert(linked);
  const [item] = await accountItems(customer.id);
  expect(item).toMatchObject({
    gsi1pk: `${customer.tenant}#ACCOUNT`,
    gsi1sk: `${linked.created_at}#${linked.id}`,
    gsi2pk: `${customer.tenant}#ACCOUNT`,
    gsi3pk: `${customer.tenant}#ACCOUNT#CUSTOMER#${customer.id}`,
    gsi4sk: `${linked.updated_at}#${linked.id}`,
  });
});

test('a number already linked to the customer answers the first account, and writes nothing', async () => {
  const customer = await newCustomer();
  const first = account(customer);
  await accounts.insert(first);
  await expect(accounts.insert(account(customer, first.number))).resolves.toEqual({
    inserted: false,
    reason: 'number_taken',
    existingId: first.id,
  });
  expect((await accountItems(customer.id)).map((i) => i['id'])).toEqual([first.id]);
  // Another customer may hold the same number (it is another merchant's approval).
  const other = await newCustomer(customer.tenant);
  await expect(accounts.insert(account(other, first.number))).resolves.toEqual({ inserted: true });
});

test('a number claimed across clients: the customer of another client gets none, nor a ledger', async () => {
  const holder = await newCustomer();
  const number = nextNumber();
  const first = account(holder, number);
  await expect(accounts.insert(first, { acrossClients: true })).resolves.toEqual({ inserted: true });
  const other = await newCustomer();
  const copy = account(other, number);
  await expect(accounts.insert(copy, { acrossClients: true })).resolves.toEqual({
    inserted: false,
    reason: 'linked_elsewhere',
  });
  await expect(accounts.get(copy.id)).resolves.toBeUndefined();
  expect(await accountItems(other.id)).toHaveLength(0);
  expect(await table.scan((item) => String(item['pk']) === `ACCOUNT#${copy.id}`)).toEqual([]);
  expect((await accounts.list(other.tenant, {}, page())).total).toBe(0);
});

test('20 concurrent inserts of one number: one wins, every other gets its id; the counters count one', async () => {
  const customer = await newCustomer();
  const number = nextNumber();
  const candidates = Array.from({ length: 20 }, () => account(customer, number));
  const results = await Promise.all(candidates.map((c) => accounts.insert(c)));
  const winners = candidates.filter((_, i) => results[i]?.inserted);
  expect(winners).toHaveLength(1);
  for (const result of results.filter((r) => !r.inserted)) {
    expect(result).toEqual({ inserted: false, reason: 'number_taken', existingId: winners[0]!.id });
  }
  expect(await accountItems(customer.id)).toHaveLength(1);
  const listed = await accounts.list(customer.tenant, {}, page());
  expect(listed.total).toBe(1);
});

test('concurrent inserts of different numbers all land and are all counted', async () => {
  const customer = await newCustomer();
  const results = await Promise.all(Array.from({ length: 15 }, () => accounts.insert(account(customer))));
  expect(results.every((r) => r.inserted)).toBe(true);
  expect((await accounts.list(customer.tenant, {}, page())).total).toBe(15);
  expect((await accounts.list(customer.tenant, { customerId: customer.id }, page())).total).toBe(15);
});

test('an inactive customer gets no account, even when deactivated after the caller looked', async () => {
  const customer = await newCustomer();
  await customers.updateStatus(customer, 'INACTIVE', new Date().toISOString());
  await expect(accounts.insert(account(customer))).resolves.toEqual({ inserted: false, reason: 'customer_inactive' });
  expect(await accountItems(customer.id)).toHaveLength(0);
  expect((await accounts.list(customer.tenant, {}, page())).total).toBe(0);
});

test('status copies reach an account linked after the ids were read beside the customer', async () => {
  const customer = await newCustomer();
  const before = account(customer);
  await accounts.insert(before);
  const known = await accounts.accountIdsOf(customer.id);
  expect(known).toEqual([before.id]);
  // Linked between that read and the change: the copy's own read finds it.
  const since = account(customer);
  await accounts.insert(since);
  await accounts.propagateCustomerStatus(customer.id, 'INACTIVE', 3, known);
  const items = await accountItems(customer.id);
  expect(items.map((i) => [i['id'], i['customer_status'], i['customer_status_version']]).sort()).toEqual(
    [
      [before.id, 'INACTIVE', 3],
      [since.id, 'INACTIVE', 3],
    ].sort(),
  );
});

test('status copies: every account of the customer, and an older version never overwrites a newer one', async () => {
  const customer = await newCustomer();
  const linked = [account(customer), account(customer), account(customer)];
  for (const a of linked) await accounts.insert(a);
  await accounts.propagateCustomerStatus(customer.id, 'INACTIVE', 2);
  await accounts.propagateCustomerStatus(customer.id, 'ACTIVE', 1);
  const items = await accountItems(customer.id);
  expect(items.map((i) => [i['customer_status'], i['customer_status_version']])).toEqual(
    Array(3).fill(['INACTIVE', 2]),
  );
  // updated_at is the account's own: it does not move.
  expect(items.map((i) => i['updated_at']).sort()).toEqual(linked.map((a) => a.updated_at).sort());

  const inactive = await accounts.list(customer.tenant, { customerStatus: 'INACTIVE' }, page());
  expect(inactive.items.map((a) => a.id).sort()).toEqual(linked.map((a) => a.id).sort());
  expect((await accounts.list(customer.tenant, { customerStatus: 'ACTIVE' }, page())).total).toBe(0);
});

test('list filters: customer, customer status and mobile, alone and combined', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const one = await newCustomer(tenant);
  const two = { ...(await newCustomer(tenant)) };
  for (const a of [account(one), account(two), account(one)]) await accounts.insert(a);
  await accounts.insert({ ...account(two), customer_mobile: '+573009999999' });

  const ids = async (filters: Parameters<typeof accounts.list>[1]) =>
    (await accounts.list(tenant, filters, page())).items.map((a) => a.customer_id);
  expect(await ids({ customerId: one.id })).toEqual([one.id, one.id]);
  expect(await ids({ mobile: '+573009999999' })).toEqual([two.id]);
  expect(await ids({ customerId: two.id, mobile: '+573001234567' })).toEqual([two.id]);
  expect(await ids({ customerId: one.id, customerStatus: 'INACTIVE' })).toEqual([]);
});
