/**
 * The OpenAPI document as `npm run generate` writes it (and GET /openapi.json serves it): current with
 * the route table and the schemas, with every route at every path, and everything an operation needs
 * said: parameters, body, the success answer, each error status as problem+json with its codes,
 * scopes, Idempotency-Key on POSTs, unique operation ids. A route added to the table is in it at once.
 */
import { readFileSync } from 'node:fs';
import { routes, type RouteDefinition } from '../../functions/routes';
import { kindsOf } from '../../shared/domain/errors';
import { statusOfKind } from '../../shared/http/problem';
import type { JsonObject } from '../../tools/openapi/components';
import { openApiDocument, operationIdOf } from '../../tools/openapi/document';
import { buildOpenApiDocument, OPENAPI_FILE } from '../../tools/openapi/files';
import { problemsOf } from '../../tools/openapi/problems';
import { namedSchemas } from '../../tools/schema-modules';

type Operation = JsonObject & { responses: Record<string, JsonObject>; parameters?: JsonObject[] };

const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as JsonObject & {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, JsonObject>>;
};

const operationOf = (route: RouteDefinition, path: string): Operation => {
  const operation = document.paths[path]?.[route.method.toLowerCase()];
  if (!operation) throw new Error(`${route.method} ${path} is not in the document`);
  return operation;
};

/** What a $ref names, followed through components. */
function resolved(node: JsonObject): JsonObject {
  const target = node['$ref'];
  if (typeof target !== 'string') return node;
  const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(target) ?? [];
  const found = document.components[kind ?? '']?.[name ?? ''];
  if (!found) throw new Error(`${target} names nothing`);
  return resolved(found);
}

/** Every `$ref` of a value, anywhere in it. */
const refsIn = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
      );

const cases = routes.flatMap((route) => route.paths.map((path) => [`${route.method} ${path}`, route, path] as const));

test('the generated file is what the route table and the schemas give now', async () => {
  expect(JSON.parse(JSON.stringify(await buildOpenApiDocument()))).toEqual(document);
});

test('it is OpenAPI 3.1 with the OAuth2 client-credentials scheme and every scope', () => {
  expect(document['openapi']).toBe('3.1.0');
  const oauth2 = document.components['securitySchemes']?.['oauth2'] as any;
  expect(oauth2.type).toBe('oauth2');
  expect(oauth2.flows.clientCredentials.tokenUrl).toBe('/oauth2/token');
  expect(Object.keys(oauth2.flows.clientCredentials.scopes).sort()).toEqual(
    [...new Set(routes.flatMap((route) => route.scopes))].sort(),
  );
});

test('every operation of the route table, and no other, one operation id each', () => {
  const inDocument = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(inDocument.sort()).toEqual(cases.map(([label]) => label).sort());
  const ids = cases.map(([, route, path]) => operationOf(route, path)['operationId']);
  expect(new Set(ids).size).toBe(cases.length);
});

test('a route served at two paths has an operation at each, under two ids', () => {
  const linkAccount = routes.find((route) => route.name === 'linkAccount')!;
  expect(linkAccount.paths).toEqual(['/accounts', '/v1/accounts']);
  expect(linkAccount.paths.map((path) => operationOf(linkAccount, path)['operationId'])).toEqual([
    'linkAccount',
    'linkAccountViaV1Accounts',
  ]);
});

test('every reference of the document names a component it has', () => {
  const refs = refsIn(document);
  expect(refs.length).toBeGreaterThan(100);
  for (const ref of refs) expect(() => resolved({ $ref: ref })).not.toThrow();
});

describe.each(cases)('%s', (_label, route, path) => {
  const operation = operationOf(route, path);
  const parameters = (operation.parameters ?? []).map(resolved);

  test('its id, summary, scopes and group', () => {
    expect(operation['operationId']).toBe(operationIdOf(route, path));
    expect(operation['summary']).toBe(route.summary);
    expect(operation['security']).toEqual(
      route.scopes.length > 0 ? route.scopes.map((scope) => ({ oauth2: [scope] })) : [{ oauth2: [] }],
    );
    expect(operation['tags']).toHaveLength(1);
  });

  test('its path parameters, its query parameters and, on a POST, Idempotency-Key', () => {
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
    expect(parameters.filter((p) => p['in'] === 'path').map((p) => p['name'])).toEqual(inPath);
    for (const parameter of parameters.filter((p) => p['in'] === 'path')) expect(parameter['required']).toBe(true);
    const header = parameters.filter((p) => p['in'] === 'header').map((p) => p['name']);
    expect(header).toEqual(route.method === 'POST' ? ['Idempotency-Key'] : []);
  });

  test('its body, when it takes one', () => {
    const body = operation['requestBody'] as any;
    if (route.schemas.body === null) expect(body).toBeUndefined();
    else
      expect(body.content['application/json'].schema).toEqual({
        $ref: expect.stringMatching(/^#\/components\/schemas\//),
      });
  });

  test('its success answer: JSON of the schema its route names', () => {
    const success = resolved(operation.responses[String(route.status ?? 200)]!) as any;
    expect(Object.keys(success.content)).toEqual(['application/json']);
    expect(refsIn(success.content['application/json'].schema)).toHaveLength(1);
  });

  test('every error status as problem+json, with the codes it can answer', () => {
    const problems = problemsOf(route, path);
    const errorStatuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
    expect(errorStatuses).toEqual([...problems.keys()].map(String));
    for (const [status, codes] of problems) {
      for (const code of codes) expect(kindsOf(code).map(statusOfKind)).toContain(status);
      const answer = resolved(operation.responses[String(status)]!) as any;
      expect(Object.keys(answer.content)).toEqual(['application/problem+json']);
      const [problem, narrowed] = answer.content['application/problem+json'].schema.allOf;
      expect(problem).toEqual({ $ref: '#/components/schemas/Problem' });
      expect(narrowed.properties.code.enum).toEqual(codes);
      expect(narrowed.properties.status.const).toBe(status);
    }
    expect([...problems.keys()]).toEqual(expect.arrayContaining([400, 401, 429, 500, 503]));
  });
});

test('INSUFFICIENT_FUNDS: 400 of a payment, 409 of a refund', () => {
  const codesAt = (path: string, status: number) =>
    (resolved(document.paths[path]!['post']!.responses[String(status)]!) as any).content['application/problem+json']
      .schema.allOf[1].properties.code.enum;
  expect(codesAt('/v1/payments', 400)).toContain('INSUFFICIENT_FUNDS');
  expect(codesAt('/v1/payments', 409)).not.toContain('INSUFFICIENT_FUNDS');
  expect(codesAt('/v1/payments/{id}/refunds', 409)).toContain('INSUFFICIENT_FUNDS');
  expect(codesAt('/v1/payments/{id}/refunds', 400)).not.toContain('INSUFFICIENT_FUNDS');
});

test('a route added to the table is in the document with all of it', async () => {
  const added: RouteDefinition = {
    name: 'readInboundApproval',
    method: 'GET',
    paths: ['/v1/settings/inbound-approval'],
    handler: 'get-customer',
    summary: 'A route the table does not have yet',
    schemas: { body: null, query: 'emptyQuerySchema', response: 'webhookSchema' },
    problems: ['WEBHOOK_DISABLED'],
    scopes: ['breb/webhooks.read'],
    tableActions: ['GetItem'],
  };
  const extended = openApiDocument({
    version: '0.0.0',
    routes: [...routes, added],
    schemas: await namedSchemas(),
    scopes: ['breb/webhooks.read'],
  }) as any;
  const operation = extended.paths['/v1/settings/inbound-approval'].get;
  expect(operation.operationId).toBe('readInboundApproval');
  expect(operation.responses['200'].content['application/json'].schema).toEqual({
    $ref: '#/components/schemas/Webhook',
  });
  expect(operation.responses['409'].content['application/problem+json'].schema.allOf[1].properties.code.enum).toEqual([
    'WEBHOOK_DISABLED',
  ]);
});

test("a named schema is the component of the module's very schema, patterns explained in words", async () => {
  const schemas = await namedSchemas();
  const customer = document.components['schemas']!['Customer'] as any;
  expect(customer.required).toEqual((schemas.get('customerSchema') as any).required);
  expect(customer.properties.address).toEqual({ $ref: '#/components/schemas/Address' });
  expect(customer.properties.identification_number).toEqual({
    type: 'string',
    pattern: '^[0-9]{9}$',
    description: 'must be 9 digits',
  });
});
