/** Customers in DynamoDB Local: round trip, and one NIT per client even under concurrent inserts. */
import { randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredCustomer } from '../../shared/domain/customers';
import { approvedFor, EVERY_PLATFORM, platformsApprovingFor } from '../../shared/domain/sponsor-bank';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let store: typeof import('../../shared/data/customers-repository').dynamoCustomerStore;

beforeAll(async () => {
  table = await createTestTable('customers');
  ({ dynamoCustomerStore: store } = await import('../../shared/data/customers-repository'));
});
afterAll(() => table.drop());

let nitCounter = 0;
const uniqueNit = (): string =>
  `7${String(process.pid % 10_000).padStart(4, '0')}${String(++nitCounter).padStart(4, '0')}`;
const uniqueTenant = (): string => `tenant-${randomUUID()}`;

function customer(tenant: string, nit: string): StoredCustomer {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    status: 'ACTIVE',
    type: 'BUSINESS',
    business_name: 'Tienda La Esperanza SAS',
    email: 'pagos@esperanza.co',
    mobile_phone_number: '+573001234567',
    identification_type: 'NIT',
    identification_number: nit,
    address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
    merchant_category_code: '5411',
    created_at: now,
    updated_at: now,
    tenant,
  };
}

/** The customer items (and NIT guards) a tenant holds for a NIT, read straight from the table. */
const customerItems = (tenant: string, nit: string) =>
  table.scan(
    (item: Item) => item['entity'] === 'CUSTOMER' && item['tenant'] === tenant && item['identification_number'] === nit,
  );
const guardItems = (tenant: string, nit: string) =>
  table.scan((item: Item) => item['entity'] === 'NIT_GUARD' && String(item['pk']).endsWith(`#${tenant}#${nit}`));

test('insert then get: the customer comes back as inserted, without storage attributes', async () => {
  const linked = customer(uniqueTenant(), uniqueNit());
  await expect(store.insert(linked)).resolves.toEqual({ inserted: true });
  const read = await store.get(linked.id);
  expect(read).toEqual(linked);
  for (const attribute of ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'entity', 'expires_at']) {
    expect(read).not.toHaveProperty(attribute);
  }
});

test('the stored item is listed in the tenant collection indexes', async () => {
  const linked = customer(uniqueTenant(), uniqueNit());
  await store.insert(linked);
  const [item] = await customerItems(linked.tenant, linked.identification_number);
  expect(item).toMatchObject({
    gsi1pk: `${linked.tenant}#CUSTOMER`,
    gsi1sk: `${linked.created_at}#${linked.id}`,
    gsi2pk: `${linked.tenant}#CUSTOMER`,
    gsi2sk: `${linked.updated_at}#${linked.id}`,
  });
});

test('get of an unknown id is undefined', async () => {
  await expect(store.get(randomUUID())).resolves.toBeUndefined();
});

test('a second insert of the same tenant and NIT answers the first id and writes nothing', async () => {
  const tenant = uniqueTenant();
  const nit = uniqueNit();
  const first = customer(tenant, nit);
  const second = { ...customer(tenant, nit), business_name: 'Otra Razón Social SAS' };
  await store.insert(first);

  await expect(store.insert(second)).resolves.toEqual({
    inserted: false,
    reason: 'already_linked',
    existingId: first.id,
  });

  const items = await customerItems(tenant, nit);
  expect(items.map((i) => i['id'])).toEqual([first.id]);
  expect(items[0]?.['business_name']).toBe(first.business_name);
  expect(await guardItems(tenant, nit)).toEqual([expect.objectContaining({ customer_id: first.id })]);
  await expect(store.get(second.id)).resolves.toBeUndefined();
});

test('the same NIT linked by another tenant is inserted', async () => {
  const nit = uniqueNit();
  const ofA = customer(uniqueTenant(), nit);
  const ofB = customer(uniqueTenant(), nit);
  await expect(store.insert(ofA)).resolves.toEqual({ inserted: true });
  await expect(store.insert(ofB)).resolves.toEqual({ inserted: true });
  await expect(store.get(ofB.id)).resolves.toEqual(ofB);
  expect(await customerItems(ofA.tenant, nit)).toHaveLength(1);
  expect(await customerItems(ofB.tenant, nit)).toHaveLength(1);
});

test("a NIT claimed across clients: another tenant's insert is refused and writes nothing", async () => {
  const nit = uniqueNit();
  const ofA = customer(uniqueTenant(), nit);
  const ofB = customer(uniqueTenant(), nit);
  await expect(store.insert(ofA, { acrossClients: true })).resolves.toEqual({ inserted: true });
  await expect(store.insert(ofB, { acrossClients: true })).resolves.toEqual({
    inserted: false,
    reason: 'linked_elsewhere',
  });
  await expect(store.get(ofB.id)).resolves.toBeUndefined();
  expect(await customerItems(ofB.tenant, nit)).toHaveLength(0);
  expect(await guardItems(ofB.tenant, nit)).toEqual([]);
  // The claim's own tenant again: its own 409, with its customer.
  await expect(store.insert(customer(ofA.tenant, nit), { acrossClients: true })).resolves.toEqual({
    inserted: false,
    reason: 'already_linked',
    existingId: ofA.id,
  });
  await expect(store.findByNit(ofA.tenant, nit)).resolves.toEqual(ofA);
  await expect(store.findByNit(ofB.tenant, nit)).resolves.toBeUndefined();
});

test('20 concurrent inserts of one NIT by 20 tenants, claimed across clients: one wins', async () => {
  const nit = uniqueNit();
  const results = await Promise.all(
    Array.from({ length: 20 }, () => store.insert(customer(uniqueTenant(), nit), { acrossClients: true })),
  );
  expect(results.filter((result) => result.inserted)).toHaveLength(1);
  expect(results.filter((result) => !result.inserted && result.reason === 'linked_elsewhere')).toHaveLength(19);
});

test('20 concurrent inserts of one tenant and NIT: one wins, all others get its id', async () => {
  const tenant = uniqueTenant();
  const nit = uniqueNit();
  const candidates = Array.from({ length: 20 }, () => customer(tenant, nit));

  const results = await Promise.all(candidates.map((c) => store.insert(c)));

  const winners = candidates.filter((_, i) => results[i]?.inserted);
  expect(winners).toHaveLength(1);
  const winnerId = winners[0]!.id;
  for (const result of results.filter((r) => !r.inserted)) {
    expect(result).toEqual({ inserted: false, reason: 'already_linked', existingId: winnerId });
  }
  const items = await customerItems(tenant, nit);
  expect(items.map((i) => i['id'])).toEqual([winnerId]);
  expect(await guardItems(tenant, nit)).toHaveLength(1);
});

describe('status changes and lists', () => {
  const page = async (overrides: Record<string, unknown> = {}) =>
    (await import('../../shared/domain/lists')).parsePageRequest(
      { page_size: 100, ...overrides },
      new Date().toISOString(),
    );

  test('updateStatus sets status and updated_at, moves the customer in updated_at order, counts versions', async () => {
    const linked = customer(uniqueTenant(), uniqueNit());
    await store.insert(linked);
    const later = new Date(Date.parse(linked.updated_at) + 5000).toISOString();
    const updated = await store.updateStatus(linked, 'INACTIVE', later);
    expect(updated).toEqual({ ...linked, status: 'INACTIVE', updated_at: later, status_version: 1 });
    const [item] = await customerItems(linked.tenant, linked.identification_number);
    expect(item).toMatchObject({
      gsi1sk: `${linked.created_at}#${linked.id}`,
      gsi2sk: `${later}#${linked.id}`,
      gsi4sk: `${later}#${linked.id}`,
    });
    await expect(store.updateStatus(updated as StoredCustomer, 'ACTIVE', later)).resolves.toMatchObject({
      status_version: 2,
    });
  });

  test('updateStatus from a stale read changes nothing and answers undefined', async () => {
    const linked = customer(uniqueTenant(), uniqueNit());
    await store.insert(linked);
    await store.updateStatus(linked, 'INACTIVE', new Date().toISOString());
    await expect(store.updateStatus(linked, 'INACTIVE', new Date().toISOString())).resolves.toBeUndefined();
    await expect(
      store.updateStatus({ ...linked, id: randomUUID() }, 'INACTIVE', linked.created_at),
    ).resolves.toBeUndefined();
  });

  /** The sponsor bank's approval of a NIT as stored: its fields as given (none: a legacy sandbox approval). */
  const storeApproval = async (nit: string, fields: Record<string, string>) => {
    const { itemKeys } = await import('../../shared/data/item-keys');
    await table.documents.send(
      new PutCommand({
        TableName: table.tableName,
        Item: { ...itemKeys.sponsorMerchant(nit), entity: 'SPONSOR_MERCHANT', identification_number: nit, ...fields },
      }),
    );
  };

  test.each([
    ['no approval', undefined],
    ['approved for this client', { platform: 'me', approval_status: 'APPROVED' }],
    ['approved for every client', { platform: EVERY_PLATFORM, approval_status: 'APPROVED' }],
    ['approved for another client', { platform: 'other', approval_status: 'APPROVED' }],
    ['revoked', { platform: 'me', approval_status: 'REVOKED' }],
    ['stored before approvals named a platform or status', {}],
  ])(
    "activating under the bank's approval (%s) answers as approvedFor says, in the change's own write",
    async (_, fields) => {
      const { dynamoSponsorBank } = await import('../../shared/data/sponsor-bank-repository');
      const inactive = { ...customer('me', uniqueNit()), status: 'INACTIVE' as const };
      await store.insert(inactive);
      if (fields) await storeApproval(inactive.identification_number, fields);
      const approved = approvedFor(await dynamoSponsorBank.findMerchant(inactive.identification_number), 'me');

      const answer = await store.updateStatus(
        inactive,
        'ACTIVE',
        new Date().toISOString(),
        undefined,
        platformsApprovingFor('me'),
      );

      expect(answer === 'not_approved').toBe(!approved);
      expect((await store.get(inactive.id))?.status).toBe(approved ? 'ACTIVE' : 'INACTIVE');
    },
  );

  test('the list counts per tenant, filters by status, mobile and NIT (its own partition)', async () => {
    const tenant = uniqueTenant();
    const [a, b, c] = [customer(tenant, uniqueNit()), customer(tenant, uniqueNit()), customer(tenant, uniqueNit())];
    for (const x of [a, b, { ...c, mobile_phone_number: '+14155552671' }]) await store.insert(x);
    await store.updateStatus(b, 'INACTIVE', new Date().toISOString());

    const all = await store.list(tenant, {}, await page());
    expect(all.total).toBe(3);
    // Creation order; customers created in the same millisecond sort by id.
    const byCreation = [a, b, c].sort((x, y) => (`${x.created_at}#${x.id}` < `${y.created_at}#${y.id}` ? -1 : 1));
    expect(all.items.map((x) => x.id)).toEqual(byCreation.map((x) => x.id));
    expect((await store.list(tenant, { status: 'INACTIVE' }, await page())).items.map((x) => x.id)).toEqual([b.id]);
    expect((await store.list(tenant, { mobile: '+14155552671' }, await page())).items.map((x) => x.id)).toEqual([c.id]);
    const byNit = await store.list(tenant, { identificationNumber: a.identification_number }, await page());
    expect([byNit.total, byNit.items.map((x) => x.id)]).toEqual([1, [a.id]]);
    expect((await store.list(uniqueTenant(), {}, await page())).total).toBe(0);
  });
});
