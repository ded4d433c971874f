/**
 * A data subject's request in DynamoDB Local, through the operator's command (tools/privacy.ts) and
 * the real repositories (docs/privacy.md): export finds every kind of record that names the person
 * (their sandbox directory key, a client's resolution of it, the payment made with it and its events,
 * a saved recipient, an idempotency record's answer) and no one else's; erase removes the resolution,
 * the recipient (out of its list's count) and the sandbox key, masks the idempotency answer, keeps the
 * payment and its events saying why; a second erase changes nothing; every run is audited as the
 * operator in the platform's trail and each client's. A merchant found by its NIT is kept, with why.
 */
import { randomUUID } from 'node:crypto';
import type { DirectoryEntry } from '../../shared/domain/directory';
import { publicResolution } from '../../shared/domain/directory';
import { parsePageRequest } from '../../shared/domain/lists';
import type { Erasure, PersonalDataExport } from '../../shared/domain/personal-data';
import { payResolution } from '../../shared/domain/pay-resolution';
import { createRecipient } from '../../shared/domain/recipients';
import { jsonResponse } from '../../shared/http/responses';
import { itemKeys } from '../../shared/data/item-keys';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';
import { ourKey, paymentDeps, paymentRequest, storedMerchant, storedResolution } from '../support/payments';

let table: TestTable;
let tool: typeof import('../../tools/privacy');
let stores: {
  directory: typeof import('../../shared/data/directory-repository');
  recipients: typeof import('../../shared/data/recipients-repository');
  idempotency: typeof import('../../shared/data/idempotency-store');
};

beforeAll(async () => {
  table = await createTestTable('personal-data');
  tool = await import('../../tools/privacy');
  stores = {
    directory: await import('../../shared/data/directory-repository'),
    recipients: await import('../../shared/data/recipients-repository'),
    idempotency: await import('../../shared/data/idempotency-store'),
  };
});
afterAll(() => table.drop());

let counter = 0;
const now = (): string => new Date().toISOString();
const records = { clock: { now }, ids: { newId: () => randomUUID() } };
const uniqueNumber = (): string => String(1_000_000_000 + (process.pid % 1000) * 100_000 + ++counter);

/** A person at another participant, with a key in the sandbox's directory. */
async function person(number = uniqueNumber()): Promise<DirectoryEntry> {
  const at = now();
  const entry: DirectoryEntry = {
    key: { key_type: 'ALPHA', key_value: `@persona${number}` },
    owner: {
      identification_type: 'CC',
      identification_number: number,
      type: 'PERSON',
      first_name: 'Ana',
      first_last_name: 'Gómez',
    },
    participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
    account: { account_number: `40010${number}`, account_type: 'SAVINGS' },
    source: 'SANDBOX',
    status: 'ACTIVE',
    created_at: at,
    updated_at: at,
  };
  const inserted = await stores.directory.dynamoDirectory.insertSandbox(entry, []);
  if (!inserted.inserted) throw new Error('Sandbox key not inserted');
  return entry;
}

/** Everything a client's work leaves naming `payee`: a resolution, its payment, a recipient, a stored answer. */
async function recordsNaming(payee: DirectoryEntry) {
  const payer = await storedMerchant(`tenant-${randomUUID()}`, 1_000_00);
  const tenant = payer.customer.tenant;
  const resolution = await storedResolution(payer, payee);
  const payment = await payResolution(paymentDeps(), tenant, paymentRequest(payer, resolution, '10.00'));
  const kept = await storedResolution(payer, payee);
  const recipient = await createRecipient(
    {
      ...records,
      resolutions: stores.directory.dynamoResolutionStore,
      recipients: stores.recipients.dynamoRecipientStore,
    },
    tenant,
    { customer_id: payer.customer.id, resolution_id: kept.id, alias: 'Ana' },
  );
  const key = randomUUID();
  const answer = jsonResponse(200, publicResolution(kept));
  await stores.idempotency.dynamoIdempotencyStore.commit(tenant, key, 'hash', answer, Date.now());
  return { payer, tenant, resolutions: [resolution.id, kept.id], payment, recipient, idempotencyKey: key };
}

const OPERATOR = 'test-operator';
const exported = (type: string, number: string) =>
  tool.runPrivacyCommand(
    'export',
    { identification_type: type, identification_number: number },
    OPERATOR,
  ) as Promise<PersonalDataExport>;
const erased = (type: string, number: string) =>
  tool.runPrivacyCommand(
    'erase',
    { identification_type: type, identification_number: number },
    OPERATOR,
  ) as Promise<Erasure>;

/** The audit events an operator's request wrote about `action`, by the trail (tenant) they are in. */
const auditEvents = (action: string): Promise<Item[]> =>
  table.scan((item) => item['entity'] === 'AUDIT_EVENT' && item['action'] === action);

const entitiesOf = (items: readonly { readonly entity: string }[]) => [...new Set(items.map((i) => i.entity))].sort();

test('export finds every kind of record that names the person, and no one else’s; audited', async () => {
  const subject = await person();
  const other = await person();
  const made = await recordsNaming(subject);
  await recordsNaming(other);
  const number = subject.owner.identification_number;

  const answer = await exported('CC', number);
  expect(entitiesOf(answer.records)).toEqual(
    ['DIRECTORY_ENTRY', 'EVENT', 'IDEMPOTENCY', 'PAYMENT', 'RECIPIENT', 'RESOLUTION'].sort(),
  );
  // Nothing that names the other person (who shares the payer's kind of records, not the identification).
  expect(JSON.stringify(answer.records)).not.toContain(other.owner.identification_number);
  const byEntity = (entity: string) => answer.records.filter((r) => r.entity === entity);
  expect(
    byEntity('RESOLUTION')
      .map((r) => r.record['id'])
      .sort(),
  ).toEqual([...made.resolutions].sort());
  expect(byEntity('RECIPIENT').map((r) => r.record['id'])).toEqual([made.recipient.id]);
  // The payment whole, as GET /v1/payments/{id} reads it: its counterparty is the person.
  expect(byEntity('PAYMENT')).toEqual([
    expect.objectContaining({
      pk: itemKeys.payment(made.payment.id).pk,
      tenant: made.tenant,
      record: expect.objectContaining({
        id: made.payment.id,
        counterparty: expect.objectContaining({ owner: subject.owner }),
      }),
    }),
  ]);
  expect(byEntity('IDEMPOTENCY')).toEqual([expect.objectContaining({ tenant: made.tenant })]);
  // A resolution shows when the table's TTL removes it.
  expect(byEntity('RESOLUTION')[0]!.expires_at).toEqual(expect.any(String));

  // Wrong type, same number: not the person.
  expect((await exported('NIT', number)).records).toEqual([]);

  const events = await auditEvents('personal_data.exported');
  const mine = events.filter(
    (e) =>
      e['after']?.['identification_type'] === 'CC' &&
      e['after']?.['identification_number'] === `****${number.slice(-4)}`,
  );
  // The NIT's request, which found nothing, is in the platform's trail alone.
  expect(events.filter((e) => e['after']?.['identification_type'] === 'NIT').map((e) => e['tenant'])).toEqual([
    'platform',
  ]);
  expect(mine.map((e) => e['tenant']).sort()).toEqual(['platform', made.tenant].sort());
  for (const event of mine) {
    expect(event).toMatchObject({
      actor: `operator:${OPERATOR}`,
      resource_type: 'PERSONAL_DATA',
      request_id: expect.stringMatching(/^ops-/),
    });
  }
  // The number never whole in the trail.
  expect(JSON.stringify(events)).not.toContain(number);
});

test('erase removes or masks what no law keeps, keeps payments saying why, and is safe to run twice', async () => {
  const subject = await person();
  const made = await recordsNaming(subject);
  const number = subject.owner.identification_number;
  const pkOf = (key: { pk: string }) => key.pk;

  const first = await erased('CC', number);
  expect(first.erased.map((e) => e.pk).sort()).toEqual(
    [
      ...made.resolutions.map((id) => pkOf(itemKeys.resolution(id))),
      pkOf(itemKeys.recipient(made.recipient.id)),
      pkOf(itemKeys.directoryEntry(subject.key.key_type, subject.key.key_value)),
    ].sort(),
  );
  expect(first.masked.map((e) => e.pk)).toEqual([pkOf(itemKeys.idempotency(made.tenant, made.idempotencyKey))]);
  expect(entitiesOf(first.kept)).toEqual(['EVENT', 'PAYMENT']);
  const payment = first.kept.find((k) => k.entity === 'PAYMENT')!;
  expect(payment).toMatchObject({ tenant: made.tenant, reason: expect.stringContaining('Código de Comercio art. 60') });

  // Gone from the table, the recipient out of its list's count too.
  for (const id of made.resolutions) {
    await expect(stores.directory.dynamoResolutionStore.get(id)).resolves.toBeUndefined();
  }
  await expect(stores.directory.dynamoDirectory.get(subject.key)).resolves.toBeUndefined();
  const listed = await stores.recipients.dynamoRecipientStore.list(
    made.tenant,
    {},
    parsePageRequest({ page_size: 10 }, now()),
  );
  expect([listed.items, listed.total]).toEqual([[], 0]);
  // The stored answer still replays, the person masked in it.
  const record = await stores.idempotency.dynamoIdempotencyStore.find<{ body: string }>(
    made.tenant,
    made.idempotencyKey,
    Date.now(),
  );
  const body = JSON.parse(String(record?.response?.body));
  expect(body.owner).toMatchObject({ identification_number: `****${number.slice(-4)}`, first_name: '[erased]' });
  expect(body.account.account_number).toBe(`****${subject.account.account_number.slice(-4)}`);
  expect(record?.response?.body).not.toContain(number);
  // The payment as it was: a financial record.
  const [paymentItem] = await table.scan(
    (i) => i['pk'] === itemKeys.payment(made.payment.id).pk && i['sk'] === 'DETAIL',
  );
  expect(paymentItem!['counterparty'].owner).toEqual(subject.owner);

  const second = await erased('CC', number);
  expect([second.erased, second.masked]).toEqual([[], []]);
  expect(second.kept.map((k) => k.pk).sort()).toEqual(first.kept.map((k) => k.pk).sort());

  const events = (await auditEvents('personal_data.erased')).filter(
    (e) => e['after']?.['identification_number'] === `****${number.slice(-4)}`,
  );
  const clientEvents = events.filter((e) => e['tenant'] === made.tenant).map((e) => e['after']);
  // The client's own records: the sandbox key is no client's (only the platform's trail counts it).
  const inTenant = (items: readonly { readonly tenant?: string }[]) =>
    items.filter((i) => i.tenant === made.tenant).length;
  const [erasedHere, keptHere] = [inTenant(first.erased), inTenant(first.kept)];
  expect(clientEvents).toEqual(
    expect.arrayContaining([
      {
        identification_type: 'CC',
        identification_number: `****${number.slice(-4)}`,
        found: erasedHere + 1 + keptHere,
        erased: erasedHere,
        masked: 1,
        kept: keptHere,
      },
      expect.objectContaining({ found: keptHere, erased: 0, masked: 0, kept: keptHere }),
    ]),
  );
  expect(clientEvents).toHaveLength(2);
  expect(events.filter((e) => e['tenant'] === 'platform')).toHaveLength(2);
});

test('a merchant found by its NIT: its customer record and its key are kept, saying why', async () => {
  const merchant = await storedMerchant(`tenant-${randomUUID()}`, 0);
  const key = await ourKey(merchant);
  const answer = await erased('NIT', merchant.customer.identification_number);
  expect([answer.erased, answer.masked]).toEqual([[], []]);
  expect(answer.kept.map((k) => [k.entity, k.pk]).sort()).toEqual(
    [
      ['CUSTOMER', itemKeys.customer(merchant.customer.id).pk],
      ['DIRECTORY_ENTRY', itemKeys.directoryEntry(key.key.key_type, key.key.key_value).pk],
    ].sort(),
  );
  expect(answer.kept.find((k) => k.entity === 'DIRECTORY_ENTRY')!.reason).toContain('DELETE /v1/keys/{id}');
});

test('the command line takes an identification and an optional file, nothing else', () => {
  expect(tool.parseArguments(['CC', '1020304050'])).toEqual({
    subject: { identification_type: 'CC', identification_number: '1020304050' },
  });
  expect(tool.parseArguments(['NIT', '900123456', '--out', 'p.json'])).toMatchObject({ out: 'p.json' });
  expect(() => tool.parseArguments(['CC'])).toThrow('usage');
  expect(() => tool.parseArguments(['CC', '1', '--file', 'x'])).toThrow('usage');
  expect(() => tool.parseArguments(['cc', '1'])).toThrow('usage');
});
