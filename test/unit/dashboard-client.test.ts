/**
 * The dashboard's client of the API, outside the browser: what a call sends (the token of the
 * moment, the path, the query, the body, the Idempotency-Key), a refusal for the rate waited out and
 * sent again, how a refusal or a failed network becomes the ApiProblem the pages show, and the claims
 * it reads from a person's token.
 */
import { afterEach, jest } from '@jest/globals';
import { ApiProblem, createApi } from '../../dashboard/src/api';
import { decodeJwtClaims } from '../../dashboard/src/token-claims';

const BASE = 'http://api.test';

/** fetch answers `answer` (or fails as `fetch` does with no answer); the requests are kept. */
function fetchAnswering(answer: () => Response | Promise<Response>): Request[] {
  const requests: Request[] = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    requests.push(input as Request);
    return answer();
  });
  return requests;
}

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the API client', () => {
  test('a call sends the token of the moment and the typed path, query and body', async () => {
    const requests = fetchAnswering(() => json(200, { id: 'w1', enabled: false }));
    let token = 'first';
    const api = createApi(BASE, () => token);

    await api.listQrCodes({ page_number: 2, page_size: 10, status: 'ACTIVE', key_id: undefined });
    token = 'second';
    const webhook = await api.setWebhookEnabled('a/b', false);

    expect(webhook).toEqual({ id: 'w1', enabled: false });
    const [list, patch] = requests;
    expect(list!.method).toBe('GET');
    expect(list!.url).toBe(`${BASE}/v1/qrcodes?page_number=2&page_size=10&status=ACTIVE`);
    expect(list!.headers.get('authorization')).toBe('Bearer first');
    expect(list!.headers.get('content-type')).toBeNull();
    expect(patch!.method).toBe('PATCH');
    // An id is one path segment, whatever it holds.
    expect(patch!.url).toBe(`${BASE}/v1/webhooks/a%2Fb`);
    expect(patch!.headers.get('authorization')).toBe('Bearer second');
    expect(patch!.headers.get('content-type')).toBe('application/json');
    expect(await patch!.json()).toEqual({ enabled: false });
  });

  test('a POST carries its Idempotency-Key', async () => {
    const requests = fetchAnswering(() => json(200, { id: 'p1' }));
    await createApi(BASE, () => 't').payQrCodeInSandbox('q1', '15000.00', 'key-1');
    expect(requests[0]!.url).toBe(`${BASE}/sandbox/qrcodes/q1/pay`);
    expect(requests[0]!.headers.get('idempotency-key')).toBe('key-1');
    expect(await requests[0]!.json()).toEqual({ amount: { value: '15000.00', currency: 'COP' } });
  });

  test("a refusal for the person's rate is waited out as Retry-After asks, and sent again the same", async () => {
    let answers = 0;
    const requests = fetchAnswering(() =>
      (answers += 1) === 1
        ? new Response(JSON.stringify({ status: 429, code: 'RATE_LIMITED' }), {
            status: 429,
            headers: { 'content-type': 'application/problem+json', 'retry-after': '1' },
          })
        : json(200, { id: 'p1' }),
    );
    const started = Date.now();
    const paid = await createApi(BASE, () => 't').payQrCodeInSandbox('q1', '15000.00', 'key-1');
    expect(paid).toEqual({ id: 'p1' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    // The same call again: the same key, the same body.
    expect(requests.map((request) => request.headers.get('idempotency-key'))).toEqual(['key-1', 'key-1']);
    expect(await requests[1]!.json()).toEqual({ amount: { value: '15000.00', currency: 'COP' } });
  });

  test("a refusal is an ApiProblem with the API's status, code, title, detail and field errors", async () => {
    const errors = [{ field: 'qr_code_reference', message: 'must be 1 to 17 letters or digits' }];
    fetchAnswering(() =>
      json(
        400,
        { status: 400, code: 'VALIDATION_FAILED', title: 'Bad Request', detail: 'The request is not valid', errors },
        'application/problem+json',
      ),
    );
    const refusal = await createApi(BASE, () => 't')
      .getQrCode('q1')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiProblem);
    expect(refusal).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      title: 'Bad Request',
      detail: 'The request is not valid',
      errors,
      message: 'The request is not valid',
    });
  });

  test.each([
    ['a text body', () => new Response('Forbidden', { status: 403, statusText: 'Forbidden' })],
    ['no body', () => new Response(null, { status: 403, statusText: 'Forbidden' })],
    ['JSON without a problem', () => json(403, { message: 'Forbidden' })],
  ])('a refusal with %s (a gateway on the way) still says its status', async (_case, answer) => {
    fetchAnswering(answer);
    const refusal = await createApi(BASE, () => 't')
      .deleteQrCode('q1')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiProblem);
    expect(refusal).toMatchObject({ status: 403, code: 'HTTP_403', detail: 'The API answered 403', errors: [] });
  });

  test('no answer at all is an ApiProblem of status 0 saying so', async () => {
    fetchAnswering(() => Promise.reject(new TypeError('Failed to fetch')));
    const refusal = await createApi(BASE, () => 't')
      .getPayment('p1')
      .catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiProblem);
    expect(refusal).toMatchObject({
      status: 0,
      code: 'NETWORK',
      detail: 'The API could not be reached: check the connection and retry.',
    });
  });
});

describe("a token's claims", () => {
  /** A JWT as an issuer writes it: base64url of the UTF-8 JSON, unpadded (the signature is not read). */
  const tokenWith = (claims: object) =>
    ['{"alg":"RS256"}', JSON.stringify(claims)].map((part) => Buffer.from(part).toString('base64url')).join('.') +
    '.signature';

  test('are read as UTF-8: names with accents and ñ come out as written', () => {
    const claims = { username: 'josé', name: 'Peña Ñúñez', tenant: 'tienda-bogotá', scope: 'qrcodes.read', exp: 1 };
    // A jti whose bytes make the payload use both of base64url's own characters, so both are turned back.
    const token = tokenWith({ ...claims, jti: '???>>>' });
    expect(token.split('.')[1]).toMatch(/-/);
    expect(token.split('.')[1]).toMatch(/_/);
    expect(decodeJwtClaims(token)).toEqual({ ...claims, jti: '???>>>' });
  });
});
