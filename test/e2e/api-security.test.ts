/**
 * What the API itself enforces against the attacks of docs/security.md, black box through the real
 * local server with real tokens: a viewer's or the read-only client's token resolves no key and uses
 * no sandbox route; directory lookups run dry twenty times sooner on misses than on hits (429 with
 * Retry-After, nothing stored); a sandbox directory entry cannot squat the ID key of another tenant's
 * merchant nor pass for it; every answer carries nosniff and no-store.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { LOOKUP_BUDGET } from '../../shared/domain/lookup-budget';
import { accountNumbers, linkAccount, linkedCustomer } from '../support/accounts';
import { uniqueNit } from '../support/fixtures';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { personToken } from '../support/people';
import { SSRF_FORMS } from '../support/ssrf-forms';
import { expectProblem } from '../support/problems';

let api: TestApi;
let full: string;
let other: string;
let readOnly: string;
let viewer: string;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  full = await api.token('sandbox-client-a');
  other = await api.token('sandbox-client-b');
  readOnly = await api.token('sandbox-client-readonly');
  viewer = await personToken(api.url, 'viewer-a');
  admin = await personToken(api.url, 'merchant-admin-a');
});

afterAll(async () => {
  await api.stop();
});

/** The sandbox directory's Ana María Gómez Pérez: a hit for anyone (docs/keys.md). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const ANA = { identification_type: 'CC', identification_number: '1020304050' };
const ANY_ID = '00000000-0000-4000-8000-000000000000';

const sandboxEntry = (key: { key_type: string; key_value: string }, owner: Record<string, string>) => ({
  key,
  owner,
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
});
const PERSON = {
  identification_type: 'CC',
  identification_number: '79000111',
  type: 'PERSON',
  first_name: 'Eva',
  first_last_name: 'Ruiz',
};

/** Every route a viewer must not reach, with a body its schema takes. */
const PAYING_FIRST_STEPS: readonly [string, string, unknown][] = [
  ['POST', '/v1/resolve-key', { customer_id: ANY_ID, key: ANA_PHONE }],
  ['POST', '/v1/validate-key', { key: ANA_PHONE, ...ANA }],
  ['POST', `/sandbox/qrcodes/${ANY_ID}/pay`, {}],
  ['POST', '/sandbox/payments/inbound', { key: ANA_PHONE, amount: { value: '1000.00', currency: 'COP' } }],
  [
    'POST',
    '/sandbox/sponsor-bank/merchants',
    { identification_type: 'NIT', identification_number: '900999001', business_name: 'Viewer SAS', accounts: [] },
  ],
  ['POST', '/sandbox/directory/keys', sandboxEntry({ key_type: 'ALPHA', key_value: '@viewerkey' }, PERSON)],
  // A report is a file of every payment of a period with its payers' personal data: breb/reports.write.
  ['POST', '/v1/reports', { type: 'payments', created_from: '2026-01-01', created_to: '2026-01-31' }],
];

describe('who may resolve keys and use the sandbox', () => {
  test.each(PAYING_FIRST_STEPS)("a viewer's token: %s %s is 403 INSUFFICIENT_SCOPE", async (method, path, body) => {
    expectProblem(await api.request(method, path, { token: viewer, body }), 403, 'INSUFFICIENT_SCOPE', path);
  });

  test.each(PAYING_FIRST_STEPS)(
    "the read-only client's token: %s %s is 403 INSUFFICIENT_SCOPE",
    async (method, path, body) => {
      expectProblem(await api.request(method, path, { token: readOnly, body }), 403, 'INSUFFICIENT_SCOPE', path);
    },
  );

  test('the full client and an admin may resolve, validate and operate the sandbox', async () => {
    const customer = await linkedCustomer(api, full);
    for (const token of [full, admin]) {
      const resolved = await api.request('POST', '/v1/resolve-key', {
        token,
        body: { customer_id: customer.id, key: ANA_PHONE },
      });
      expect([resolved.status, resolved.body.owner?.identification_number]).toEqual([200, ANA.identification_number]);
      const validated = await api.request('POST', '/v1/validate-key', { token, body: { key: ANA_PHONE, ...ANA } });
      expect(validated.body).toEqual({ result: 'MATCH' });
    }
    const added = await api.request('POST', '/sandbox/directory/keys', {
      token: admin,
      body: sandboxEntry({ key_type: 'ALPHA', key_value: `@admin${process.pid}` }, PERSON),
    });
    expect(added.status).toBe(201);
  });
});

describe('anti-scanning: misses drain the lookup budget twenty times faster than hits', () => {
  /** Starts in a fresh part of the budget's window, so that no window ends in the middle of a test. */
  async function awayFromWindowEnd(): Promise<void> {
    const windowMs = LOOKUP_BUDGET.windowSeconds * 1000;
    const left = windowMs - (Date.now() % windowMs);
    if (left < 40_000) await sleep(left + 100);
  }
  const resolutionsOf = async (tenant: string): Promise<number> =>
    (await api.scan()).filter((item) => item['entity'] === 'RESOLUTION' && item['tenant'] === tenant).length;

  test("a client scanning for keys is refused after 30 misses, while another's hits go on", async () => {
    const scanner = await linkedCustomer(api, full);
    const payer = await linkedCustomer(api, other);
    const resolve = (token: string, customerId: string, key: object): Promise<ApiAnswer> =>
      api.request('POST', '/v1/resolve-key', { token, body: { customer_id: customerId, key } });
    const misses = LOOKUP_BUDGET.unitsPerWindow / LOOKUP_BUDGET.costs.miss;
    await awayFromWindowEnd();

    for (let n = 0; n < misses; n += 1) {
      expectProblem(
        await resolve(full, scanner.id, { key_type: 'ALPHA', key_value: `@nobody${n}x${process.pid}` }),
        404,
        'KEY_NOT_FOUND',
        `miss ${n}`,
      );
    }
    const refused = await resolve(full, scanner.id, { key_type: 'ALPHA', key_value: '@nobodyatall' });
    expectProblem(refused, 429, 'KEY_LOOKUPS_EXHAUSTED', 'past the budget');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(LOOKUP_BUDGET.windowSeconds);

    // Spent, even a hit is refused, its answer untold and no resolution stored; validating too.
    const before = await resolutionsOf('sandbox-client-a');
    const hitRefused = await resolve(full, scanner.id, ANA_PHONE);
    expectProblem(hitRefused, 429, 'KEY_LOOKUPS_EXHAUSTED', 'a hit once spent');
    expect(hitRefused.text).not.toContain(ANA.identification_number);
    expect(await resolutionsOf('sandbox-client-a')).toBe(before);
    const validation = await api.request('POST', '/v1/validate-key', { token: full, body: { key: ANA_PHONE, ...ANA } });
    expectProblem(validation, 429, 'KEY_LOOKUPS_EXHAUSTED', 'validate-key shares the budget');

    // The same number of lookups that hit costs the other tenant a twentieth of its budget.
    for (let n = 0; n <= misses; n += 1) expect((await resolve(other, payer.id, ANA_PHONE)).status).toBe(200);
    // Room for the wait for a fresh window (up to 40 s) besides the lookups themselves.
  }, 120_000);

  test('a refused lookup leaves its Idempotency-Key free for the retry', async () => {
    // The budget of sandbox-client-a is spent by the test above (same window).
    const customer = await linkedCustomer(api, full);
    const headers = { 'idempotency-key': `scan-${process.pid}` };
    const body = { customer_id: customer.id, key: ANA_PHONE };
    const first = await api.request('POST', '/v1/resolve-key', { token: full, body, headers });
    expectProblem(first, 429, 'KEY_LOOKUPS_EXHAUSTED', 'spent');
    const idempotencyRecords = (await api.scan()).filter((item) =>
      String(item['pk']).includes(headers['idempotency-key']),
    );
    expect(idempotencyRecords).toEqual([]);
  });
});

describe('the sandbox directory cannot squat what a merchant of another tenant needs', () => {
  test("an ID key of another tenant's merchant is 409, a NIT owner that is one is 400; the merchant's own registration succeeds", async () => {
    const [number] = accountNumbers(1) as [string];
    const merchant = await linkedCustomer(api, other, { numbers: [number] });
    const squat = await api.request('POST', '/sandbox/directory/keys', {
      token: full,
      body: sandboxEntry({ key_type: 'ID', key_value: merchant.nit }, PERSON),
    });
    expectProblem(squat, 409, 'KEY_ALREADY_REGISTERED', 'ID key of a merchant');
    const impostor = await api.request('POST', '/sandbox/directory/keys', {
      token: full,
      body: sandboxEntry(
        { key_type: 'ALPHA', key_value: `@impostor${process.pid}` },
        {
          identification_type: 'NIT',
          identification_number: merchant.nit,
          type: 'BUSINESS',
          business_name: 'Not Them SAS',
        },
      ),
    });
    expectProblem(impostor, 400, 'VALIDATION_FAILED', 'a NIT owner that is a merchant');

    const account = await linkAccount(api, other, merchant.id, number);
    expect(account.status).toBe(200);
    const registered = await api.request('POST', '/v1/keys', {
      token: other,
      body: { account_id: account.body.id, key: { key_type: 'ID', key_value: merchant.nit } },
    });
    expect(registered.status).toBe(200);
  });

  test('an ID key of nobody approved at the sponsor bank is added', async () => {
    const added = await api.request('POST', '/sandbox/directory/keys', {
      token: full,
      body: sandboxEntry({ key_type: 'ID', key_value: uniqueNit() }, PERSON),
    });
    expect(added.status).toBe(201);
  });
});

describe('SSRF: an approval callback reaches public addresses only', () => {
  test.each(SSRF_FORMS)('%s is 400 on callback_url, naming no address', async (_, url) => {
    const answer = await api.request('PUT', '/v1/settings/inbound-approval', {
      token: full,
      body: { callback_url: url, enabled: true },
    });
    expectProblem(answer, 400, 'VALIDATION_FAILED', url);
    expect(answer.body.errors).toEqual([
      { field: 'callback_url', message: expect.stringContaining('a non-public address') },
    ]);
    expect(answer.text).not.toMatch(/\d+\.\d+\.\d+\.\d+|[0-9a-f]+:[0-9a-f:]*:/i);
  });
});

describe('every answer carries nosniff and no-store', () => {
  const expectHeaders = (answer: ApiAnswer, what: string): void => {
    expect([what, answer.headers.get('x-content-type-options'), answer.headers.get('cache-control')]).toEqual([
      what,
      'nosniff',
      'no-store',
    ]);
  };

  test('a success, a refusal of the function, of the token, of the scope, of the router, and the token endpoint', async () => {
    expectHeaders(await api.request('GET', '/v1/customers', { token: full }), '200');
    expectHeaders(await api.request('GET', `/v1/customers/${ANY_ID}`, { token: full }), '404 of the function');
    expectHeaders(await api.request('GET', '/v1/customers'), '401');
    expectHeaders(await api.request('POST', '/v1/resolve-key', { token: viewer, body: {} }), '403');
    expectHeaders(await api.request('GET', '/v1/nothing-here', { token: full }), '404 of the router');
    expectHeaders(await api.request('DELETE', '/v1/customers', { token: full }), '405');
    const token = await fetch(new URL('/oauth2/token', api.url), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('sandbox-client-a:sandbox-secret-a').toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    expect([token.status, token.headers.get('x-content-type-options'), token.headers.get('cache-control')]).toEqual([
      200,
      'nosniff',
      'no-store',
    ]);
  });
});
