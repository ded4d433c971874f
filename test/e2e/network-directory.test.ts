/**
 * The network's directory in connector mode, as deployed (docs/network.md, "Directory"): resolve-key
 * and validate-key on the real local server ask the fake sponsor bank's directory, signed; a key held
 * at another bank resolves and is paid; a key nobody holds is 404; the directory's 429 is passed on
 * with its Retry-After; a failing, slow or off-contract directory is 503 and stores nothing. Our own
 * merchants' keys resolve from our table, with no call. Registering, suspending, activating and deleting
 * a key tell the bank's directory first, signed; a key held elsewhere is 409 and a failing directory
 * 503, with nothing changed here.
 */
import { FakeBank } from '../../tools/fake-bank';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, uniqueAlphaKey } from '../support/merchants';

const OTHER_BANK = { name: 'Banco Lejano S.A.', identification_number: '860000099' };
const LUCIA = {
  key: { key_type: 'PHONE', key_value: '3157770011' },
  owner: {
    identification_type: 'CC',
    identification_number: '52777001',
    type: 'PERSON',
    first_name: 'Lucía',
    first_last_name: 'Herrera',
  },
  participant: OTHER_BANK,
  account: { account_number: '7700110022', account_type: 'SAVINGS' },
} as const;

let api: TestApi;
let bank: FakeBank;
let token: string;
let payer: Awaited<ReturnType<typeof merchantWithKey>>;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
  });
  token = await api.token('sandbox-client-a');
  payer = await merchantWithKey(api, token, { availableBalance: '900.00' });
  bank.hold(LUCIA);
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

const resolve = (key: { key_type?: string; key_value: string }) =>
  api.request('POST', '/v1/resolve-key', { token, body: { customer_id: payer.customerId, key } });

const resolutionsStored = async () => (await api.scan()).filter((item) => item['entity'] === 'RESOLUTION').length;

describe('resolving a key through the network', () => {
  it('resolves a key held at another bank, asking for the paying customer, signed; and pays it', async () => {
    const asked = bank.lookups.length;
    const resolved = await resolve({ key_value: '3157770011' });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      key: LUCIA.key,
      owner: LUCIA.owner,
      participant: OTHER_BANK,
      account: LUCIA.account,
    });

    const [lookup] = bank.lookups.slice(asked);
    expect(lookup!.signed).toBe(true);
    expect(lookup!.body).toEqual({
      key: LUCIA.key,
      requested_by: { identification_type: 'NIT', identification_number: payer.nit },
    });

    const paid = await api.request('POST', '/v1/payments', {
      token,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: resolved.body.id,
        amount: { value: '41.10', currency: 'COP' },
      },
    });
    expect([paid.status, paid.body.status]).toEqual([200, 'PENDING']);
    const [order] = await bank.ordersFor(paid.body.id);
    expect(order!.body.creditor).toMatchObject({ participant: OTHER_BANK, account: LUCIA.account });
  });

  it('a key no participant holds is 404 KEY_NOT_FOUND, and no resolution is stored', async () => {
    const before = await resolutionsStored();
    const answer = await resolve({ key_type: 'EMAIL', key_value: 'nadie@ejemplo.co' });
    expect([answer.status, answer.body.code]).toEqual([404, 'KEY_NOT_FOUND']);
    expect(await resolutionsStored()).toBe(before);
  });

  it("the sandbox's own directory is not read: a key only it holds is not found", async () => {
    const added = await api.request('POST', '/sandbox/directory/keys', {
      token,
      body: { ...LUCIA, key: { key_type: 'PHONE', key_value: '3157770099' } },
    });
    expect(added.status).toBe(201);
    expect((await resolve({ key_value: '3157770099' })).status).toBe(404);
  });

  it("our own merchant's key resolves from our table, with no call", async () => {
    const payee = await merchantWithKey(api, token);
    const asked = bank.lookups.length;
    const answer = await resolve(payee.key);
    expect(answer.status).toBe(200);
    expect(answer.body.owner).toMatchObject({ identification_number: payee.nit, type: 'BUSINESS' });
    expect(bank.lookups.length).toBe(asked);
  });

  it("the directory's 429 is 429 LOOKUP_LIMITED with its Retry-After; nothing stored", async () => {
    const before = await resolutionsStored();
    bank.lookupPlans.push({ status: 429, retryAfter: '7', body: '{"reason":"RATE_LIMITED"}' });
    const answer = await resolve(LUCIA.key);
    expect([answer.status, answer.body.code, answer.headers.get('retry-after')]).toEqual([429, 'LOOKUP_LIMITED', '7']);
    expect(await resolutionsStored()).toBe(before);
    // Once the directory answers again, so do we.
    expect((await resolve(LUCIA.key)).status).toBe(200);
  });

  it.each([
    ['fails', { status: 500 }],
    ['answers outside its contract', { status: 200, body: '{"owner":{"type":"PERSON"}}' }],
    ['does not answer within 3 s', { status: 200, body: JSON.stringify(LUCIA), delayMs: 3_500 }],
  ])('a directory that %s is 503 SERVICE_UNAVAILABLE with Retry-After; nothing stored', async (_, plan) => {
    const before = await resolutionsStored();
    bank.lookupPlans.push(plan);
    const answer = await resolve(LUCIA.key);
    expect([answer.status, answer.body.code, answer.headers.get('retry-after')]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      '5',
    ]);
    expect(await resolutionsStored()).toBe(before);
  });
});

describe("paying a saved recipient through the network's directory", () => {
  it('resolves the recipient’s key again at the bank, signed for the paying customer, and pays it', async () => {
    const resolved = await resolve(LUCIA.key);
    const saved = await api.request('POST', '/v1/recipients', {
      token,
      body: { customer_id: payer.customerId, resolution_id: resolved.body.id, alias: 'Lucía' },
    });
    expect(saved.status).toBeLessThan(300);
    const asked = bank.lookups.length;
    const paid = await api.request('POST', '/v1/payments', {
      token,
      headers: { 'idempotency-key': `recipient-${Date.now()}` },
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        recipient_id: saved.body.id,
        amount: { value: '12.30', currency: 'COP' },
      },
    });
    expect([paid.status, paid.body.status]).toEqual([200, 'PENDING']);
    const [lookup] = bank.lookups.slice(asked);
    expect([lookup!.signed, lookup!.body['requested_by']]).toEqual([
      true,
      { identification_type: 'NIT', identification_number: payer.nit },
    ]);
    const [order] = await bank.ordersFor(paid.body.id);
    expect(order!.body.creditor).toMatchObject({ participant: OTHER_BANK, account: LUCIA.account });
  });
});

describe('validating a key through the network', () => {
  const validate = (key: object, identification_type: string, identification_number: string) =>
    api.request('POST', '/v1/validate-key', { token, body: { key, identification_type, identification_number } });

  it('MATCH for the owner the directory answers, NO_MATCH otherwise; asked by our sponsor bank', async () => {
    const asked = bank.lookups.length;
    expect((await validate(LUCIA.key, 'CC', '52777001')).body).toEqual({ result: 'MATCH' });
    expect((await validate(LUCIA.key, 'CC', '52777002')).body).toEqual({ result: 'NO_MATCH' });
    expect((await validate({ key_value: '3157770012' }, 'CC', '52777001')).body).toEqual({ result: 'NO_MATCH' });
    expect(bank.lookups[asked]!.body['requested_by']).toEqual({
      identification_type: 'NIT',
      identification_number: '860000001',
    });
  });

  it("the directory's 429 is passed on here too", async () => {
    bank.lookupPlans.push({ status: 429, retryAfter: '3' });
    const answer = await validate(LUCIA.key, 'CC', '52777001');
    expect([answer.status, answer.body.code, answer.headers.get('retry-after')]).toEqual([429, 'LOOKUP_LIMITED', '3']);
  });

  it("our client's budget stands in front of the network's: a spent budget asks the bank nothing", async () => {
    // Another client's budget, spent by misses (20 units of 600 each); the loop rides over a window's end.
    const tokenB = await api.token('sandbox-client-b');
    const miss = () =>
      api.request('POST', '/v1/validate-key', {
        token: tokenB,
        body: { key: { key_value: '3157770012' }, identification_type: 'CC', identification_number: '1' },
      });
    let asked = bank.lookups.length;
    let answer = await miss();
    for (let sent = 1; answer.status !== 429 && sent < 70; sent += 1) {
      asked = bank.lookups.length;
      answer = await miss();
    }
    expect([answer.status, answer.body.code]).toEqual([429, 'KEY_LOOKUPS_EXHAUSTED']);
    expect(bank.lookups.length).toBe(asked);
  });
});

describe("publishing our merchants' keys in the network's directory", () => {
  const keyItems = async (value: string) =>
    (await api.scan()).filter((item) => item['entity'] === 'KEY' && item['key_value'] === value);
  const changeKey = (id: string, action: 'suspend' | 'activate' | 'delete') =>
    action === 'delete'
      ? api.request('DELETE', `/v1/keys/${id}`, { token })
      : api.request('PATCH', `/v1/keys/${id}/${action}`, { token });

  it('a registered key is in the bank’s directory, signed, and follows each status change there', async () => {
    const told = bank.keyChanges.length;
    const merchant = await merchantWithKey(api, token);
    const [published] = bank.keyChanges.slice(told);
    expect(published!.signed).toBe(true);
    expect(published!.body).toEqual({
      key: merchant.key,
      account: { account_number: merchant.accountNumber, account_type: expect.any(String) },
      owner: {
        identification_type: 'NIT',
        identification_number: merchant.nit,
        type: 'BUSINESS',
        business_name: merchant.businessName,
      },
    });
    expect(bank.entry(merchant.key)).toMatchObject({
      status: 'ACTIVE',
      participant: { name: 'Banco Patrocinador Sandbox', identification_number: '860000001' },
      account: { account_number: merchant.accountNumber },
    });

    expect((await changeKey(merchant.keyId, 'suspend')).status).toBe(200);
    expect(bank.entry(merchant.key)?.status).toBe('SUSPENDED');
    expect((await changeKey(merchant.keyId, 'activate')).status).toBe(200);
    expect(bank.entry(merchant.key)?.status).toBe('ACTIVE');
    expect((await changeKey(merchant.keyId, 'delete')).status).toBe(200);
    expect(bank.entry(merchant.key)).toBeUndefined();
    expect(bank.keyChanges.slice(told + 1).map((change) => [change.signed, change.body['status']])).toEqual([
      [true, 'SUSPENDED'],
      [true, 'ACTIVE'],
      [true, undefined],
    ]);
  });

  it('a key another participant holds is 409 KEY_ALREADY_REGISTERED, and nothing is stored', async () => {
    const merchant = await merchantWithKey(api, token);
    const answer = await api.request('POST', '/v1/keys', {
      token,
      body: { account_id: merchant.accountId, key: LUCIA.key },
    });
    expect([answer.status, answer.body.code]).toEqual([409, 'KEY_ALREADY_REGISTERED']);
    expect(await keyItems(LUCIA.key.key_value)).toEqual([]);
    expect(bank.entry(LUCIA.key)).toMatchObject({ ours: false, participant: OTHER_BANK });
  });

  it.each([
    ['fails', { status: 500 }],
    ['does not answer within 5 s', { status: 201, delayMs: 5_500 }],
  ])('a directory that %s: registration is 503 with Retry-After and stores nothing', async (_, plan) => {
    const merchant = await merchantWithKey(api, token);
    bank.keyChangePlans.push(plan);
    const key = { key_type: 'ALPHA', key_value: uniqueAlphaKey() };
    const answer = await api.request('POST', '/v1/keys', { token, body: { account_id: merchant.accountId, key } });
    expect([answer.status, answer.body.code, answer.headers.get('retry-after')]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      '5',
    ]);
    expect(await keyItems(key.key_value)).toEqual([]);
    // Once the directory answers again, the same registration succeeds.
    const again = await api.request('POST', '/v1/keys', { token, body: { account_id: merchant.accountId, key } });
    expect(again.status).toBe(200);
    expect(bank.entry(key)?.status).toBe('ACTIVE');
  });

  it('a directory that fails a suspension: 503, and the key stays ACTIVE here and there', async () => {
    const merchant = await merchantWithKey(api, token);
    bank.keyChangePlans.push({ status: 503 });
    const answer = await changeKey(merchant.keyId, 'suspend');
    expect([answer.status, answer.body.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect((await api.request('GET', `/v1/keys/${merchant.keyId}`, { token })).body.status).toBe('ACTIVE');
    expect(bank.entry(merchant.key)?.status).toBe('ACTIVE');
  });
});
