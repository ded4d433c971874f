/**
 * Onboarding bound to one platform (docs/onboarding.md), in connector mode as deployed: the fake
 * sponsor bank pushes its signed decisions to `PUT /network/v1/merchants/NIT/{nit}` on the real local
 * server; only the platform named links the merchant and its accounts; a NIT or an account number is
 * linked once across all clients; every refusal reads as an unknown NIT's or number's; a revocation
 * deactivates the customer and takes its keys out of the directory.
 */
import { accountNumbers, linkAccount, setStatus } from '../support/accounts';
import { generateSigningKey } from '../../shared/domain/message-signatures';
import { FakeBank, type Signing } from '../../tools/fake-bank';
import { linkMerchantBody, SANDBOX_NIT, uniqueNit } from '../support/fixtures';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey } from '../support/merchants';

const LINK = '/v1/customers/business/link';

let api: TestApi;
let bank: FakeBank;
/** A key of the bank's key id that is not the bank's: what a forger signs with. */
const forgedKey = () => generateSigningKey(bank.publicKeys.keys[0]!.kid);
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
    edge: 'stage',
  });
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

const decision = (platform: string, overrides: Record<string, unknown> = {}) => ({
  platform,
  business_name: 'Droguería La Salud SAS',
  status: 'APPROVED',
  accounts: [],
  ...overrides,
});

const bankAccount = (number: string, value = '1500.25') => ({
  account_number: number,
  account_type: 'ORDINARY',
  opening_balance: { value, currency: 'COP' },
});

const link = (token: string, nit: string, overrides: Record<string, unknown> = {}) =>
  api.request('POST', LINK, { token, body: linkMerchantBody({ identification_number: nit, ...overrides }) });

/** A problem answer without what differs on every request: what a caller can tell apart. */
const told = (answer: ApiAnswer) => {
  const { request_id: _id, ...rest } = answer.body as Record<string, unknown>;
  return [answer.status, rest];
};

describe("the bank's signature", () => {
  it.each<[string, () => Signing]>([
    ['unsigned', () => ({ unsigned: true })],
    ['signed with another key under the bank’s key id', () => ({ key: forgedKey() })],
    ['signed 10 minutes ago', () => ({ ageSeconds: 600 })],
  ])('a decision %s is 401 and approves nothing', async (_, signing) => {
    const nit = uniqueNit();
    const answer = await bank.decide(api.url, nit, decision('sandbox-client-a'), signing());
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({
      code: 'NETWORK_SIGNATURE_INVALID',
      detail: 'The request is not signed by the network connector',
    });
    expect((await link(tokenA, nit)).status).toBe(400);
  });

  it('a tampered body is 401: the signature covers its bytes', async () => {
    const nit = uniqueNit();
    // Signed for B, sent naming A: what a man in the middle would do.
    const answer = await bank.decide(api.url, nit, decision('sandbox-client-b'), {
      tamper: (raw) => raw.replace('sandbox-client-b', 'sandbox-client-a'),
    });
    expect(answer.status).toBe(401);
    expect((await link(tokenA, nit)).status).toBe(400);
  });

  it.each([
    ['another identification type', (nit: string) => `CC/${nit}`],
    ['a NIT of 8 digits', (nit: string) => `NIT/${nit.slice(1)}`],
  ])('%s in the path is 404', async (_, path) => {
    const nit = uniqueNit();
    const answer = await bank.decide(api.url, nit, decision('sandbox-client-a'), {}, path(nit));
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('NOT_FOUND');
  });
});

describe('an approval, bound to one platform', () => {
  it('the platform named links the merchant, under the bank’s name, and its account with its opening balance', async () => {
    const nit = uniqueNit();
    const [number] = accountNumbers(1) as [string];
    const pushed = await bank.decide(api.url, nit, decision('sandbox-client-a', { accounts: [bankAccount(number)] }));
    expect(pushed.status).toBe(200);
    expect(pushed.body).toEqual({
      identification_type: 'NIT',
      identification_number: nit,
      platform: 'sandbox-client-a',
      business_name: 'Droguería La Salud SAS',
      status: 'APPROVED',
      accounts: [{ account_number: number, opening_balance: { value: '1500.25', currency: 'COP' } }],
      customer_deactivated: false,
    });

    const linked = await link(tokenA, nit, { business_name: 'La Salud' });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ business_name: 'Droguería La Salud SAS', trade_name: 'La Salud' });

    const account = await linkAccount(api, tokenA, linked.body.id, number);
    expect(account.status).toBe(200);
    expect(account.body.available_balance).toEqual({ value: '1500.25', currency: 'COP' });
  });

  it('a link request with the bank’s own name has no trade_name', async () => {
    const nit = uniqueNit();
    await bank.decide(api.url, nit, decision('sandbox-client-a'));
    const linked = await link(tokenA, nit, { business_name: 'Droguería La Salud SAS' });
    expect(linked.status).toBe(200);
    expect(linked.body).not.toHaveProperty('trade_name');
  });

  it('another platform gets exactly the answer an unknown NIT gets, for the merchant and for its account', async () => {
    const nit = uniqueNit();
    const [number] = accountNumbers(1) as [string];
    await bank.decide(api.url, nit, decision('sandbox-client-a', { accounts: [bankAccount(number)] }));
    expect(told(await link(tokenB, nit))).toEqual(told(await link(tokenB, uniqueNit())));
    expect((await link(tokenB, nit)).body.code).toBe('MERCHANT_NOT_APPROVED');

    // B's own merchant asks for A's merchant's account number: as for a number nobody holds.
    const ownNit = uniqueNit();
    await bank.decide(api.url, ownNit, decision('sandbox-client-b'));
    const own = await link(tokenB, ownNit);
    const [unknown] = accountNumbers(1) as [string];
    expect(told(await linkAccount(api, tokenB, own.body.id, number))).toEqual(
      told(await linkAccount(api, tokenB, own.body.id, unknown)),
    );
    // Nor may B take the approval over through the sandbox's operator route.
    const takeover = await api.request('POST', '/sandbox/sponsor-bank/merchants', {
      token: tokenB,
      body: { identification_type: 'NIT', identification_number: nit, business_name: 'Otra SAS', accounts: [number] },
    });
    expect(takeover.status).toBe(403);
    expect((await link(tokenA, nit)).status).toBe(200);
  });

  it('one real account is linked by one customer across all clients: one ledger, not two', async () => {
    const [number] = accountNumbers(1) as [string];
    const nitA = uniqueNit();
    const nitB = uniqueNit();
    // The bank approves the same account number under two merchants of two platforms (its mistake).
    await bank.decide(api.url, nitA, decision('sandbox-client-a', { accounts: [bankAccount(number, '900.00')] }));
    await bank.decide(api.url, nitB, decision('sandbox-client-b', { accounts: [bankAccount(number, '900.00')] }));
    const customerA = await link(tokenA, nitA);
    const customerB = await link(tokenB, nitB);
    const answers = await Promise.all([
      linkAccount(api, tokenA, customerA.body.id, number),
      linkAccount(api, tokenB, customerB.body.id, number),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
    expect(answers.find((answer) => answer.status === 400)!.body.code).toBe('ACCOUNT_NOT_APPROVED');
  });

  it('the sandbox merchant stays approved for every sandbox client, and is no client’s to re-approve', async () => {
    // It and its accounts are every client's to link, each with a ledger of its own (docs/sandbox.md).
    expect((await link(tokenA, SANDBOX_NIT)).status).toBe(200);
    expect((await link(tokenB, SANDBOX_NIT)).status).toBe(200);
    const approval = await api.request('POST', '/sandbox/sponsor-bank/merchants', {
      token: tokenB,
      body: {
        identification_type: 'NIT',
        identification_number: SANDBOX_NIT,
        business_name: 'Tienda La Esperanza SAS',
      },
    });
    expect(approval.status).toBe(403);
  });
});

describe("the bank's request ids", () => {
  it('a decision replayed byte for byte, after a later one, gets its first answer and applies nothing', async () => {
    const nit = uniqueNit();
    const approved = await bank.decide(api.url, nit, decision('sandbox-client-a'));
    expect(approved.status).toBe(200);
    const captured = bank.sent.at(-1)!;
    const revoked = await bank.decide(api.url, nit, decision('sandbox-client-a', { status: 'REVOKED' }));
    expect(revoked.body.status).toBe('REVOKED');
    // The captured approval, still within its 5 minutes: the first answer, and the NIT stays revoked.
    const replayed = await bank.replay(captured);
    expect([replayed.status, replayed.body]).toEqual([200, approved.body]);
    expect((await link(tokenA, nit)).status).toBe(400);
  });
});

describe('a revocation', () => {
  it('deactivates the customer, suspends its keys in the directory, and keeps it INACTIVE', async () => {
    const merchant = await merchantWithKey(api, tokenA);
    const revoked = await bank.decide(
      api.url,
      merchant.nit,
      decision('sandbox-client-a', { business_name: merchant.businessName, status: 'REVOKED' }),
    );
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'REVOKED', customer_deactivated: true });

    const customer = await api.request('GET', `/v1/customers/${merchant.customerId}`, { token: tokenA });
    expect(customer.body.status).toBe('INACTIVE');
    // The platform hears of it: customer.updated, the customer as its GET answers it, in its own events.
    const events = (await api.scan()).filter(
      (item) =>
        item['entity'] === 'EVENT' && item['type'] === 'customer.updated' && item['data']?.id === merchant.customerId,
    );
    expect(events.map((event) => [event['tenant'], event['data']])).toEqual([['sandbox-client-a', customer.body]]);
    const key = await api.request('GET', `/v1/keys/${merchant.keyId}`, { token: tokenA });
    expect(key.body.status).toBe('SUSPENDED');
    expect(bank.entry(merchant.key)?.status).toBe('SUSPENDED');
    const payer = await merchantWithKey(api, tokenB);
    const resolved = await api.request('POST', '/v1/resolve-key', {
      token: tokenB,
      body: { customer_id: payer.customerId, key: merchant.key },
    });
    expect([resolved.status, resolved.body.code]).toEqual([404, 'KEY_NOT_FOUND']);

    // The platform cannot undo the bank's decision, nor link more.
    const reactivated = await setStatus(api, tokenA, merchant.customerId, 'ACTIVE');
    expect([reactivated.status, reactivated.body.code]).toEqual([400, 'MERCHANT_NOT_APPROVED']);
    const [number] = accountNumbers(1) as [string];
    expect((await linkAccount(api, tokenA, merchant.customerId, number)).status).toBe(400);

    // The bank's suspension is in the platform's audit trail, as the bank's.
    const trail = await api.request('GET', `/v1/audit-events?resource_type=KEY&resource_id=${merchant.keyId}`, {
      token: tokenA,
    });
    expect(trail.body.audit_events).toContainEqual(
      expect.objectContaining({ action: 'key.suspended', actor: 'sponsor-bank' }),
    );

    // The same decision again: 200, nothing more to change.
    const again = await bank.decide(
      api.url,
      merchant.nit,
      decision('sandbox-client-a', { business_name: merchant.businessName, status: 'REVOKED' }),
    );
    expect([again.status, again.body.customer_deactivated]).toEqual([200, false]);

    // Approved again, the platform activates its customer; its keys wait for it to activate them.
    await bank.decide(api.url, merchant.nit, decision('sandbox-client-a', { business_name: merchant.businessName }));
    expect((await setStatus(api, tokenA, merchant.customerId, 'ACTIVE')).status).toBe(200);
    const stillSuspended = await api.request('GET', `/v1/keys/${merchant.keyId}`, { token: tokenA });
    expect(stillSuspended.body.status).toBe('SUSPENDED');
  });

  it("an approval moved to another platform deactivates the first platform's customer", async () => {
    const nit = uniqueNit();
    await bank.decide(api.url, nit, decision('sandbox-client-a'));
    const first = await link(tokenA, nit);
    const moved = await bank.decide(api.url, nit, decision('sandbox-client-b'));
    expect([moved.status, moved.body.customer_deactivated]).toEqual([200, true]);
    const customer = await api.request('GET', `/v1/customers/${first.body.id}`, { token: tokenA });
    expect(customer.body.status).toBe('INACTIVE');
  });
});
