/**
 * The document a stage serves: the generated document cut to the stage's routes (production has no
 * sandbox tools), with only the components and groups those use, and the stage's token endpoint. And
 * the contract function's answers as Lambda gives them, without a server.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { routesFor } from '../../functions/routes';
import { contractHandler, documentForStage } from '../../shared/http/contract-pages';
import { NETWORK_OPENAPI_FILE, OPENAPI_FILE } from '../../tools/openapi/files';

const generated = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
const networkDocument = JSON.parse(readFileSync(NETWORK_OPENAPI_FILE, 'utf8'));
const operationsOf = (sandbox: boolean) =>
  routesFor(sandbox).flatMap((route) => route.paths.map((routePath) => ({ method: route.method, path: routePath })));
const refsIn = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
      );

describe('a stage without the sandbox', () => {
  const served = documentForStage(generated, operationsOf(false), 'https://auth.example.com/oauth2/token') as any;

  test('serves its routes only, and names its token endpoint', () => {
    expect(Object.keys(served.paths).filter((p) => p.startsWith('/sandbox/'))).toEqual([]);
    expect(Object.keys(served.paths).length).toBe(new Set(operationsOf(false).map((o) => o.path)).size);
    expect(served.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      'https://auth.example.com/oauth2/token',
    );
    expect(served.tags.map((tag: { name: string }) => tag.name)).not.toContain('Sandbox');
  });

  test('keeps every component its operations use, and none they do not', () => {
    const used = new Set(refsIn(served.paths));
    // What the kept components use in turn.
    for (let grew = true; grew;) {
      const before = used.size;
      for (const ref of [...used]) {
        const [, kind, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref)!;
        for (const inner of refsIn(served.components[kind!][name!])) used.add(inner);
      }
      grew = used.size > before;
    }
    const kept = ['schemas', 'responses', 'parameters', 'headers'].flatMap((kind) =>
      Object.keys(served.components[kind]).map((name) => `#/components/${kind}/${name}`),
    );
    expect(kept.sort()).toEqual([...used].sort());
    expect(served.components.schemas).not.toHaveProperty('ApprovedMerchant');
    expect(served.components.schemas).toHaveProperty('Customer');
  });
});

test("the network connector's document stands apart: its routes and the transfer order, none of the clients'", () => {
  expect(Object.keys(networkDocument.paths)).toEqual([
    '/network/v1/transfers/{id}/status',
    '/network/v1/credits',
    '/network/v1/credits/{end_to_end_id}/reversals',
    '/network/v1/merchants/{identification_type}/{identification_number}',
    '/network/v1/settlement-files/{date}',
    '/network/v1/keys',
  ]);
  // Our public keys need no signature to be read.
  expect(networkDocument.paths['/network/v1/keys'].get.security).toEqual([]);
  // What we send the connector: the orders, the directory's requests and the inquiry.
  expect(Object.keys(networkDocument.webhooks)).toEqual([
    'transfer.requested',
    'directory.lookup',
    'directory.key.published',
    'directory.key.status',
    'directory.key.withdrawn',
    'transfer.inquiry',
  ]);
  // Of two kinds: a payment's TRANSFER, and a refund's RETURN of the credit it names, whose creditor has no account.
  const { schemas } = networkDocument.components;
  expect(schemas.TransferOrder.oneOf).toEqual([
    { $ref: '#/components/schemas/PaymentOrder' },
    { $ref: '#/components/schemas/ReturnOrder' },
  ]);
  expect(schemas.PaymentOrder.required).toEqual(expect.arrayContaining(['kind', 'end_to_end_id', 'creditor']));
  expect(schemas.ReturnOrder.required).toEqual(expect.arrayContaining(['kind', 'original_end_to_end_id', 'creditor']));
  expect([schemas.PaymentOrder.properties.kind, schemas.ReturnOrder.properties.kind]).toEqual([
    { const: 'TRANSFER' },
    { const: 'RETURN' },
  ]);
  expect(schemas.ReturnCreditor.properties.account).toBeUndefined();
  expect(schemas.ReturnCreditor.additionalProperties).toBe(false);
  expect(Object.keys(generated.paths).filter((p) => p.startsWith('/network/'))).toEqual([]);
  expect(Object.keys(generated.components.schemas).filter((name) => name.startsWith('Transfer'))).toEqual([]);
});

test('a stage with the sandbox serves the whole generated document', () => {
  expect(documentForStage(generated, operationsOf(true))).toEqual(generated);
});

describe('the function', () => {
  const swaggerUiDir = path.join('node_modules', 'swagger-ui-dist');
  const handler = contractHandler({
    document: generated,
    networkDocument,
    operations: operationsOf(true),
    swaggerUiDir,
  });
  const get = (rawPath: string, file?: string) =>
    handler({
      rawPath,
      requestContext: { requestId: 'request-1' },
      ...(file === undefined ? {} : { pathParameters: { file } }),
    } as unknown as APIGatewayProxyEventV2);

  test('answers the document, the page and its files, each with its type', async () => {
    const document = await get('/openapi.json');
    expect(document.headers['content-type']).toBe('application/json');
    expect(JSON.parse(document.body)).toEqual(generated);
    const page = await get('/docs');
    expect(page.body).toContain('/docs/swagger-ui-bundle.js');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const start = await get('/docs/reference.js', 'reference.js');
    expect(start.body).toContain('validatorUrl: null');
    const css = await get('/docs/swagger-ui.css', 'swagger-ui.css');
    expect(css.body).toBe(readFileSync(path.join(swaggerUiDir, 'swagger-ui.css'), 'utf8'));
  });

  test("answers the network connector's document whole at /network/openapi.json", async () => {
    const document = await get('/network/openapi.json');
    expect(document.headers['content-type']).toBe('application/json');
    expect(JSON.parse(document.body)).toEqual(networkDocument);
  });

  test('has no other file: a name outside its list is 404, never a read of the disk', async () => {
    for (const file of ['package.json', '../package.json', 'index.html', '']) {
      const answer = await get(`/docs/${file}`, file);
      expect({ file, status: answer.statusCode, code: JSON.parse(answer.body).code }).toEqual({
        file,
        status: 404,
        code: 'ROUTE_NOT_FOUND',
      });
    }
  });
});
