/**
 * The bounds of every request, generated from the route table and its samples: body size (64 KiB in
 * the functions, 10 MiB at the gateway), request line and headers (10,240 bytes, API Gateway's HTTP
 * API quota), every string field and query parameter bounded, ids that cannot exist, page sizes.
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { MAX_HEADER_BYTES } from '../../infra/local/server';
import { MAX_BODY_BYTES } from '../../shared/http/middlewares';
import { MAX_PAGE_SIZE } from '../../shared/schemas/bounds';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import {
  createParty,
  pathOf,
  queryOf,
  ROUTE_SAMPLES,
  sampleOf,
  sendSample,
  type Party,
} from '../support/route-samples';

let api: TestApi;
let party: Party;

beforeAll(async () => {
  api = await startTestApi();
  party = await createParty(api, 'sandbox-client-a');
});
afterAll(() => api.stop());

const LONG = 'x'.repeat(2_000);
const withBody = routes.filter((route) => ['POST', 'PATCH'].includes(route.method));
/** Routes with a resource id in their path; a day (`{date}`, a statement's, a reconciliation's) is no id. */
const withId = routes.filter((route) => /\{(?!date\})/.test(route.paths[0]!));
const withDayOnly = routes.filter((route) => route.paths[0]!.includes('{date}') && !withId.includes(route));
const lists = routes.filter((route) => ROUTE_SAMPLES[route.name]?.list);
const label = (route: RouteDefinition) => `${route.method} ${route.paths[0]}`;

/** Every string of a JSON value with its dotted path, as the API names fields in `errors`. */
function stringPaths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [prefix];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringPaths(item, `${prefix}.${i}`.replace(/^\./, '')));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => stringPaths(item, prefix ? `${prefix}.${key}` : key));
  }
  return [];
}

function withValueAt(body: unknown, path: string, replacement: unknown): unknown {
  const copy = structuredClone(body) as Record<string, any>;
  const steps = path.split('.');
  const parent = steps.slice(0, -1).reduce((node, step) => node[step], copy);
  parent[steps[steps.length - 1]!] = replacement;
  return copy;
}

describe('body size', () => {
  it.each(withBody.map((route) => [label(route), route] as const))(
    '%s: one byte over 64 KiB is 413 PAYLOAD_TOO_LARGE (a route without a body ignores one)',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      if (!request.body) {
        const ignored = await api.request(route.method, pathOf(route, request), { token: party.token, body: { x: 1 } });
        expect(ignored.status).toBeLessThan(300);
        return;
      }
      const json = JSON.stringify({ ...request.body, padding: '' });
      const body = `${json.slice(0, -2)}${'x'.repeat(MAX_BODY_BYTES + 1 - Buffer.byteLength(json))}"}`;
      expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES + 1);
      const answer = await api.request(route.method, `${pathOf(route, request)}${queryOf(request)}`, {
        token: party.token,
        rawBody: body,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(answer, 413, 'PAYLOAD_TOO_LARGE');
    },
  );

  it("is 413 past API Gateway's 10 MiB before any function runs", async () => {
    const answer = await api.request('POST', '/v1/customers/business/link', {
      token: party.token,
      rawBody: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20),
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(answer, 413, 'PAYLOAD_TOO_LARGE');
  });
});

describe('request line and headers', () => {
  const get = (headers: Record<string, string>) =>
    api.raw({
      method: 'GET',
      path: '/v1/customers',
      headers: { authorization: `Bearer ${party.token}`, ...headers },
    });

  it(`serves ${MAX_HEADER_BYTES - 1_500} bytes of headers`, async () => {
    const answer = await get({ 'x-padding': 'x'.repeat(MAX_HEADER_BYTES - 1_500 - party.token.length) });
    expect(answer.status).toBe(200);
  });

  it(`answers 431 HEADERS_TOO_LARGE past ${MAX_HEADER_BYTES} bytes, as problem+json`, async () => {
    const answer = await get({ 'x-padding': 'x'.repeat(MAX_HEADER_BYTES) });
    expectProblem(answer, 431, 'HEADERS_TOO_LARGE');
    expect(answer.headers.get('x-request-id')).toBe(answer.body.request_id);
  });

  it('counts many small headers and a long request line too', async () => {
    const many = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`x-h${i}`, 'y'.repeat(50)]));
    expectProblem(await get(many), 431, 'HEADERS_TOO_LARGE');
    const longLine = await api.raw({
      method: 'GET',
      path: `/v1/customers?identification_number=${'9'.repeat(MAX_HEADER_BYTES)}`,
      headers: { authorization: `Bearer ${party.token}` },
    });
    expectProblem(longLine, 431, 'HEADERS_TOO_LARGE');
  });
});

describe('string lengths', () => {
  it.each(withBody.map((route) => [label(route), route] as const))(
    '%s: every string field of the body refuses 2,000 characters, naming the field',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      for (const field of stringPaths(request.body ?? {})) {
        const answer = await sendSample(
          api,
          route,
          { ...request, body: withValueAt(request.body, field, LONG) as any },
          {
            token: party.token,
          },
        );
        expect({ field, status: answer.status, code: answer.body?.code }).toEqual({
          field,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
        expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      }
    },
  );

  it.each(lists.map((route) => [label(route), route] as const))(
    '%s: every query parameter refuses 2,000 characters',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      for (const name of Object.keys({ ...request.query, page_size: '', order_key: '', created_from: '' })) {
        const answer = await sendSample(
          api,
          route,
          { ...request, query: { ...request.query, [name]: LONG } },
          { token: party.token },
        );
        expect({ name, status: answer.status, code: answer.body?.code }).toEqual({
          name,
          status: 400,
          code: 'VALIDATION_FAILED',
        });
      }
    },
  );

  it.each(withId.map((route) => [label(route), route] as const))(
    '%s: an id of 2,000 characters is 404 NOT_FOUND',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      // Every id of the path (a delivery's and its webhook's) that long.
      const ids = Object.fromEntries(Object.keys(request.pathParameters ?? {}).map((name) => [name, LONG]));
      const answer = await sendSample(api, route, { ...request, pathParameters: ids }, { token: party.token });
      expectProblem(answer, 404, 'NOT_FOUND');
    },
  );

  it.each(withDayOnly.map((route) => [label(route), route] as const))(
    '%s: a day of 2,000 characters is 400 on date',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      const answer = await sendSample(
        api,
        route,
        { ...request, pathParameters: { date: LONG } },
        { token: party.token },
      );
      expectProblem(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.errors.map((error: { field: string }) => error.field)).toEqual(['date']);
    },
  );
});

describe('page size', () => {
  it.each(lists.map((route) => [label(route), route] as const))(
    `%s: 1 to ${MAX_PAGE_SIZE} items a page, 0 and ${MAX_PAGE_SIZE + 1} refused`,
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      const page = (size: number) =>
        sendSample(
          api,
          route,
          { ...request, query: { ...request.query, page_size: String(size) } },
          { token: party.token },
        );
      for (const size of [1, MAX_PAGE_SIZE]) expect((await page(size)).status).toBe(200);
      for (const size of [0, MAX_PAGE_SIZE + 1]) {
        const answer = await page(size);
        expectProblem(answer, 400, 'VALIDATION_FAILED');
        expect(answer.body.errors).toContainEqual(expect.objectContaining({ field: 'page_size' }));
      }
    },
  );
});
