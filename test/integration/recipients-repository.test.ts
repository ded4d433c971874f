/**
 * Recipients in DynamoDB Local, through the domain's rules and the real repositories: the item as
 * stored (listed in the tenant's collection and its customer's scope), lists and their totals,
 * deletion (once).
 */
import { randomUUID } from 'node:crypto';
import { parsePageRequest } from '../../shared/domain/lists';
import { createRecipient, deleteRecipient, type RecipientStore } from '../../shared/domain/recipients';
import { dynamoResolutionStore } from '../../shared/data/directory-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { otherParticipantKey, storedMerchant, storedResolution, type Merchant } from '../support/payments';

let table: TestTable;
let recipients: RecipientStore;

beforeAll(async () => {
  table = await createTestTable('recipients');
  ({ dynamoRecipientStore: recipients } = await import('../../shared/data/recipients-repository'));
});
afterAll(() => table.drop());

const tenant = (): string => `tenant-${randomUUID()}`;
const records = { clock: { now: () => new Date().toISOString() }, ids: { newId: () => randomUUID() } };

/** A recipient of the payer's customer: the payee of a new resolution of a key at another participant. */
async function savedRecipient(payer: Merchant, alias = 'Ana') {
  const payee = await otherParticipantKey();
  const resolution = await storedResolution(payer, payee);
  const recipient = await createRecipient(
    { ...records, resolutions: dynamoResolutionStore, recipients },
    payer.customer.tenant,
    { customer_id: payer.customer.id, resolution_id: resolution.id, alias },
  );
  return { recipient, payee };
}

const listed = (who: string, customerId?: string) =>
  recipients.list(
    who,
    customerId ? { customerId } : {},
    parsePageRequest({ page_size: 100 }, new Date().toISOString()),
  );

describe('the recipient store', () => {
  it("stores the recipient in the tenant's collection and its customer's scope, listed with totals", async () => {
    const payer = await storedMerchant(tenant(), 0);
    const sibling = await storedMerchant(payer.customer.tenant, 0);
    const { recipient, payee } = await savedRecipient(payer);
    const [item] = await table.scan((i) => i['id'] === recipient.id);
    const owner = payer.customer.tenant;
    expect(item).toMatchObject({
      pk: `RECIPIENT#${recipient.id}`,
      sk: 'RECIPIENT',
      entity: 'RECIPIENT',
      tenant: owner,
      customer_id: payer.customer.id,
      alias: 'Ana',
      key: payee.key,
      gsi1pk: `${owner}#RECIPIENT`,
      gsi3pk: `${owner}#RECIPIENT#CUSTOMER#${payer.customer.id}`,
    });
    // The payee as the resolution showed it, not the whole directory entry (no source, status, ids).
    expect(item).not.toHaveProperty('payee');
    expect(item).not.toHaveProperty('source');

    const second = (await savedRecipient(payer, 'Otro')).recipient;
    const theirs = (await savedRecipient(sibling, 'Hermano')).recipient;
    const all = await listed(owner);
    expect(all.total).toBe(3);
    expect(all.items.map((r) => r.id).sort()).toEqual([recipient.id, second.id, theirs.id].sort());
    const scoped = await listed(owner, payer.customer.id);
    expect([scoped.total, scoped.items.map((r) => r.id).sort()]).toEqual([2, [recipient.id, second.id].sort()]);
    expect((await listed(tenant())).total).toBe(0);

    const stored = (await recipients.get(recipient.id))!;
    await deleteRecipient(recipients, owner, recipient.id);
    expect(await recipients.get(recipient.id)).toBeUndefined();
    expect((await listed(owner)).total).toBe(2);
    expect((await listed(owner, payer.customer.id)).total).toBe(1);
    // Deleting again (a concurrent DELETE's loser) finds nothing, and leaves the counters as they are.
    expect(await recipients.delete(stored)).toBe(false);
    expect((await listed(owner)).total).toBe(2);
  });
});
