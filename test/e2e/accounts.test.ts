/**
 * POST /accounts (and /v1/accounts) and GET /v1/accounts/{id} through the real local server, with
 * tokens from its token endpoint: every validation rule and status code of issue 3, item 1.
 */
import { SANDBOX_NIT, linkMerchantBody } from '../support/fixtures';
import { accountNumbers, linkAccount, linkedCustomer, setStatus } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
});
afterAll(() => api.stop());

describe('linking an account', () => {
  it("answers the contract's account object, balances in COP from the sponsor bank record", async () => {
    const [plain, funded] = accountNumbers(2);
    const customer = await linkedCustomer(api, tokenA, {
      numbers: [plain!, { number: funded!, available_balance: '250000.75' }],
    });

    const answer = await linkAccount(api, tokenA, customer.id, plain!);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    const { id, created_at, updated_at, ...rest } = answer.body;
    expect(id).toMatch(UUID);
    expect(created_at).toMatch(TIMESTAMP);
    expect(updated_at).toBe(created_at);
    expect(rest).toEqual({
      customer_id: customer.id,
      number: plain,
      type: 'ORDINARY',
      available_balance: { currency: 'COP', value: '1000000.00' },
      pending_balance: { currency: 'COP', value: '0.00' },
    });

    const second = await linkAccount(api, tokenA, customer.id, funded!, '/v1/accounts');
    expect(second.status).toBe(200);
    expect(second.body.available_balance).toEqual({ currency: 'COP', value: '250000.75' });
  });

  it('links an account of the sandbox merchant (the README walk-through)', async () => {
    const customer = await api.request('POST', '/v1/customers/business/link', {
      token: tokenB,
      body: linkMerchantBody({ identification_number: SANDBOX_NIT }),
    });
    const answer = await linkAccount(api, tokenB, customer.body.id, '000100200301');
    expect(answer.status).toBe(200);
    expect(answer.body.available_balance.value).toBe('1000000.00');
  });

  it('reads the account back, for its own client only', async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    const linked = await linkAccount(api, tokenA, customer.id, number!);

    const own = await api.request('GET', `/v1/accounts/${linked.body.id}`, { token: tokenA });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(linked.body);
    const upperCase = await api.request('GET', `/v1/accounts/${linked.body.id.toUpperCase()}`, { token: tokenA });
    expect(upperCase.body).toEqual(linked.body);

    const other = await api.request('GET', `/v1/accounts/${linked.body.id}`, { token: tokenB });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('FORBIDDEN');
    expect(other.text).not.toContain(number!);

    const unknown = await api.request('GET', '/v1/accounts/7d7c5a1e-0000-4000-8000-000000000000', { token: tokenA });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('is refused to a token without breb/accounts.write (403), which may still read', async () => {
    const answer = await api.request('POST', '/accounts', {
      token: readonly,
      body: { customer_id: '7d7c5a1e-0000-4000-8000-000000000000', type: 'ORDINARY', number: '000100200301' },
    });
    expect([answer.status, answer.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const list = await api.request('GET', '/v1/accounts', { token: readonly });
    expect(list.status).toBe(200);
    const customersOnly = await api.token('sandbox-client-a', 'breb/customers.read breb/customers.write');
    const noScope = await api.request('GET', '/v1/accounts', { token: customersOnly });
    expect([noScope.status, noScope.body.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
  });

  it('replays the answer for the same Idempotency-Key and body', async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    const headers = { 'idempotency-key': `link-account-${number}` };
    const body = { customer_id: customer.id, type: 'ORDINARY', number };
    const first = await api.request('POST', '/accounts', { token: tokenA, body, headers });
    const replay = await api.request('POST', '/accounts', { token: tokenA, body, headers });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('rules of the link request (400)', () => {
  const valid = { customer_id: '7d7c5a1e-0000-4000-8000-000000000000', type: 'ORDINARY', number: '000100200301' };

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing customer_id', { customer_id: undefined }, 'customer_id'],
    ['a missing type', { type: undefined }, 'type'],
    ['a missing number', { number: undefined }, 'number'],
    ['a type other than ORDINARY', { type: 'SAVINGS' }, 'type'],
    ['a number with letters', { number: '0001002003AB' }, 'number'],
    ['a number of 3 digits', { number: '123' }, 'number'],
    ['a number of 21 digits', { number: '1'.repeat(21) }, 'number'],
    ['a number that is not a string', { number: 100200301 }, 'number'],
    ['a customer_id that is not a UUID', { customer_id: 'customer-1' }, 'customer_id'],
    ['an unknown field', { currency: 'COP' }, 'currency'],
  ])('rejects %s', async (_, overrides, field) => {
    const answer = await api.request('POST', '/accounts', { token: tokenA, body: { ...valid, ...overrides } });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('says what a number must be, not the pattern it fails', async () => {
    const answer = await api.request('POST', '/v1/accounts', {
      token: tokenA,
      body: { ...valid, number: '0001002003AB' },
    });
    expect(answer.body.errors).toEqual([{ field: 'number', message: 'must be 4 to 20 digits' }]);
  });

  it('reports every violation at once', async () => {
    const answer = await api.request('POST', '/v1/accounts', { token: tokenA, body: { type: 'SAVINGS', number: 'x' } });
    const fields = (answer.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['customer_id', 'number', 'type']);
  });

  it('rejects malformed JSON and a missing body', async () => {
    const malformed = await api.request('POST', '/accounts', {
      token: tokenA,
      rawBody: '{"customer_id":',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'MALFORMED_JSON']);
    const empty = await api.request('POST', '/accounts', {
      token: tokenA,
      headers: { 'content-type': 'application/json' },
    });
    expect([empty.status, empty.body.code]).toEqual([400, 'MALFORMED_JSON']);
  });

  it('rejects a number the sponsor bank did not approve for the customer’s NIT, with its own code', async () => {
    const [own, foreign, unknown] = accountNumbers(3);
    const customer = await linkedCustomer(api, tokenA, { numbers: [own!] });
    // Approved, but for another merchant.
    await linkedCustomer(api, tokenA, { numbers: [foreign!] });
    for (const number of [foreign!, unknown!]) {
      const answer = await linkAccount(api, tokenA, customer.id, number);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('ACCOUNT_NOT_APPROVED');
    }
  });
});

describe('the customer of the account', () => {
  it('unknown: 404', async () => {
    const answer = await linkAccount(api, tokenA, '7d7c5a1e-0000-4000-8000-000000000000', '000100200301');
    expect([answer.status, answer.body.code]).toEqual([404, 'NOT_FOUND']);
  });

  it("another client's: 403, without its data", async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    const answer = await linkAccount(api, tokenB, customer.id, number!);
    expect([answer.status, answer.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(answer.text).not.toContain(customer.nit);
  });

  it('inactive: 400 CUSTOMER_INACTIVE, and linking works again once it is active', async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    expect((await setStatus(api, tokenA, customer.id, 'INACTIVE')).status).toBe(200);
    const refused = await linkAccount(api, tokenA, customer.id, number!);
    expect([refused.status, refused.body.code]).toEqual([400, 'CUSTOMER_INACTIVE']);
    expect((await setStatus(api, tokenA, customer.id, 'ACTIVE')).status).toBe(200);
    expect((await linkAccount(api, tokenA, customer.id, number!)).status).toBe(200);
  });
});

describe('one account number per customer (409)', () => {
  it('answers 409 with the existing account id; no other client links the NIT or the number', async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    const first = await linkAccount(api, tokenA, customer.id, number!);
    const again = await linkAccount(api, tokenA, customer.id, number!, '/v1/accounts');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ACCOUNT_ALREADY_LINKED', account_id: first.body.id });

    // The NIT is approved for client A only (docs/onboarding.md): B cannot reach its accounts.
    const ofB = await api.request('POST', '/v1/customers/business/link', {
      token: tokenB,
      body: linkMerchantBody({ identification_number: customer.nit }),
    });
    expect([ofB.status, ofB.body.code]).toEqual([400, 'MERCHANT_NOT_APPROVED']);
  });

  it('creates exactly one account from concurrent links of one number', async () => {
    const [number] = accountNumbers(1);
    const customer = await linkedCustomer(api, tokenA, { numbers: [number!] });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        linkAccount(api, tokenA, customer.id, number!, i % 2 ? '/accounts' : '/v1/accounts'),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(9);
    for (const conflict of conflicts) {
      expect(conflict.body).toMatchObject({ code: 'ACCOUNT_ALREADY_LINKED', account_id: created[0]!.body.id });
    }
    const list = await api.request('GET', `/v1/accounts?customer_id=${customer.id}`, { token: tokenA });
    expect(list.body.pagination_info.total_elements).toBe(1);
    expect(list.body.accounts.map((a: { id: string }) => a.id)).toEqual([created[0]!.body.id]);
  });

  it('links every number of concurrent links of different numbers, and counts them all', async () => {
    const numbers = accountNumbers(10);
    const customer = await linkedCustomer(api, tokenA, { numbers });
    const answers = await Promise.all(numbers.map((number) => linkAccount(api, tokenA, customer.id, number)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const list = await api.request('GET', `/v1/accounts?customer_id=${customer.id}&page_size=100`, { token: tokenA });
    expect(list.body.pagination_info.total_elements).toBe(10);
    expect(new Set(list.body.accounts.map((a: { account_number: string }) => a.account_number))).toEqual(
      new Set(numbers),
    );
  });
});
