/**
 * Recipients in DynamoDB Local, through the domain's rules and the real repositories: the item as
 * stored (listed in the tenant's collection and its customer's scope), lists and their totals,
 * deletion (once); and paying a recipient: the resolution its Idempotency-Key names is stored by the
 * payment's own transaction, used by it; a refused payment writes nothing, that resolution included;
 * and a key pays once: asked again, by racing requests, or after a step that failed past the commit.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../shared/domain/errors';
import { parsePageRequest } from '../../shared/domain/lists';
import { keyedResolutionId, payRecipient, type PayRecipientDeps } from '../../shared/domain/pay-recipient';
import type { SettlementQueue } from '../../shared/domain/settlement';
import { createRecipient, deleteRecipient, type RecipientStore } from '../../shared/domain/recipients';
import { dynamoDirectory, dynamoResolutionStore } from '../../shared/data/directory-repository';
import { tableLookup } from '../../shared/domain/directory';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';
import { describeChanges, diffItems } from '../support/table-diff';
import {
  HeldSettlements,
  ledgerOf,
  otherParticipantKey,
  paymentDeps,
  storedMerchant,
  storedResolution,
  type Merchant,
} from '../support/payments';

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
    // Never changed: listed by creation only, which also answers the lists by update time.
    expect(Object.keys(item!).filter((name) => /^gsi[24]/.test(name))).toEqual([]);
    for (const customerId of [undefined, payer.customer.id]) {
      const byUpdate = await recipients.list(
        owner,
        customerId ? { customerId } : {},
        parsePageRequest(
          { page_size: 100, order_key: 'updated_at', order_direction: 'desc' },
          new Date().toISOString(),
        ),
      );
      const byCreation = await recipients.list(
        owner,
        customerId ? { customerId } : {},
        parsePageRequest({ page_size: 100, order_direction: 'desc' }, new Date().toISOString()),
      );
      expect(byUpdate).toEqual(byCreation);
      expect(byUpdate.total).toBe(customerId ? 2 : 3);
    }

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

describe('paying a recipient', () => {
  const deps = (queue: SettlementQueue = new HeldSettlements()): PayRecipientDeps => ({
    ...paymentDeps(queue),
    recipients,
    // A sandbox stage's directory: our table's.
    directory: tableLookup(dynamoDirectory),
  });

  const request = (payer: Merchant, recipientId: string, value: string) => ({
    customer_id: payer.customer.id,
    account_id: payer.account.id,
    recipient_id: recipientId,
    amount: { value, currency: 'COP' as const },
  });

  let keys = 0;
  const newKey = (): string => `pay-recipient-${process.pid}-${++keys}`;

  const errorOf = (promise: Promise<unknown>): Promise<AppError> =>
    promise.then(
      () => {
        throw new Error('expected a refusal');
      },
      (error: unknown) => {
        expect(error).toBeInstanceOf(AppError);
        return error as AppError;
      },
    );

  const resolutionsOf = (payer: Merchant): Promise<Item[]> =>
    table.scan((item) => item['entity'] === 'RESOLUTION' && item['customer_id'] === payer.customer.id);

  it("stores the resolution its Idempotency-Key names in the payment's transaction, used by the payment", async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const { recipient } = await savedRecipient(payer);
    const before = await resolutionsOf(payer);
    const key = newKey();
    const payment = await payRecipient(deps(), payer.customer.tenant, request(payer, recipient.id, '40.00'), key);
    expect(payment).toMatchObject({ status: 'PENDING', recipient_id: recipient.id });
    expect(payment.resolution_id).toBe(keyedResolutionId(payer.customer.tenant, key));
    const made = (await resolutionsOf(payer)).filter((item) => !before.some((b) => b['id'] === item['id']));
    expect(made).toEqual([
      expect.objectContaining({
        id: payment.resolution_id,
        entity: 'RESOLUTION',
        payment_id: payment.id,
        customer_id: payer.customer.id,
        key: recipient.key,
        payee: expect.objectContaining({ key: recipient.key, status: 'ACTIVE' }),
      }),
    ]);
    const ledger = await ledgerOf(payer.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([60_00, 60_00]);
  });

  it('a refused payment (funds) writes nothing: no payment, no movement, no resolution', async () => {
    const payer = await storedMerchant(tenant(), 10_00);
    const { recipient } = await savedRecipient(payer);
    const before = await table.scan();
    const refused = await errorOf(
      payRecipient(deps(), payer.customer.tenant, request(payer, recipient.id, '10.01'), newKey()),
    );
    expect(refused.code).toBe('INSUFFICIENT_FUNDS');
    expect(describeChanges(diffItems(before, await table.scan()))).toBe('');
    expect((await ledgerOf(payer.account.id)).balanceCents).toBe(10_00);
  });

  it('one payment per Idempotency-Key, whatever its record says: again, racing, or after a failed step', async () => {
    const payer = await storedMerchant(tenant(), 100_00);
    const { recipient } = await savedRecipient(payer);
    const owner = payer.customer.tenant;

    // The key's record gone (24 hours later): the same request answers the payment, another is 409.
    const key = newKey();
    const first = await payRecipient(deps(), owner, request(payer, recipient.id, '10.00'), key);
    expect(await payRecipient(deps(), owner, request(payer, recipient.id, '10.00'), key)).toEqual(first);
    const reused = await errorOf(payRecipient(deps(), owner, request(payer, recipient.id, '10.01'), key));
    expect([reused.code, reused.extensions]).toEqual(['IDEMPOTENCY_KEY_REUSED', { payment_id: first.id }]);

    // Ten requests under one key at once (the key's lock lapsed): one payment, one debit.
    const raced = newKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => payRecipient(deps(), owner, request(payer, recipient.id, '5.00'), raced)),
    );
    expect(new Set(answers.map((payment) => payment.id)).size).toBe(1);

    // The payment committed, its settlement not scheduled (the queue failed): the retry schedules it.
    const failing = new HeldSettlements();
    const schedule = failing.schedule.bind(failing);
    failing.schedule = async () => {
      failing.schedule = schedule;
      throw new Error('queue unavailable');
    };
    const crashed = newKey();
    await expect(payRecipient(deps(failing), owner, request(payer, recipient.id, '7.00'), crashed)).rejects.toThrow(
      'queue unavailable',
    );
    const retried = await payRecipient(deps(failing), owner, request(payer, recipient.id, '7.00'), crashed);
    expect(failing.scheduled).toEqual([retried.id]);

    const ledger = await ledgerOf(payer.account.id);
    expect([ledger.balanceCents, ledger.movementsCents]).toEqual([78_00, 78_00]);
  });
});
