/**
 * QR codes in DynamoDB Local: the code, its reference guard, the checks on the customer, the key and
 * its account, and the counters in one transaction; the reference unique per merchant whatever its
 * case and under concurrent inserts; deletion that never overwrites a newer change; list filters.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { parsePageRequest } from '../../shared/domain/lists';
import type { StoredQrCode } from '../../shared/domain/qrcodes';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { insertOwner, keyOf, qrCodeOf, type Owner } from '../support/stored-entities';

let table: TestTable;
let qrCodes: typeof import('../../shared/data/qrcodes-repository').dynamoQrCodeStore;
let keyStore: typeof import('../../shared/data/keys-repository').dynamoKeyStore;
let accounts: typeof import('../../shared/data/accounts-repository').dynamoAccountStore;
let customers: typeof import('../../shared/data/customers-repository').dynamoCustomerStore;

beforeAll(async () => {
  table = await createTestTable('qrcodes');
  ({ dynamoQrCodeStore: qrCodes } = await import('../../shared/data/qrcodes-repository'));
  ({ dynamoKeyStore: keyStore } = await import('../../shared/data/keys-repository'));
  ({ dynamoAccountStore: accounts } = await import('../../shared/data/accounts-repository'));
  ({ dynamoCustomerStore: customers } = await import('../../shared/data/customers-repository'));
});
afterAll(() => table.drop());

const now = (): string => new Date().toISOString();
const page = () => parsePageRequest({ page_size: 100 }, now());

interface Merchant extends Owner {
  readonly keyId: string;
}

async function merchant(tenant?: string): Promise<Merchant> {
  const owner = await insertOwner({ customers, accounts }, tenant);
  const [key, entry] = keyOf(owner);
  expect(await keyStore.insert(key, entry)).toEqual({ inserted: true });
  return { ...owner, keyId: key.id };
}

const code = (m: Merchant, reference?: string, extra: Partial<StoredQrCode> = {}): StoredQrCode =>
  qrCodeOf(m, m.keyId, reference, extra);

test('insert writes the code and its guard; the code reads back as stored, without storage attributes', async () => {
  const m = await merchant();
  const stored = code(m, 'Ab12', { amount: { value: '10.00', currency: 'COP' } });
  expect(await qrCodes.insert(stored)).toEqual({ inserted: true });
  expect(await qrCodes.get(stored.id)).toEqual(stored);
  const items = await table.scan((item) => item['qr_code_id'] === stored.id || item['id'] === stored.id);
  expect(items.map((item) => item['entity']).sort()).toEqual(['QRCODE', 'QR_REFERENCE_GUARD']);
  expect(items.find((item) => item['entity'] === 'QR_REFERENCE_GUARD')!['pk']).toBe(
    `GUARD#QRREF#${m.customer.id}#AB12`,
  );
});

test('a reference is taken once per merchant, in any case, and the answer names the code holding it', async () => {
  const m = await merchant();
  const first = code(m, 'Caja7');
  await qrCodes.insert(first);
  for (const again of ['Caja7', 'CAJA7', 'caja7']) {
    expect(await qrCodes.insert(code(m, again))).toEqual({
      inserted: false,
      reason: 'reference_taken',
      existingId: first.id,
    });
  }
  // Another merchant of the same client may use it.
  expect(await qrCodes.insert(code(await merchant(m.customer.tenant), 'Caja7'))).toEqual({ inserted: true });
});

test('twenty concurrent inserts of one reference write one code and one guard', async () => {
  const m = await merchant();
  const results = await Promise.all(Array.from({ length: 20 }, () => qrCodes.insert(code(m, 'RACE1'))));
  const winners = results.filter((result) => result.inserted);
  expect(winners).toHaveLength(1);
  const listed = await qrCodes.list(m.customer.tenant, { customerId: m.customer.id }, page());
  expect(listed.total).toBe(1);
  expect(
    results
      .filter((result) => !result.inserted)
      .every((r) => 'existingId' in r && r.existingId === listed.items[0]!.id),
  ).toBe(true);
});

const deactivations: Record<'customer_inactive' | 'key_inactive' | 'account_inactive', (m: Merchant) => Promise<void>> =
  {
    async customer_inactive(m) {
      await customers.updateStatus(m.customer, 'INACTIVE', now());
    },
    async key_inactive(m) {
      expect(await keyStore.transition((await keyStore.get(m.keyId))!, 'SUSPENDED', now())).toBe('changed');
    },
    async account_inactive(m) {
      await table.documents.send(
        new UpdateCommand({
          TableName: table.tableName,
          Key: { pk: `ACCOUNT#${m.account.id}`, sk: 'ACCOUNT' },
          UpdateExpression: 'SET account_status = :closed',
          ExpressionAttributeValues: { ':closed': 'INACTIVE' },
        }),
      );
    },
  };

test.each(Object.keys(deactivations) as (keyof typeof deactivations)[])(
  '%s: nothing is written, the reference stays free',
  async (reason) => {
    const m = await merchant();
    await deactivations[reason](m);
    const stored = code(m, 'FREE1');
    expect(await qrCodes.insert(stored)).toEqual({ inserted: false, reason });
    expect(await qrCodes.get(stored.id)).toBeUndefined();
    expect(await table.scan((item) => String(item['pk']).startsWith(`GUARD#QRREF#${m.customer.id}#`))).toEqual([]);
    expect((await qrCodes.list(m.customer.tenant, {}, page())).total).toBe(0);
  },
);

test('markDeleted moves ACTIVE to DELETED once; a stale read does not overwrite', async () => {
  const m = await merchant();
  const stored = code(m);
  await qrCodes.insert(stored);
  const later = new Date(Date.now() + 1000).toISOString();
  expect(await qrCodes.markDeleted(stored, later)).toBe(true);
  expect(await qrCodes.get(stored.id)).toMatchObject({ status: 'DELETED', updated_at: later });
  expect(await qrCodes.markDeleted(stored, later)).toBe(false);
});

test('lists filter by customer scope, key, type, channel and status, and never show another tenant', async () => {
  const m = await merchant();
  const other = await merchant(m.customer.tenant);
  const codes = [
    code(m),
    code(m, undefined, { type: 'DYNAMIC' }),
    code(m, undefined, { channel: 'ECOMM' }),
    code(other),
  ];
  for (const c of codes) expect(await qrCodes.insert(c)).toEqual({ inserted: true });
  await qrCodes.markDeleted(codes[2]!, now());
  await qrCodes.insert(code(await merchant()));

  const ids = async (filters: Parameters<typeof qrCodes.list>[1]) =>
    (await qrCodes.list(m.customer.tenant, filters, page())).items.map((item) => item.id).sort();
  const idsOf = (...indexes: number[]) => indexes.map((i) => codes[i]!.id).sort();

  expect(await ids({})).toEqual(idsOf(0, 1, 2, 3));
  expect(await ids({ customerId: m.customer.id })).toEqual(idsOf(0, 1, 2));
  expect(await ids({ keyId: other.keyId })).toEqual(idsOf(3));
  expect(await ids({ type: 'DYNAMIC' })).toEqual(idsOf(1));
  expect(await ids({ channel: 'ECOMM', status: 'DELETED' })).toEqual(idsOf(2));
  expect(await ids({ customerId: m.customer.id, status: 'ACTIVE', type: 'STATIC' })).toEqual(idsOf(0));
});
