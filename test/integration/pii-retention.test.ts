/**
 * Retention of personal data by the table's TTL, in DynamoDB Local (docs/privacy.md, "Retention"):
 * a resolution (resolve-key's, a recipient payment's) carries `expires_at` PII_RETENTION_DAYS after it
 * was made, an expired one reads as absent and cannot be paid (DynamoDB Local never deletes by TTL,
 * as DynamoDB deletes only within days), and an idempotency record's answer expires within the
 * retention (its own 24 hours).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { resolveKey, tableLookup } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import { LOOKUP_BUDGET } from '../../shared/domain/lookup-budget';
import { payRecipient } from '../../shared/domain/pay-recipient';
import { payResolution } from '../../shared/domain/pay-resolution';
import { createRecipient } from '../../shared/domain/recipients';
import { itemKeys } from '../../shared/data/item-keys';
import { tableDefinition } from '../../shared/data/table';
import { DEFAULT_PII_RETENTION_DAYS, ENV } from '../../shared/runtime/config';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  otherParticipantKey,
  paymentDeps,
  paymentRequest,
  storedMerchant,
  storedResolution,
} from '../support/payments';

let table: TestTable;
let stores: {
  directory: typeof import('../../shared/data/directory-repository');
  idempotency: typeof import('../../shared/data/idempotency-store');
  recipients: typeof import('../../shared/data/recipients-repository');
  customers: typeof import('../../shared/data/customers-repository');
  lookups: typeof import('../../shared/data/lookup-budget-store');
};

beforeAll(async () => {
  table = await createTestTable('pii-retention');
  stores = {
    directory: await import('../../shared/data/directory-repository'),
    idempotency: await import('../../shared/data/idempotency-store'),
    recipients: await import('../../shared/data/recipients-repository'),
    customers: await import('../../shared/data/customers-repository'),
    lookups: await import('../../shared/data/lookup-budget-store'),
  };
});
afterAll(() => table.drop());
afterEach(() => {
  delete process.env[ENV.piiRetentionDays];
});

const DAY = 24 * 60 * 60;
const TTL = tableDefinition.ttlAttribute;
const tenant = (): string => `tenant-${randomUUID()}`;
const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const records = { clock: { now: () => new Date().toISOString() }, ids: { newId: () => randomUUID() } };
const itemAt = async (key: { pk: string; sk: string }) =>
  (await table.scan((i) => i['pk'] === key.pk && i['sk'] === key.sk))[0];

test('the TTL attribute the table expires items by is the one the items carry', () => {
  expect(TTL).toBe('expires_at');
});

test("resolve-key's resolution expires PII_RETENTION_DAYS after it was made (default 30)", async () => {
  const payer = await storedMerchant(tenant(), 0);
  const payee = await otherParticipantKey();
  const resolve = () =>
    resolveKey(
      {
        ...records,
        customers: stores.customers.dynamoCustomerStore,
        directory: tableLookup(stores.directory.dynamoDirectory),
        // The budget's write stores the resolution: two lookups are far within its room.
        lookups: stores.lookups.dynamoLookupBudget(LOOKUP_BUDGET),
      },
      payer.customer.tenant,
      { customer_id: payer.customer.id, key: payee.key },
    );
  const byDefault = await resolve();
  expect((await itemAt(itemKeys.resolution(byDefault.id)))![TTL]).toBe(
    seconds(byDefault.resolved_at) + DEFAULT_PII_RETENTION_DAYS * DAY,
  );

  process.env[ENV.piiRetentionDays] = '7';
  const shorter = await resolve();
  const item = await itemAt(itemKeys.resolution(shorter.id));
  expect(item).toMatchObject({ entity: 'RESOLUTION', owner: payee.owner, account: payee.account });
  expect(item![TTL]).toBe(seconds(shorter.resolved_at) + 7 * DAY);
  // The attribute is the table's, never the resolution's: the API answer does not show it.
  expect(await stores.directory.dynamoResolutionStore.get(shorter.id)).not.toHaveProperty(TTL);
});

test("a recipient payment's own resolution, written in its transaction, expires too", async () => {
  const payer = await storedMerchant(tenant(), 10_000_00);
  const payee = await otherParticipantKey();
  const saved = await storedResolution(payer, payee);
  const recipient = await createRecipient(
    {
      ...records,
      resolutions: stores.directory.dynamoResolutionStore,
      recipients: stores.recipients.dynamoRecipientStore,
    },
    payer.customer.tenant,
    { customer_id: payer.customer.id, resolution_id: saved.id, alias: 'Ana' },
  );
  const deps = {
    ...paymentDeps(),
    recipients: stores.recipients.dynamoRecipientStore,
    directory: tableLookup(stores.directory.dynamoDirectory),
  };
  const payment = await payRecipient(
    deps,
    payer.customer.tenant,
    {
      customer_id: payer.customer.id,
      account_id: payer.account.id,
      recipient_id: recipient.id,
      amount: { value: '10.00', currency: 'COP' },
    },
    randomUUID(),
  );
  const [item] = await table.scan((i) => i['entity'] === 'RESOLUTION' && i['payment_id'] === payment.id);
  expect(item![TTL]).toBe(seconds(item!['resolved_at']) + DEFAULT_PII_RETENTION_DAYS * DAY);
});

describe('an expired resolution, still in the table (TTL deletes within days)', () => {
  async function expiredResolution() {
    const payer = await storedMerchant(tenant(), 10_000_00);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    await table.documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: itemKeys.resolution(resolution.id),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': TTL },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    return { payer, resolution };
  }

  test('reads as absent', async () => {
    const { resolution } = await expiredResolution();
    await expect(stores.directory.dynamoResolutionStore.get(resolution.id)).resolves.toBeUndefined();
  });

  test('cannot be paid: 404, and nothing is written', async () => {
    const { payer, resolution } = await expiredResolution();
    const error = await payResolution(
      paymentDeps(),
      payer.customer.tenant,
      paymentRequest(payer, resolution, '10.00'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('NOT_FOUND');
    expect(await table.scan((i) => i['entity'] === 'PAYMENT' && i['resolution_id'] === resolution.id)).toEqual([]);
  });

  test('a live one still reads, as it was stored', async () => {
    const payer = await storedMerchant(tenant(), 0);
    const resolution = await storedResolution(payer, await otherParticipantKey());
    await expect(stores.directory.dynamoResolutionStore.get(resolution.id)).resolves.toEqual(resolution);
  });
});

test('an idempotency record, whose answer may name a person, expires within PII_RETENTION_DAYS', async () => {
  const { dynamoIdempotencyStore: store, IDEMPOTENCY_TTL_SECONDS } = stores.idempotency;
  const who = tenant();
  const nowMs = Date.now();
  const answer = { owner: { identification_type: 'CC', identification_number: '1020304050' } };
  await store.commit(who, 'committed', 'hash', answer, nowMs);
  await store.begin(who, 'claimed', 'hash', nowMs);
  await store.complete(who, 'claimed', answer);
  for (const key of ['committed', 'claimed']) {
    const item = await itemAt(itemKeys.idempotency(who, key));
    expect(item).toMatchObject({ status: 'COMPLETED', response: answer });
    expect(item![TTL]).toBe(Math.floor(nowMs / 1000) + IDEMPOTENCY_TTL_SECONDS);
    expect(item![TTL]).toBeLessThanOrEqual(Math.floor(nowMs / 1000) + 1 * DAY);
  }
  // The retention cannot be set below a day, so the records' 24 hours are always the shorter.
  process.env[ENV.piiRetentionDays] = '0';
  const payer = await storedMerchant(tenant(), 0);
  await expect(storedResolution(payer, await otherParticipantKey())).rejects.toThrow('PII_RETENTION_DAYS');
});
