/**
 * Bre-B keys and the directory in DynamoDB Local: the key and its directory entry in one transaction,
 * one value per directory under concurrent inserts (ours and the sandbox's), the customer and account
 * checks, counters and list filters, status changes moving the entry, stored resolutions.
 */
import { randomUUID } from 'node:crypto';
import type { DirectoryEntry, StoredResolution } from '../../shared/domain/directory';
import type { StoredKey } from '../../shared/domain/keys';
import type { KeyType } from '../../shared/domain/key-formats';
import { parsePageRequest } from '../../shared/domain/lists';
import { EVERY_PLATFORM } from '../../shared/domain/sponsor-bank';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { insertOwner, keyOf, type Owner } from '../support/stored-entities';

let table: TestTable;
let keyStore: typeof import('../../shared/data/keys-repository').dynamoKeyStore;
let directory: typeof import('../../shared/data/directory-repository').dynamoDirectory;
let resolutions: typeof import('../../shared/data/directory-repository').dynamoResolutionStore;
let accounts: typeof import('../../shared/data/accounts-repository').dynamoAccountStore;
let customers: typeof import('../../shared/data/customers-repository').dynamoCustomerStore;

beforeAll(async () => {
  table = await createTestTable('keys');
  ({ dynamoKeyStore: keyStore } = await import('../../shared/data/keys-repository'));
  ({ dynamoDirectory: directory, dynamoResolutionStore: resolutions } =
    await import('../../shared/data/directory-repository'));
  ({ dynamoAccountStore: accounts } = await import('../../shared/data/accounts-repository'));
  ({ dynamoCustomerStore: customers } = await import('../../shared/data/customers-repository'));
});
afterAll(() => table.drop());

let counter = 0;
const now = (): string => new Date().toISOString();
const page = (overrides: Record<string, unknown> = {}) => parsePageRequest({ page_size: 100, ...overrides }, now());

const owner = (tenant?: string): Promise<Owner> => insertOwner({ customers, accounts }, tenant);
const key = keyOf;

const sandboxEntry = (keyType: KeyType, keyValue: string): DirectoryEntry => ({
  key: { key_type: keyType, key_value: keyValue },
  owner: {
    identification_type: 'CC',
    identification_number: '1',
    type: 'PERSON',
    first_name: 'A',
    first_last_name: 'B',
  },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001', account_type: 'SAVINGS' },
  source: 'SANDBOX',
  status: 'ACTIVE',
  created_at: now(),
  updated_at: now(),
});

test('insert writes the key and its directory entry; both read back without storage attributes', async () => {
  const o = await owner();
  const [stored, entry] = key(o);
  await expect(keyStore.insert(stored, entry)).resolves.toEqual({ inserted: true });
  expect(await keyStore.get(stored.id)).toEqual(stored);
  expect(await directory.get(entry.key)).toEqual(entry);
  const items = await table.scan((item) => item['pk'] === `DIRECTORY#ALPHA#${entry.key.key_value}`);
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ sk: 'DIRECTORY', entity: 'DIRECTORY_ENTRY', key_id: stored.id });
  await expect(keyStore.get(randomUUID())).resolves.toBeUndefined();
  await expect(directory.get({ key_type: 'ALPHA', key_value: '@nobody00' })).resolves.toBeUndefined();
});

test('10 concurrent inserts of one value (several clients): one wins, one key and one entry, counted once', async () => {
  const owners = await Promise.all(Array.from({ length: 10 }, () => owner()));
  const value = `@race${++counter}`;
  const candidates = owners.map((o) => key(o, 'ALPHA', value));
  const results = await Promise.all(candidates.map(([k, e]) => keyStore.insert(k, e)));
  expect(results.filter((r) => r.inserted)).toHaveLength(1);
  expect(results.filter((r) => !r.inserted)).toEqual(Array(9).fill({ inserted: false, reason: 'value_taken' }));
  const winner = candidates[results.findIndex((r) => r.inserted)]![0];
  expect((await directory.get({ key_type: 'ALPHA', key_value: value }))?.key_id).toBe(winner.id);
  const keyItems = await table.scan((item) => item['entity'] === 'KEY' && item['key_value'] === value);
  expect(keyItems.map((item) => item['id'])).toEqual([winner.id]);
  for (const o of owners) {
    const expected = o.customer.tenant === winner.tenant ? 1 : 0;
    expect((await keyStore.list(o.customer.tenant, {}, page())).total).toBe(expected);
  }
});

test('a sandbox entry takes the value from our keys, and the reverse', async () => {
  const o = await owner();
  const value = `@sand${++counter}`;
  const taken = { inserted: false, reason: 'value_taken' };
  await expect(directory.insertSandbox(sandboxEntry('ALPHA', value), [])).resolves.toEqual({ inserted: true });
  await expect(directory.insertSandbox(sandboxEntry('ALPHA', value), [])).resolves.toEqual(taken);
  const [stored, entry] = key(o, 'ALPHA', value);
  await expect(keyStore.insert(stored, entry)).resolves.toEqual({ inserted: false, reason: 'value_taken' });

  const [ours, ourEntry] = key(o);
  await keyStore.insert(ours, ourEntry);
  await expect(directory.insertSandbox(sandboxEntry('ALPHA', ours.key_value), [])).resolves.toEqual(taken);
  // The type is part of the directory key.
  await expect(directory.insertSandbox(sandboxEntry('ID', `value${counter}`), [])).resolves.toEqual({ inserted: true });
});

test("a sandbox entry naming a sponsor bank merchant's NIT is refused, and nothing is written", async () => {
  const nit = String(900_000_000 + (++counter % 1000) * 1000 + Math.floor(Math.random() * 1000));
  const { dynamoSponsorBank } = await import('../../shared/data/sponsor-bank-repository');
  await dynamoSponsorBank.saveMerchant(
    {
      identificationType: 'NIT',
      identificationNumber: nit,
      businessName: 'Squatted SAS',
      approvedAt: now(),
      platform: EVERY_PLATFORM,
      status: 'APPROVED',
    },
    [],
  );
  const other = `${nit}9`;
  await expect(directory.insertSandbox(sandboxEntry('ID', nit), [other, nit])).resolves.toEqual({
    inserted: false,
    reason: 'merchant_nit',
    nit,
  });
  await expect(directory.get({ key_type: 'ID', key_value: nit })).resolves.toBeUndefined();
  // A NIT no merchant of the sponsor bank holds is free.
  await expect(directory.insertSandbox(sandboxEntry('ID', other), [other])).resolves.toEqual({ inserted: true });
});

test('an inactive customer gets no key, and nothing is written', async () => {
  const o = await owner();
  await customers.updateStatus(o.customer, 'INACTIVE', now());
  const [stored, entry] = key(o);
  await expect(keyStore.insert(stored, entry)).resolves.toEqual({ inserted: false, reason: 'customer_inactive' });
  await expect(keyStore.get(stored.id)).resolves.toBeUndefined();
  await expect(directory.get(entry.key)).resolves.toBeUndefined();
});

test('an unknown account gets no key', async () => {
  const o = await owner();
  const [stored, entry] = key({ ...o, account: { ...o.account, id: randomUUID() } });
  await expect(keyStore.insert(stored, entry)).resolves.toEqual({ inserted: false, reason: 'account_inactive' });
});

test('suspend and activate move the entry status; delete removes the entry and frees the value', async () => {
  const o = await owner();
  const [stored, entry] = key(o);
  await keyStore.insert(stored, entry);
  const later = new Date(Date.now() + 1000).toISOString();

  await expect(keyStore.transition(stored, 'SUSPENDED', later)).resolves.toBe('changed');
  expect(await keyStore.get(stored.id)).toEqual({ ...stored, status: 'SUSPENDED', updated_at: later });
  expect(await directory.get(entry.key)).toMatchObject({ status: 'SUSPENDED', updated_at: later });
  const [item] = await table.scan((i) => i['pk'] === `KEY#${stored.id}`);
  expect(item).toMatchObject({ gsi2sk: `${later}#${stored.id}`, gsi4sk: `${later}#${stored.id}` });

  // A stale read (the key still seen ACTIVE) loses.
  await expect(keyStore.transition(stored, 'DELETED', later)).resolves.toBe('conflict');

  const suspended = (await keyStore.get(stored.id))!;
  await expect(keyStore.transition(suspended, 'ACTIVE', later)).resolves.toBe('changed');
  expect((await directory.get(entry.key))?.status).toBe('ACTIVE');

  const active = (await keyStore.get(stored.id))!;
  await expect(keyStore.transition(active, 'DELETED', later)).resolves.toBe('changed');
  expect((await keyStore.get(stored.id))?.status).toBe('DELETED');
  await expect(directory.get(entry.key)).resolves.toBeUndefined();

  const [again, againEntry] = key(await owner(), 'ALPHA', stored.key_value);
  await expect(keyStore.insert(again, againEntry)).resolves.toEqual({ inserted: true });
  // The deleted key cannot take its entry back or touch the new one.
  await expect(keyStore.transition({ ...stored, status: 'DELETED' }, 'ACTIVE', later)).resolves.toBe('conflict');
  expect((await directory.get(entry.key))?.key_id).toBe(again.id);
});

test('activation needs an ACTIVE customer', async () => {
  const o = await owner();
  const [stored, entry] = key(o);
  await keyStore.insert(stored, entry);
  await keyStore.transition(stored, 'SUSPENDED', now());
  await customers.updateStatus(o.customer, 'INACTIVE', now());
  await expect(keyStore.transition({ ...stored, status: 'SUSPENDED' }, 'ACTIVE', now())).resolves.toBe(
    'customer_inactive',
  );
  expect((await directory.get(entry.key))?.status).toBe('SUSPENDED');
});

test('lists filter by customer, account, type and status, with counted totals', async () => {
  const tenant = `tenant-${randomUUID()}`;
  const first = await owner(tenant);
  const second = await owner(tenant);
  const inserted: StoredKey[] = [];
  for (const [o, type, value] of [
    [first, 'ALPHA', `@list${++counter}`],
    [first, 'PHONE', `31000${String(++counter).padStart(5, '0')}`],
    [second, 'ALPHA', `@list${++counter}`],
  ] as const) {
    const [k, e] = key(o, type, value);
    await keyStore.insert(k, e);
    inserted.push(k);
  }
  await keyStore.transition(inserted[0]!, 'SUSPENDED', now());
  const ids = async (filters: Parameters<typeof keyStore.list>[1]) =>
    (await keyStore.list(tenant, filters, page())).items.map((k) => k.id).sort();

  expect((await keyStore.list(tenant, {}, page())).total).toBe(3);
  expect((await keyStore.list(tenant, { customerId: first.customer.id }, page())).total).toBe(2);
  expect(await ids({ accountId: second.account.id })).toEqual([inserted[2]!.id]);
  expect(await ids({ keyType: 'ALPHA' })).toEqual([inserted[0]!.id, inserted[2]!.id].sort());
  expect(await ids({ status: 'SUSPENDED' })).toEqual([inserted[0]!.id]);
  expect(await ids({ customerId: first.customer.id, status: 'ACTIVE' })).toEqual([inserted[1]!.id]);
});

test('resolutions round-trip with their payee', async () => {
  const entry = sandboxEntry('PHONE', '3111111111');
  const resolution: StoredResolution = {
    id: randomUUID(),
    tenant: 'tenant-r',
    customer_id: randomUUID(),
    resolved_at: now(),
    key: entry.key,
    owner: entry.owner,
    participant: entry.participant,
    account: entry.account,
    payee: entry,
  };
  await resolutions.insert(resolution);
  await expect(resolutions.get(resolution.id)).resolves.toEqual(resolution);
  await expect(resolutions.get(randomUUID())).resolves.toBeUndefined();
});

test('the sandbox seed writes the directory fixtures once, and a second seed changes nothing', async () => {
  const { seedSandbox, SANDBOX_DIRECTORY_KEYS } = await import('../../infra/local/sandbox-fixtures');
  const { dynamoSponsorBank } = await import('../../shared/data/sponsor-bank-repository');
  await seedSandbox(dynamoSponsorBank, directory, '2026-01-01T00:00:00.000Z');
  await seedSandbox(dynamoSponsorBank, directory, '2026-06-01T00:00:00.000Z');
  expect(SANDBOX_DIRECTORY_KEYS.map((entry) => `${entry.key.key_type} ${entry.key.key_value}`)).toEqual([
    'PHONE 3001234567',
    'EMAIL ana.gomez@example.com',
    'ALPHA @anagomez1',
    'ID 1020304050',
    'BCODE 0012345678',
  ]);
  for (const fixture of SANDBOX_DIRECTORY_KEYS) {
    expect(await directory.get(fixture.key)).toEqual({
      ...fixture,
      source: 'SANDBOX',
      status: 'ACTIVE',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
  }
});
