/**
 * Recipients through the real local server with real tokens (docs/payments.md, Recipients and
 * Paying a recipient): saving the payee of a resolution, reading, listing (customer_id), deleting,
 * other clients' 403; paying a recipient (PENDING then SETTLED, our merchant's key SETTLED at once),
 * its Idempotency-Key required and replayed, and the key resolved again at payment time: gone (404
 * KEY_NOT_FOUND) or moved to another owner (409 RECIPIENT_KEY_CHANGED), with nothing debited.
 */
import { SANDBOX_DIRECTORY_KEYS } from '../../infra/local/sandbox-fixtures';
import { accountNumbers, availableBalance, linkAccount, linkedCustomer, sortedBy, walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, uniqueAlphaKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem, fieldsOf } from '../support/problems';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { diffItems } from '../support/table-diff';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A UUID derived from a name (version 8), as a recipient payment's resolution id is. */
const HASHED_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';
/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory), and its payee. */
const ANA = SANDBOX_DIRECTORY_KEYS.find((entry) => entry.key.key_type === 'PHONE')!;
const ANA_PHONE = ANA.key;

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;

beforeAll(async () => {
  api = await startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS });
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
});
afterAll(() => api.stop());

type Key = { readonly key_type?: string; readonly key_value: string };

const resolve = (token: string, customerId: string, key: Key): Promise<string> =>
  resolvedKey(api, token, customerId, key);

const save = (token: string, body: Record<string, unknown>): Promise<ApiAnswer> =>
  api.request('POST', '/v1/recipients', { token, body });

/** A recipient of the payer's customer: the payee of a resolution of `key`. */
async function recipientOf(payer: MerchantWithKey, key: Key, alias = 'Ana arriendo') {
  const resolutionId = await resolve(tokenA, payer.customerId, key);
  const saved = await save(tokenA, { customer_id: payer.customerId, resolution_id: resolutionId, alias });
  expect(saved.status).toBe(200);
  return saved.body;
}

let keys = 0;
const idempotencyKey = (): Record<string, string> => ({ 'idempotency-key': `recipient-${process.pid}-${++keys}` });

const payRecipient = (payer: MerchantWithKey, recipientId: string, value: string, headers = idempotencyKey()) =>
  api.request('POST', '/v1/payments', {
    token: tokenA,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      recipient_id: recipientId,
      amount: { value, currency: 'COP' },
    },
    headers,
  });

/**
 * The answer of a refused request, checked to have written nothing but its Idempotency-Key's record
 * (a refusal is an answer, kept under the key); the workers wait meanwhile.
 */
const writingNothing = (send: () => Promise<ApiAnswer>): Promise<ApiAnswer> =>
  api.quietly(async () => {
    const before = await api.scan();
    const answer = await send();
    const changes = diffItems(before, await api.scan());
    expect(changes.added.filter((item) => item['entity'] !== 'IDEMPOTENCY')).toEqual([]);
    expect([changes.changed, changes.removed]).toEqual([[], []]);
    return answer;
  });

const balance = (token: string, accountId: string): Promise<string> => availableBalance(api, token, accountId);

describe('saving, reading, listing and deleting recipients', () => {
  it("answers the payee as the resolution showed it, reads it back, and 404 once it's deleted", async () => {
    const payer = await merchantWithKey(api, tokenA);
    const resolutionId = await resolve(tokenA, payer.customerId, { key_value: '+573001234567' });
    const saved = await save(tokenA, { customer_id: payer.customerId, resolution_id: resolutionId, alias: 'Ana' });
    expect(saved.status).toBe(200);
    const { id, created_at, updated_at, ...rest } = saved.body;
    expect(id).toMatch(UUID);
    expect(created_at).toMatch(TIMESTAMP);
    expect(updated_at).toBe(created_at);
    expect(rest).toEqual({ customer_id: payer.customerId, alias: 'Ana', ...ANA });
    // The same bytes as the resolution's payee, and as every later read.
    const resolution = await api.request('GET', `/v1/resolutions/${resolutionId}`, { token: tokenA });
    const { key, owner, participant, account } = resolution.body;
    expect({ key, owner, participant, account }).toEqual(ANA);
    const read = await api.request('GET', `/v1/recipients/${id}`, { token: tokenA });
    expect([read.status, read.text]).toEqual([200, saved.text]);
    expect((await api.request('GET', `/v1/recipients/${id.toUpperCase()}`, { token: tokenA })).text).toBe(saved.text);

    // Another client: 403 on read and delete, nothing of it shown; unknown ids 404.
    for (const method of ['GET', 'DELETE']) {
      const foreign = await api.request(method, `/v1/recipients/${id}`, { token: tokenB });
      expectProblem(foreign, 403, 'FORBIDDEN');
      expect(foreign.text).not.toContain('Ana');
      expectProblem(await api.request(method, `/v1/recipients/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
    }

    const deleted = await api.request('DELETE', `/v1/recipients/${id}`, { token: tokenA });
    expect([deleted.status, deleted.text]).toEqual([200, saved.text]);
    expectProblem(await api.request('GET', `/v1/recipients/${id}`, { token: tokenA }), 404, 'NOT_FOUND');
    expectProblem(await api.request('DELETE', `/v1/recipients/${id}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  it("lists the client's recipients, customer_id reading one customer's only, with its totals", async () => {
    const first = await merchantWithKey(api, tokenA);
    const second = await merchantWithKey(api, tokenA);
    const mine = [
      await recipientOf(first, ANA_PHONE, 'Uno'),
      await recipientOf(first, second.key, 'Dos'),
      await recipientOf(first, { key_value: 'ana.gomez@example.com' }, 'Tres'),
    ];
    const theirs = await recipientOf(second, first.key, 'Otro');
    const walk = await walkAll(api, tokenA, `/v1/recipients`, 'recipients', {
      customer_id: first.customerId,
      page_size: 2,
    });
    expect(walk.pages[0]!.body.pagination_info).toMatchObject({ total_elements: 3, total_pages: 2 });
    expect(walk.items).toEqual(sortedBy(mine as never[]));

    const all = await walkAll(api, tokenA, '/v1/recipients', 'recipients', { page_size: 100, order_direction: 'desc' });
    expect(all.items.map((r: Record<string, unknown>) => r['id'])).toEqual(
      expect.arrayContaining([...mine, theirs].map((r) => r['id'])),
    );
    // Another client filtering by the customer sees none of them; the read-only client reads lists.
    const foreign = await api.request('GET', `/v1/recipients?customer_id=${first.customerId}`, { token: tokenB });
    expect([foreign.status, foreign.body.recipients]).toEqual([200, []]);
    expect((await api.request('GET', '/v1/recipients', { token: readonly })).status).toBe(200);
    expectProblem(await api.request('GET', '/v1/recipients?customer=x', { token: tokenA }), 400, 'VALIDATION_FAILED');
  });

  it("refuses another client's resolution (403), another customer's (400), an unknown one (404), a bad alias", async () => {
    const payer = await merchantWithKey(api, tokenA);
    const sibling = await merchantWithKey(api, tokenA);
    const other = await merchantWithKey(api, tokenB);
    const ours = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const siblings = await resolve(tokenA, sibling.customerId, ANA_PHONE);
    const theirs = await resolve(tokenB, other.customerId, ANA_PHONE);
    const body = (resolution_id: string, alias = 'Ana') => ({ customer_id: payer.customerId, resolution_id, alias });

    expectProblem(await save(tokenA, body(theirs)), 403, 'FORBIDDEN');
    const another = await save(tokenA, body(siblings));
    expectProblem(another, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(another)).toEqual(['resolution_id']);
    expectProblem(await save(tokenA, body(UNKNOWN)), 404, 'NOT_FOUND');
    for (const alias of ['', '   ', 'x'.repeat(101)]) {
      const refused = await save(tokenA, body(ours, alias));
      expectProblem(refused, 400, 'VALIDATION_FAILED', JSON.stringify(alias));
      // An empty alias breaks two rules (length and a visible character), each named.
      expect([...new Set(fieldsOf(refused))]).toEqual(['alias']);
    }
    expect((await save(tokenA, body(ours, 'x'.repeat(100)))).status).toBe(200);
    // Saving needs the payments' write scope.
    expectProblem(await save(readonly, body(ours)), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('paying a recipient', () => {
  it('is a payment: PENDING with its amount held, then SETTLED; its Idempotency-Key answers it again', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '500.00' });
    const recipient = await recipientOf(payer, ANA_PHONE);
    const headers = idempotencyKey();
    const answer = await payRecipient(payer, recipient.id, '120.50', headers);
    expect(answer.status).toBe(200);
    const { id, resolution_id, recipient_id, created_at, updated_at, ...rest } = answer.body;
    expect([id, resolution_id, recipient_id, updated_at]).toEqual([
      expect.stringMatching(UUID),
      // Named by the client and the Idempotency-Key: the payment's guard (docs/payments.md).
      expect.stringMatching(HASHED_UUID),
      recipient.id,
      created_at,
    ]);
    expect(rest).toMatchObject({ status: 'PENDING', direction: 'OUTBOUND', counterparty: ANA });
    // Exactly what paying a resolution of the key answers, but for its own ids and times.
    const byResolution = await api.request('POST', '/v1/payments', {
      token: tokenA,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: await resolve(tokenA, payer.customerId, ANA_PHONE),
        amount: { value: '120.50', currency: 'COP' },
      },
    });
    const {
      id: _id,
      resolution_id: _resolution,
      created_at: _created,
      updated_at: _updated,
      ...same
    } = byResolution.body;
    expect(rest).toEqual(same);
    expect(await balance(tokenA, payer.accountId)).toBe('259.00');
    // The key was resolved again for this payment: its resolution, used by it.
    const resolution = await api.request('GET', `/v1/resolutions/${resolution_id}`, { token: tokenA });
    expect(resolution.body).toMatchObject({ id: resolution_id, customer_id: payer.customerId, ...ANA });

    // The same key again: the first answer, replayed, and no second debit.
    const replay = await payRecipient(payer, recipient.id, '120.50', headers);
    expect([replay.status, replay.text, replay.headers.get('idempotent-replayed')]).toEqual([200, answer.text, 'true']);
    const settled = await answeredPayment(api, tokenA, id);
    const { settled_at } = settled.body;
    expect(settled.body).toEqual({ ...answer.body, status: 'SETTLED', updated_at: settled_at, settled_at });
    expect(await balance(tokenA, payer.accountId)).toBe('259.00');

    // Another key: another payment to the same recipient.
    const second = await payRecipient(payer, recipient.id, '20.00');
    expect([second.status, second.body.status]).toEqual([200, 'PENDING']);
    expect(second.body.id).not.toBe(id);
    expect(second.body.resolution_id).not.toBe(resolution_id);
    expect(await balance(tokenA, payer.accountId)).toBe('239.00');
    const listed = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}`, { token: tokenA });
    const recipients = listed.body.payments.map((p: Record<string, unknown>) => p['recipient_id']);
    expect([recipients.length, recipients.filter((r: unknown) => r === recipient.id).length]).toEqual([3, 2]);
  });

  it("to our merchant's key (another client's): SETTLED at once, the payee credited", async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '300.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const recipient = await recipientOf(payer, payee.key, 'Proveedor');
    const answer = await payRecipient(payer, recipient.id, '75.00');
    expect(answer.body).toMatchObject({ status: 'SETTLED', recipient_id: recipient.id });
    expect(await balance(tokenA, payer.accountId)).toBe('225.00');
    expect(await balance(tokenB, payee.accountId)).toBe('75.00');
    // The payee's INBOUND record does not name the payer's recipient.
    const inbound = await api.request('GET', `/v1/payments?customer_id=${payee.customerId}`, { token: tokenB });
    expect(inbound.body.payments).toHaveLength(1);
    expect(inbound.body.payments[0]).toMatchObject({ direction: 'INBOUND', status: 'SETTLED' });
    expect(inbound.body.payments[0].recipient_id).toBeUndefined();
  });

  it('refusals: no Idempotency-Key, neither or both ids, another client\u2019s or customer\u2019s recipient; nothing debited', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '100.00' });
    const sibling = await merchantWithKey(api, tokenA);
    const other = await merchantWithKey(api, tokenB);
    const recipient = await recipientOf(payer, ANA_PHONE);
    const siblings = await recipientOf(sibling, ANA_PHONE);
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const theirsResolution = await resolve(tokenB, other.customerId, ANA_PHONE);
    const theirs = await save(tokenB, { customer_id: other.customerId, resolution_id: theirsResolution, alias: 'B' });
    const body = (ids: Record<string, string>) => ({
      customer_id: payer.customerId,
      account_id: payer.accountId,
      amount: { value: '10.00', currency: 'COP' },
      ...ids,
    });
    const pay = (ids: Record<string, string>, headers = idempotencyKey()) =>
      api.request('POST', '/v1/payments', { token: tokenA, body: body(ids), headers });

    const unkeyed = await pay({ recipient_id: recipient.id }, {});
    expectProblem(unkeyed, 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expect(fieldsOf(unkeyed)).toEqual(['Idempotency-Key']);
    const both = await pay({ recipient_id: recipient.id, resolution_id: resolutionId });
    expectProblem(both, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(both)).toEqual(['recipient_id']);
    const neither = await pay({});
    expectProblem(neither, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(neither)).toEqual(['resolution_id']);
    expectProblem(await pay({ recipient_id: theirs.body.id }), 403, 'FORBIDDEN');
    expectProblem(await pay({ recipient_id: UNKNOWN }), 404, 'NOT_FOUND');
    const another = await pay({ recipient_id: siblings.id });
    expectProblem(another, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(another)).toEqual(['recipient_id']);
    expectProblem(await writingNothing(() => payRecipient(payer, recipient.id, '100.01')), 400, 'INSUFFICIENT_FUNDS');
    expect(await balance(tokenA, payer.accountId)).toBe('100.00');
    const payments = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}`, { token: tokenA });
    expect(payments.body.payments).toEqual([]);
    // A resolution is still paid without a key, as before.
    expect((await pay({ resolution_id: resolutionId }, {})).status).toBe(200);
  });

  it('resolves the key again: gone is 404 KEY_NOT_FOUND, moved to another owner 409 RECIPIENT_KEY_CHANGED', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '200.00' });
    // The payee: a merchant of client B with a key of its own.
    const payee = await merchantWithKey(api, tokenB);
    const recipient = await recipientOf(payer, payee.key, 'Panadería');
    expect((await payRecipient(payer, recipient.id, '10.00')).body.status).toBe('SETTLED');
    expect(await balance(tokenA, payer.accountId)).toBe('190.00');

    // B deletes the key: it no longer resolves.
    expect((await api.request('DELETE', `/v1/keys/${payee.keyId}`, { token: tokenB })).status).toBe(200);
    expectProblem(await writingNothing(() => payRecipient(payer, recipient.id, '10.00')), 404, 'KEY_NOT_FOUND');

    // Another merchant registers the value: the key now names someone else.
    const [number] = accountNumbers(1) as [string];
    const newOwner = await linkedCustomer(api, tokenB, { numbers: [number] });
    const account = await linkAccount(api, tokenB, newOwner.id, number);
    const taken = await api.request('POST', '/v1/keys', {
      token: tokenB,
      body: { account_id: account.body.id, key: payee.key },
    });
    expect(taken.status).toBe(200);
    const moved = await writingNothing(() => payRecipient(payer, recipient.id, '10.00'));
    expectProblem(moved, 409, 'RECIPIENT_KEY_CHANGED');
    expect(moved.body.recipient_id).toBe(recipient.id);
    expect(moved.text).not.toContain(newOwner.nit);
    expect(await balance(tokenA, payer.accountId)).toBe('190.00');
    const payments = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}`, { token: tokenA });
    expect(payments.body.payments).toHaveLength(1);
    // The recipient itself still shows the payee it saved.
    const read = await api.request('GET', `/v1/recipients/${recipient.id}`, { token: tokenA });
    expect(read.body.owner.identification_number).toBe(payee.nit);
  });

  it('a sandbox key moved to another participant is RECIPIENT_KEY_CHANGED too', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '50.00' });
    const value = uniqueAlphaKey();
    // A new key of the sandbox's business (Panadería El Trigal), at another participant.
    const { owner, participant, account } = SANDBOX_DIRECTORY_KEYS.find((e) => e.key.key_type === 'BCODE')!;
    const entry = { key: { key_type: 'ALPHA', key_value: value }, owner, participant, account };
    expect((await api.request('POST', '/sandbox/directory/keys', { token: tokenA, body: entry })).status).toBe(201);
    const recipient = await recipientOf(payer, entry.key, 'Luis');
    // The directory entry behind the test's back: the same key, now at another participant and account.
    const [item] = (await api.scan()).filter((i) => i['pk'] === `DIRECTORY#ALPHA#${value}`);
    await api.deleteItems([{ pk: item!['pk'], sk: item!['sk'] }]);
    const elsewhere = {
      ...entry,
      participant: { name: 'Banco Otro', identification_number: '860000009' },
      account: { account_number: '7000000001', account_type: 'SAVINGS' },
    };
    expect((await api.request('POST', '/sandbox/directory/keys', { token: tokenA, body: elsewhere })).status).toBe(201);
    expectProblem(await writingNothing(() => payRecipient(payer, recipient.id, '5.00')), 409, 'RECIPIENT_KEY_CHANGED');
    expect(await balance(tokenA, payer.accountId)).toBe('50.00');
  });
});
