/**
 * Bre-B keys and key resolution (issue 4) through the real local server: registration rules and
 * conflicts (also concurrent), the status machine, lists, resolution of our keys and the sandbox's,
 * and stored resolutions.
 */
import { stages } from '../../infra/stages';
import { accountNumbers, linkAccount, linkedCustomer, queryString, setStatus, walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';

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

let counter = 0;
const phone = (): string => `31${String(process.pid % 10000).padStart(4, '0')}${String(++counter).padStart(4, '0')}`;
const alpha = (): string => `@key${process.pid % 10000}x${++counter}`;

interface Merchant {
  readonly customerId: string;
  readonly accountId: string;
  readonly nit: string;
  readonly businessName: string;
}

async function merchant(token = tokenA): Promise<Merchant> {
  const [number] = accountNumbers(1);
  const customer = await linkedCustomer(api, token, { numbers: [number!] });
  const account = await linkAccount(api, token, customer.id, number!);
  expect(account.status).toBe(200);
  return {
    customerId: customer.id,
    accountId: account.body.id,
    nit: customer.nit,
    businessName: customer.body.business_name,
  };
}

const register = (
  token: string,
  accountId: string,
  key_type: string,
  key_value: string,
  extra = {},
): Promise<ApiAnswer> =>
  api.request('POST', '/v1/keys', { token, body: { account_id: accountId, key: { key_type, key_value }, ...extra } });

const resolve = (token: string, customerId: string, key: Record<string, string>): Promise<ApiAnswer> =>
  api.request('POST', '/v1/resolve-key', { token, body: { customer_id: customerId, key } });

describe('registering a key', () => {
  it('answers the key object, PHONE normalised, display_name defaulting to the business name', async () => {
    const m = await merchant();
    const value = phone();
    const answer = await register(tokenA, m.accountId, 'PHONE', `+57${value}`);
    expect(answer.status).toBe(200);
    const { id, created_at, updated_at, ...rest } = answer.body;
    expect(id).toMatch(UUID);
    expect(created_at).toMatch(TIMESTAMP);
    expect(updated_at).toBe(created_at);
    expect(rest).toEqual({
      status: 'ACTIVE',
      key: { key_type: 'PHONE', key_value: value },
      account_id: m.accountId,
      customer_id: m.customerId,
      display_name: m.businessName,
    });

    const read = await api.request('GET', `/v1/keys/${id}`, { token: tokenA });
    expect([read.status, read.body]).toEqual([200, answer.body]);
    expectProblem(await api.request('GET', `/v1/keys/${id}`, { token: tokenB }), 403, 'FORBIDDEN');
    expectProblem(await api.request('GET', `/v1/keys/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  it('stores EMAIL lower-cased and compares it without case; keeps display_name', async () => {
    const m = await merchant();
    const email = `Pagos.${++counter}@Tienda.CO`;
    const answer = await register(tokenA, m.accountId, 'EMAIL', email, { display_name: 'Caja 1' });
    expect(answer.status).toBe(200);
    expect(answer.body.key).toEqual({ key_type: 'EMAIL', key_value: email.toLowerCase() });
    expect(answer.body.display_name).toBe('Caja 1');
    expectProblem(await register(tokenA, m.accountId, 'EMAIL', email.toUpperCase()), 409, 'KEY_ALREADY_REGISTERED');
  });

  it('takes an ID key only equal to the owner identification number', async () => {
    const m = await merchant();
    const wrong = await register(tokenA, m.accountId, 'ID', '123456789');
    expectProblem(wrong, 400, 'VALIDATION_FAILED');
    expect(wrong.body.errors[0].field).toBe('key.key_value');
    expect((await register(tokenA, m.accountId, 'ID', m.nit)).status).toBe(200);
  });

  it('rejects values not of their type format (400)', async () => {
    const m = await merchant();
    for (const [type, value] of [
      ['PHONE', '2001234567'],
      ['EMAIL', 'no-at-sign'],
      ['ALPHA', 'abcde'],
      ['BCODE', '1234567890'],
      ['ID', '1.234'],
    ]) {
      const answer = await register(tokenA, m.accountId, type!, value!);
      expectProblem(answer, 400, 'VALIDATION_FAILED');
    }
    expectProblem(await register(tokenA, m.accountId, 'OTHER', '123'), 400, 'VALIDATION_FAILED');
    expectProblem(
      await api.request('POST', '/v1/keys', {
        token: tokenA,
        body: { account_id: m.accountId, key: { key_type: 'PHONE' } },
      }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('needs the client own account (403), a known one (404), and an ACTIVE customer (400)', async () => {
    const m = await merchant();
    expectProblem(await register(tokenB, m.accountId, 'ALPHA', alpha()), 403, 'FORBIDDEN');
    expectProblem(await register(tokenA, UNKNOWN, 'ALPHA', alpha()), 404, 'NOT_FOUND');
    expect((await setStatus(api, tokenA, m.customerId, 'INACTIVE')).status).toBe(200);
    expectProblem(await register(tokenA, m.accountId, 'ALPHA', alpha()), 400, 'CUSTOMER_INACTIVE');
  });

  it('refuses a value registered anywhere in the directory: another client, or the sandbox (409)', async () => {
    const a = await merchant(tokenA);
    const b = await merchant(tokenB);
    const value = alpha();
    expect((await register(tokenA, a.accountId, 'ALPHA', value)).status).toBe(200);
    expectProblem(await register(tokenB, b.accountId, 'ALPHA', value), 409, 'KEY_ALREADY_REGISTERED');
    expectProblem(await register(tokenB, b.accountId, 'PHONE', '573001234567'), 409, 'KEY_ALREADY_REGISTERED');
    expectProblem(await register(tokenB, b.accountId, 'BCODE', '0012345678'), 409, 'KEY_ALREADY_REGISTERED');
  });

  it('lets exactly one of 10 concurrent registrations of one value win', async () => {
    const merchants = await Promise.all(Array.from({ length: 5 }, (_, i) => merchant(i % 2 ? tokenB : tokenA)));
    const value = phone();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const m = merchants[i % merchants.length]!;
        return register((i % merchants.length) % 2 ? tokenB : tokenA, m.accountId, 'PHONE', value);
      }),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, ...Array(9).fill(409)]);
    for (const answer of answers.filter((a) => a.status === 409))
      expect(answer.body.code).toBe('KEY_ALREADY_REGISTERED');
  });

  it('is refused to a token without breb/keys.write (403)', async () => {
    const m = await merchant();
    expectProblem(await register(readonly, m.accountId, 'ALPHA', alpha()), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('the key status machine', () => {
  it('suspends (no resolution), activates (resolves again), deletes (value free, no resolution)', async () => {
    const m = await merchant();
    const value = alpha();
    const key = await register(tokenA, m.accountId, 'ALPHA', value);
    const id = key.body.id;
    expect((await resolve(tokenA, m.customerId, { key_value: value })).status).toBe(200);

    const suspended = await api.request('PATCH', `/v1/keys/${id}/suspend`, { token: tokenA });
    expect([suspended.status, suspended.body.status]).toEqual([200, 'SUSPENDED']);
    expect(suspended.body.updated_at > key.body.updated_at).toBe(true);
    expectProblem(await resolve(tokenA, m.customerId, { key_value: value }), 404, 'KEY_NOT_FOUND');
    // Suspended keys keep their value.
    expectProblem(await register(tokenA, m.accountId, 'ALPHA', value), 409, 'KEY_ALREADY_REGISTERED');
    // Suspending again changes nothing.
    const again = await api.request('PATCH', `/v1/keys/${id}/suspend`, { token: tokenA });
    expect([again.status, again.body]).toEqual([200, suspended.body]);

    const activated = await api.request('PATCH', `/v1/keys/${id}/activate`, { token: tokenA });
    expect([activated.status, activated.body.status]).toEqual([200, 'ACTIVE']);
    expect((await resolve(tokenA, m.customerId, { key_type: 'ALPHA', key_value: value })).status).toBe(200);

    expectProblem(await api.request('DELETE', `/v1/keys/${id}`, { token: tokenB }), 403, 'FORBIDDEN');
    const deleted = await api.request('DELETE', `/v1/keys/${id}`, { token: tokenA });
    expect([deleted.status, deleted.body.status]).toEqual([200, 'DELETED']);
    expectProblem(await resolve(tokenA, m.customerId, { key_value: value }), 404, 'KEY_NOT_FOUND');
    expect((await api.request('GET', `/v1/keys/${id}`, { token: tokenA })).body.status).toBe('DELETED');

    for (const [method, path] of [
      ['PATCH', `/v1/keys/${id}/activate`],
      ['PATCH', `/v1/keys/${id}/suspend`],
      ['DELETE', `/v1/keys/${id}`],
    ]) {
      const answer = await api.request(method!, path!, { token: tokenA });
      expectProblem(answer, 409, 'KEY_STATUS_CONFLICT');
      expect(answer.body.key_status).toBe('DELETED');
    }

    // The value is free again, for any client.
    const b = await merchant(tokenB);
    const reused = await register(tokenB, b.accountId, 'ALPHA', value);
    expect(reused.status).toBe(200);
    const resolved = await resolve(tokenA, m.customerId, { key_value: value });
    expect(resolved.body.owner.identification_number).toBe(b.nit);
  });

  it('answers 404 for unknown keys and 403 for another client', async () => {
    const m = await merchant();
    const key = await register(tokenA, m.accountId, 'ALPHA', alpha());
    expectProblem(await api.request('PATCH', `/v1/keys/${key.body.id}/suspend`, { token: tokenB }), 403, 'FORBIDDEN');
    expectProblem(await api.request('PATCH', `/v1/keys/${UNKNOWN}/activate`, { token: tokenA }), 404, 'NOT_FOUND');
    expectProblem(await api.request('DELETE', `/v1/keys/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  it('activates a key only while its customer is ACTIVE', async () => {
    const m = await merchant();
    const key = await register(tokenA, m.accountId, 'ALPHA', alpha());
    await api.request('PATCH', `/v1/keys/${key.body.id}/suspend`, { token: tokenA });
    await setStatus(api, tokenA, m.customerId, 'INACTIVE');
    expectProblem(
      await api.request('PATCH', `/v1/keys/${key.body.id}/activate`, { token: tokenA }),
      400,
      'CUSTOMER_INACTIVE',
    );
  });
});

describe('listing keys', () => {
  it('filters by customer_id, account_id, key_type and status, with the shared pagination', async () => {
    // A client of its own for this test: client B's keys are only the ones created here and above.
    const first = await merchant(tokenB);
    const second = await merchant(tokenB);
    const created = [
      await register(tokenB, first.accountId, 'ALPHA', alpha()),
      await register(tokenB, first.accountId, 'PHONE', phone()),
      await register(tokenB, first.accountId, 'ID', first.nit),
      await register(tokenB, second.accountId, 'ALPHA', alpha()),
      await register(tokenB, second.accountId, 'EMAIL', `caja${++counter}@tienda.co`),
    ].map((answer) => answer.body) as any[];
    await api.request('PATCH', `/v1/keys/${created[1].id}/suspend`, { token: tokenB });

    const ids = async (query: Record<string, string>) =>
      (await walkAll(api, tokenB, '/v1/keys', 'keys', { page_size: 2, ...query })).items.map((k: any) => k.id).sort();

    expect(await ids({ customer_id: first.customerId })).toEqual([created[0].id, created[1].id, created[2].id].sort());
    expect(await ids({ account_id: second.accountId })).toEqual([created[3].id, created[4].id].sort());
    const alphas = await ids({ key_type: 'ALPHA', customer_id: second.customerId });
    expect(alphas).toEqual([created[3].id]);
    expect(await ids({ status: 'SUSPENDED', customer_id: first.customerId })).toEqual([created[1].id]);

    const page = await api.request('GET', `/v1/keys${queryString({ customer_id: first.customerId, page_size: 2 })}`, {
      token: tokenB,
    });
    expect(page.status).toBe(200);
    expect(page.body.keys).toHaveLength(2);
    expect(page.body.pagination_info).toMatchObject({ total_elements: 3, total_pages: 2, current_page: 1 });
    expect(page.body.keys[0]).toEqual(created[0]);

    const own = await api.request('GET', '/v1/keys?page_size=100', { token: tokenA });
    expect(own.body.keys.some((k: any) => created.some((c) => c.id === k.id))).toBe(false);
    // The read-only client can list.
    expect((await api.request('GET', '/v1/keys', { token: readonly })).status).toBe(200);
  });

  it('rejects bad filters (400)', async () => {
    for (const query of ['?key_type=FOO', '?status=GONE', '?customer_id=nope', '?unknown=1', '?page_size=0']) {
      expectProblem(await api.request('GET', `/v1/keys${query}`, { token: tokenA }), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('resolving a key', () => {
  const ANA_OWNER = {
    identification_type: 'CC',
    identification_number: '1020304050',
    type: 'PERSON',
    first_name: 'Ana',
    second_name: 'María',
    first_last_name: 'Gómez',
    second_last_name: 'Pérez',
  };

  it('resolves each sandbox fixture, inferring its type, and stores the resolution', async () => {
    const m = await merchant();
    for (const [key_type, key_value, sent] of [
      ['PHONE', '3001234567', '+573001234567'],
      ['EMAIL', 'ana.gomez@example.com', 'Ana.Gomez@Example.com'],
      ['ALPHA', '@anagomez1', '@anagomez1'],
      ['ID', '1020304050', '1020304050'],
    ]) {
      const answer = await resolve(tokenA, m.customerId, { key_value: sent! });
      expect(answer.status).toBe(200);
      const { id, resolved_at, ...rest } = answer.body;
      expect(id).toMatch(UUID);
      expect(resolved_at).toMatch(TIMESTAMP);
      expect(rest).toEqual({
        customer_id: m.customerId,
        key: { key_type, key_value },
        owner: ANA_OWNER,
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: expect.any(String), account_type: expect.any(String) },
      });
      const stored = await api.request('GET', `/v1/resolutions/${id}`, { token: tokenA });
      expect([stored.status, stored.body]).toEqual([200, answer.body]);
      expectProblem(await api.request('GET', `/v1/resolutions/${id}`, { token: tokenB }), 403, 'FORBIDDEN');
    }
    const bcode = await resolve(tokenA, m.customerId, { key_value: '0012345678' });
    expect(bcode.body.key).toEqual({ key_type: 'BCODE', key_value: '0012345678' });
    expect(bcode.body.owner).toMatchObject({ type: 'BUSINESS', identification_type: 'NIT' });
    expect(bcode.body.owner.first_name).toBeUndefined();
    expectProblem(await api.request('GET', `/v1/resolutions/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  it('resolves a key of client A for client B: our merchant, our sponsor bank', async () => {
    const a = await merchant(tokenA);
    const b = await merchant(tokenB);
    const value = phone();
    await register(tokenA, a.accountId, 'PHONE', value);
    const answer = await resolve(tokenB, b.customerId, { key_type: 'PHONE', key_value: `57${value}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      customer_id: b.customerId,
      key: { key_type: 'PHONE', key_value: value },
      owner: {
        identification_type: 'NIT',
        identification_number: a.nit,
        type: 'BUSINESS',
        business_name: a.businessName,
      },
      participant: { name: stages.local.participant.name, identification_number: stages.local.participant.nit },
      account: { account_type: 'ORDINARY' },
    });
    expect(Object.keys(answer.body.owner).sort()).toEqual(
      ['business_name', 'identification_number', 'identification_type', 'type'].sort(),
    );
    expect(answer.text).not.toContain(a.customerId);
    expect(answer.text).not.toContain(a.accountId);
  });

  it('answers 400 for bad formats, 403/404 for the customer, 404 KEY_NOT_FOUND for an unknown key', async () => {
    const m = await merchant();
    for (const key of [
      { key_value: '1.020.304' },
      { key_value: '' },
      { key_type: 'PHONE', key_value: '0012345678' },
      { key_type: 'ALPHA', key_value: '@ab' },
      { key_value: '@ab' },
      { key_type: 'EMAIL', key_value: 'ana' },
    ]) {
      expectProblem(await resolve(tokenA, m.customerId, key as Record<string, string>), 400, 'VALIDATION_FAILED');
    }
    expectProblem(
      await api.request('POST', '/v1/resolve-key', { token: tokenA, body: { customer_id: m.customerId } }),
      400,
      'VALIDATION_FAILED',
    );
    expectProblem(await resolve(tokenB, m.customerId, { key_value: '3001234567' }), 403, 'FORBIDDEN');
    expectProblem(await resolve(tokenA, UNKNOWN, { key_value: '3001234567' }), 404, 'NOT_FOUND');
    expectProblem(await resolve(tokenA, m.customerId, { key_value: '3009999999' }), 404, 'KEY_NOT_FOUND');
    // The type is part of the key: the sandbox PHONE is not an ID.
    expectProblem(
      await resolve(tokenA, m.customerId, { key_type: 'ID', key_value: '3001234567' }),
      404,
      'KEY_NOT_FOUND',
    );
  });

  it("is closed to the read-only client: resolving is paying's first step (breb/keys.resolve)", async () => {
    const m = await merchant();
    expectProblem(await resolve(readonly, m.customerId, { key_value: '3001234567' }), 403, 'INSUFFICIENT_SCOPE');
  });

  it("resolves for the client's own customers only", async () => {
    const m = await merchant();
    expectProblem(await resolve(tokenB, m.customerId, { key_value: '3001234567' }), 403, 'FORBIDDEN');
  });
});

describe('the sandbox directory', () => {
  const body = (key_value: string) => ({
    key: { key_type: 'ALPHA', key_value },
    owner: {
      identification_type: 'NIT',
      identification_number: '900777888',
      type: 'BUSINESS',
      business_name: 'Ferretería Sur',
    },
    participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
    account: { account_number: '7001002003', account_type: 'CHECKING' },
  });

  it('adds a key (201) that resolves, and refuses a taken value (409)', async () => {
    const value = alpha();
    const added = await api.request('POST', '/sandbox/directory/keys', { token: tokenB, body: body(value) });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject(body(value));
    expectProblem(
      await api.request('POST', '/sandbox/directory/keys', { token: tokenA, body: body(value) }),
      409,
      'KEY_ALREADY_REGISTERED',
    );
    const m = await merchant();
    expectProblem(await register(tokenA, m.accountId, 'ALPHA', value), 409, 'KEY_ALREADY_REGISTERED');
    const resolved = await resolve(tokenA, m.customerId, { key_value: value });
    expect(resolved.body).toMatchObject({ owner: body(value).owner, account: body(value).account });
  });

  it('validates the owner and the key (400)', async () => {
    const noName = body(alpha());
    const { business_name: _name, ...owner } = noName.owner;
    expectProblem(
      await api.request('POST', '/sandbox/directory/keys', { token: tokenA, body: { ...noName, owner } }),
      400,
      'VALIDATION_FAILED',
    );
    expectProblem(
      await api.request('POST', '/sandbox/directory/keys', { token: tokenA, body: body('no-at') }),
      400,
      'VALIDATION_FAILED',
    );
  });
});
