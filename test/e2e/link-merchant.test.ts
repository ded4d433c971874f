/**
 * POST /v1/customers/business/link and GET /v1/customers/{id} through the real local server, with
 * tokens from its token endpoint.
 */
import { linkMerchantBody, SANDBOX_NIT, uniqueNit } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/local-api';

const LINK = '/v1/customers/business/link';
let api: TestApi;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(() => api.stop());

/** A NIT the sponsor bank approved for `token`'s client, under the name linkMerchantBody gives. */
async function approvedNit(token = tokenA): Promise<string> {
  const nit = uniqueNit();
  const answer = await api.request('POST', '/sandbox/sponsor-bank/merchants', {
    token,
    body: { identification_type: 'NIT', identification_number: nit, business_name: linkMerchantBody().business_name },
  });
  expect(answer.status).toBe(201);
  return nit;
}

describe('linking a merchant', () => {
  it("answers the contract's customer object, with the phone normalised to +57", async () => {
    const nit = await approvedNit();
    const body = linkMerchantBody({ identification_number: nit });
    const answer = await api.request('POST', LINK, { token: tokenA, body });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const { id, created_at, updated_at, ...echo } = answer.body;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(updated_at).toBe(created_at);
    expect(echo).toEqual({ ...body, status: 'ACTIVE', mobile_phone_number: '+573001234567' });
  });

  it.each([
    ['3001234567', '+573001234567'],
    ['573001234567', '+573001234567'],
    ['+573001234567', '+573001234567'],
    ['+14155552671', '+14155552671'],
  ])('accepts the phone %s and answers %s', async (sent, answered) => {
    const nit = await approvedNit();
    const answer = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit, mobile_phone_number: sent }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.mobile_phone_number).toBe(answered);
  });

  it('reads the customer back, for its own client only', async () => {
    const nit = await approvedNit();
    const linked = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit }),
    });

    const own = await api.request('GET', `/v1/customers/${linked.body.id}`, { token: tokenA });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(linked.body);

    const readonly = await api.request('GET', `/v1/customers/${linked.body.id}`, {
      token: await api.token('sandbox-client-readonly'),
    });
    expect(readonly.status).toBe(403);
    expect(readonly.body.code).toBe('FORBIDDEN');

    const other = await api.request('GET', `/v1/customers/${linked.body.id}`, { token: tokenB });
    expect(other.status).toBe(403);
    expect(other.headers.get('content-type')).toBe('application/problem+json');
    expect(other.body.code).toBe('FORBIDDEN');
    expect(other.text).not.toContain(nit);
    expect(other.text).not.toContain('esperanza');
  });

  it('answers 404 for an unknown customer', async () => {
    const answer = await api.request('GET', '/v1/customers/7d7c5a1e-0000-4000-8000-000000000000', { token: tokenA });
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      title: expect.any(String),
      detail: expect.any(String),
    });
    expect(answer.body.request_id).toBe(answer.headers.get('x-request-id'));
  });
});

describe('rules of the link request (400)', () => {
  const address = linkMerchantBody().address;
  it.each<[string, Record<string, unknown>, string]>([
    ['type other than BUSINESS', { type: 'PERSON' }, 'type'],
    ['identification_type other than NIT', { identification_type: 'CC' }, 'identification_type'],
    ['identification_number of 8 digits', { identification_number: '90012345' }, 'identification_number'],
    ['identification_number of 10 digits', { identification_number: '9001234567' }, 'identification_number'],
    ['identification_number with a letter', { identification_number: '90012345A' }, 'identification_number'],
    ['empty business_name', { business_name: '' }, 'business_name'],
    ['business_name of 141 characters', { business_name: 'x'.repeat(141) }, 'business_name'],
    ['email of 36 characters', { email: `${'a'.repeat(24)}@example.com` }, 'email'],
    ['email that is not an address', { email: 'not-an-email' }, 'email'],
    ['merchant_category_code of 3 digits', { merchant_category_code: '541' }, 'merchant_category_code'],
    ['merchant_category_code with letters', { merchant_category_code: '54A1' }, 'merchant_category_code'],
    ['phone of 16 digits', { mobile_phone_number: '+5730012345678901' }, 'mobile_phone_number'],
    ['phone with letters', { mobile_phone_number: '300-123-4567' }, 'mobile_phone_number'],
    ['10-digit phone after +57 broken', { mobile_phone_number: '+57300123456' }, 'mobile_phone_number'],
    ['country other than CO', { address: { ...address, country: 'PE' } }, 'address.country'],
    ['address without city', { address: { ...address, city: undefined } }, 'address.city'],
    ['address without line_1', { address: { ...address, line_1: undefined } }, 'address.line_1'],
    ['address without state', { address: { ...address, state: undefined } }, 'address.state'],
    ['address without post_code', { address: { ...address, post_code: undefined } }, 'address.post_code'],
    ['an unknown field', { nickname: 'tiendita' }, 'nickname'],
    ['an unknown address field', { address: { ...address, zip_code: '110111' } }, 'address.zip_code'],
    ['a missing email', { email: undefined }, 'email'],
  ])('rejects %s', async (_, overrides, field) => {
    const answer = await api.request('POST', LINK, { token: tokenA, body: linkMerchantBody(overrides) });
    expect(answer.status).toBe(400);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(answer.body.code).toBe('VALIDATION_FAILED');
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field }));
  });

  it('reports every violation at once', async () => {
    const answer = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ type: 'PERSON', email: 'x', address: { ...address, country: 'PE', city: undefined } }),
    });
    expect(answer.status).toBe(400);
    const fields = (answer.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['address.city', 'address.country', 'email', 'type']);
  });

  it('rejects a NIT the sponsor bank has not approved with its own code', async () => {
    const answer = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: '811111111' }),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('MERCHANT_NOT_APPROVED');
  });

  it('rejects malformed JSON (400), a non-JSON body (415) and a body over 64 KiB (413)', async () => {
    const malformed = await api.request('POST', LINK, {
      token: tokenA,
      rawBody: '{"type": "BUSINESS",',
      headers: { 'content-type': 'application/json' },
    });
    expect([malformed.status, malformed.body.code]).toEqual([400, 'MALFORMED_JSON']);

    const text = await api.request('POST', LINK, {
      token: tokenA,
      rawBody: 'type=BUSINESS',
      headers: { 'content-type': 'text/plain' },
    });
    expect([text.status, text.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);

    const empty = await api.request('POST', LINK, { token: tokenA, headers: { 'content-type': 'application/json' } });
    expect([empty.status, empty.body.code]).toEqual([400, 'MALFORMED_JSON']);

    const huge = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ business_name: 'x'.repeat(70_000) }),
    });
    expect([huge.status, huge.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
  });

  it('rejects unknown query parameters', async () => {
    const answer = await api.request('POST', `${LINK}?debug=1`, { token: tokenA, body: linkMerchantBody() });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field: 'debug' }));
  });
});

describe('one customer per NIT and client (409)', () => {
  it("answers 409 with the existing customer id; another client gets an unknown NIT's answer", async () => {
    const nit = await approvedNit();
    const first = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit }),
    });
    const again = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit, email: 'otro@esperanza.co' }),
    });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'CUSTOMER_ALREADY_LINKED', customer_id: first.body.id });

    // The NIT is approved for client A only (docs/onboarding.md).
    const otherClient = await api.request('POST', LINK, {
      token: tokenB,
      body: linkMerchantBody({ identification_number: nit }),
    });
    expect(otherClient.status).toBe(400);
    expect(otherClient.body.code).toBe('MERCHANT_NOT_APPROVED');
  });

  it('creates exactly one customer from concurrent requests for one NIT', async () => {
    const nit = await approvedNit();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.request('POST', LINK, { token: tokenA, body: linkMerchantBody({ identification_number: nit }) }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    const conflicts = answers.filter((a) => a.status === 409);
    expect(created).toHaveLength(1);
    expect(conflicts).toHaveLength(9);
    for (const conflict of conflicts) expect(conflict.body.customer_id).toBe(created[0]!.body.id);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, without a second customer', async () => {
    const nit = await approvedNit();
    const body = linkMerchantBody({ identification_number: nit });
    const headers = { 'idempotency-key': `link-${nit}` };
    const first = await api.request('POST', LINK, { token: tokenA, body, headers });
    const replay = await api.request('POST', LINK, { token: tokenA, body, headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('answers 409 when the key comes back with another body', async () => {
    const nit = await approvedNit();
    const headers = { 'idempotency-key': `reuse-${nit}` };
    await api.request('POST', LINK, { token: tokenA, body: linkMerchantBody({ identification_number: nit }), headers });
    const other = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit, email: 'b@b.co' }),
      headers,
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps keys apart per client', async () => {
    const nit = await approvedNit();
    const nitOfB = await approvedNit(tokenB);
    const headers = { 'idempotency-key': `shared-key-${nit}` };
    const a = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody({ identification_number: nit }),
      headers,
    });
    const b = await api.request('POST', LINK, {
      token: tokenB,
      body: linkMerchantBody({ identification_number: nitOfB }),
      headers,
    });
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.body.id).not.toBe(a.body.id);
  });

  it('gives concurrent retries of one key the same single answer', async () => {
    const nit = await approvedNit();
    const body = linkMerchantBody({ identification_number: nit });
    const headers = { 'idempotency-key': `race-${nit}` };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.request('POST', LINK, { token: tokenA, body, headers })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
  });

  it('rejects a malformed key', async () => {
    const answer = await api.request('POST', LINK, {
      token: tokenA,
      body: linkMerchantBody(),
      headers: { 'idempotency-key': 'x'.repeat(256) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toContainEqual(expect.objectContaining({ field: 'Idempotency-Key' }));
  });
});

describe('the sandbox fixtures', () => {
  it('has the sandbox merchant approved', async () => {
    const answer = await api.request('POST', LINK, {
      token: tokenB,
      body: linkMerchantBody({ identification_number: SANDBOX_NIT }),
    });
    expect(answer.status).toBe(200);
  });
});
