/**
 * Every route of the route table declares its contract (what the OpenAPI document says of it): a
 * summary, the schemas of its body, query string and success answer, by the names shared/schemas
 * exports them under, and the codes of its own rules. A route added without them fails here (and the
 * type check), so the document cannot leave a route out or guess at one. The handler must validate
 * with the validators generated from the very schemas its route names, and answer the status it
 * declares: the document says what the function does.
 */
import { readFileSync } from 'node:fs';
import { routes, type RouteDefinition } from '../../functions/routes';
import { handlerEntry } from '../../infra/paths';
import { ERROR_CATALOG, kindsOf } from '../../shared/domain/errors';
import { namedSchemas } from '../../tools/schema-modules';

const label = (route: RouteDefinition) => `${route.method} ${route.paths[0]} (${route.name})`;
const cases = routes.map((route) => [label(route), route] as const);

let schemas: ReadonlyMap<string, object>;
beforeAll(async () => {
  schemas = await namedSchemas();
});

describe.each(cases)('%s', (_label, route) => {
  test('declares a summary, its three schemas and its own problem codes', () => {
    expect(typeof route.summary).toBe('string');
    expect(route.summary.trim().length).toBeGreaterThan(10);
    expect(Object.keys(route.schemas ?? {}).sort()).toEqual(['body', 'query', 'response']);
    expect(Array.isArray(route.problems)).toBe(true);
  });

  test('names schemas that exist, each of its kind', () => {
    const { body, query, response } = route.schemas;
    if (body !== null) {
      expect(body).toMatch(/RequestSchema$/);
      expect(schemas.has(body)).toBe(true);
    }
    expect(query).toMatch(/QuerySchema$/);
    expect(schemas.has(query)).toBe(true);
    expect(response).not.toMatch(/(Request|Query)Schema$/);
    expect(schemas.has(response)).toBe(true);
  });

  test('names codes of the catalog, once each, any as one of its kinds', () => {
    const codes = route.problems.map((problem) => (typeof problem === 'string' ? problem : problem.code));
    for (const code of codes) expect(Object.keys(ERROR_CATALOG)).toContain(code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const problem of route.problems)
      if (typeof problem !== 'string') expect(kindsOf(problem.code)).toContain(problem.kind);
  });

  test("its handler validates with those schemas' validators and answers its status", () => {
    // The handler hands httpHandler its validators as `body: <validator>,` and `query: <validator>,`,
    // and `status: <n>,` when it is not 200; a validator is named after its schema, less `Schema`.
    const source = readFileSync(handlerEntry(route.handler), 'utf8');
    const given = (member: string) => new RegExp(`^\\s+${member}: (\\w+),$`, 'm').exec(source)?.[1];
    const validator = (schema: string | null) => (schema === null ? undefined : schema.slice(0, -'Schema'.length));
    expect({
      body: given('body'),
      query: given('query') ?? 'emptyQuery',
      status: Number(given('status') ?? 200),
    }).toEqual({
      body: validator(route.schemas.body),
      query: validator(route.schemas.query),
      status: route.status ?? 200,
    });
  });
});
