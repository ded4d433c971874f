/**
 * The API's description, served without a token (it holds nothing of any client): the OpenAPI
 * document at GET /openapi.json, as this stage serves it, and a reference page at GET /docs drawn by
 * Swagger UI from the npm package's own files, served from here too. The page loads nothing from
 * anywhere else: its Content-Security-Policy allows this origin only, and Swagger UI's calls out
 * (the validator badge) are turned off.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AppError } from '../domain/errors';
import { problemOf, PROBLEM_CONTENT_TYPE } from './problem';
import type { HttpResponse } from './responses';

export const DOCUMENT_PATH = '/openapi.json';
/** The network connector's own document (docs/network.md), never part of the clients' one. */
export const NETWORK_DOCUMENT_PATH = '/network/openapi.json';
export const REFERENCE_PATH = '/docs';
/** The page's own files: Swagger UI's, and the script that starts it. */
export const REFERENCE_FILES_PATH = `${REFERENCE_PATH}/{file}`;

type Json = Record<string, unknown>;

/** An operation a stage serves: its method and path template, as the route table has them. */
export interface ServedOperation {
  readonly method: string;
  readonly path: string;
}

export interface ContractSettings {
  /** The whole generated document (every route of the route table). */
  readonly document: Json;
  /** The network connector's document, served whole: every stage has the network's routes. */
  readonly networkDocument: Json;
  /** What this stage serves: the document keeps these operations only (no sandbox tools in production). */
  readonly operations: readonly ServedOperation[];
  /** The stage's token endpoint, when it is not the local issuer's (`/oauth2/token`, on this host). */
  readonly tokenUrl?: string | undefined;
  /** The folder of the swagger-ui-dist package. */
  readonly swaggerUiDir: string;
}

/** Every `$ref` under a value. */
const refsIn = (value: unknown): string[] =>
  typeof value !== 'object' || value === null
    ? []
    : Object.entries(value).flatMap(([key, inner]) =>
        key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
      );

/**
 * The document with only the stage's operations, and only the components and groups those use: what
 * a client of this stage can call, nothing else.
 */
export function documentForStage(document: Json, operations: readonly ServedOperation[], tokenUrl?: string): Json {
  const served = new Set(operations.map(({ method, path }) => `${method.toLowerCase()} ${path}`));
  const paths: Record<string, Json> = {};
  for (const [route, item] of Object.entries(document['paths'] as Record<string, Json>)) {
    const kept = Object.entries(item).filter(([method]) => served.has(`${method} ${route}`));
    if (kept.length > 0) paths[route] = Object.fromEntries(kept);
  }
  const components = structuredClone(document['components']) as Record<string, Record<string, unknown>>;
  // What the operations refer to, and what that refers to in turn, until nothing new is found.
  const used = new Set<string>();
  let found = refsIn(paths);
  while (found.length > 0) {
    const fresh = found.filter((ref) => !used.has(ref));
    for (const ref of fresh) used.add(ref);
    found = fresh.flatMap((ref) => {
      const [, kind = '', name = ''] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
      return refsIn(components[kind]?.[name]);
    });
  }
  for (const kind of ['schemas', 'responses', 'parameters', 'headers']) {
    for (const name of Object.keys(components[kind] ?? {})) {
      if (!used.has(`#/components/${kind}/${name}`)) delete components[kind]![name];
    }
  }
  if (tokenUrl) {
    for (const scheme of Object.values(components['securitySchemes'] ?? {})) {
      const flow = (scheme as { flows?: { clientCredentials?: Json } }).flows?.clientCredentials;
      if (flow) flow['tokenUrl'] = tokenUrl;
    }
  }
  const usedTags = new Set(
    Object.values(paths).flatMap((item) => Object.values(item).flatMap((op) => (op as Json)['tags'] as string[])),
  );
  const tags = (document['tags'] as { name: string }[]).filter((tag) => usedTags.has(tag.name));
  return { ...document, tags, paths, components };
}

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Bre-B merchant API reference</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="${REFERENCE_PATH}/swagger-ui.css">
  </head>
  <body>
    <div id="reference"></div>
    <script src="${REFERENCE_PATH}/swagger-ui-bundle.js"></script>
    <script src="${REFERENCE_PATH}/reference.js"></script>
  </body>
</html>
`;

/** Swagger UI on this host's document; no validator badge (it would ask validator.swagger.io). */
const START_SCRIPT = `window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(DOCUMENT_PATH)},
  dom_id: '#reference',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/** This origin only; Swagger UI sets style attributes and draws its icons from data: URLs. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'cache-control': 'public, max-age=300',
};

/** The files the page loads under /docs/, by name: Swagger UI's from its package, then ours. */
function referenceFiles(swaggerUiDir: string): ReadonlyMap<string, { type: string; read: () => string }> {
  const packaged = (name: string) => () => readFileSync(path.join(swaggerUiDir, name), 'utf8');
  return new Map([
    ['swagger-ui.css', { type: 'text/css; charset=utf-8', read: packaged('swagger-ui.css') }],
    ['swagger-ui-bundle.js', { type: 'text/javascript; charset=utf-8', read: packaged('swagger-ui-bundle.js') }],
    ['reference.js', { type: 'text/javascript; charset=utf-8', read: () => START_SCRIPT }],
  ]);
}

const answer = (statusCode: number, headers: Record<string, string>, body: string): HttpResponse => ({
  statusCode,
  headers,
  body,
});

function notFound(requestId: string, detail: string): HttpResponse {
  const problem = problemOf(new AppError('ROUTE_NOT_FOUND', detail), requestId);
  return answer(404, { 'content-type': PROBLEM_CONTENT_TYPE, 'x-request-id': requestId }, JSON.stringify(problem));
}

/** The Lambda handler of the four paths (API Gateway's payload 2.0, no authorizer). */
export function contractHandler(settings: ContractSettings): (event: APIGatewayProxyEventV2) => Promise<HttpResponse> {
  let documentBody: string | undefined;
  let networkDocumentBody: string | undefined;
  const files = referenceFiles(settings.swaggerUiDir);
  const cache = new Map<string, string>();
  const jsonDocument = (body: string, requestId: string) =>
    answer(
      200,
      {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=300',
        // Any tool may read the document from a browser: it is public.
        'access-control-allow-origin': '*',
        'x-request-id': requestId,
      },
      body,
    );
  return async (event) => {
    const requestId = event.requestContext.requestId;
    const at = event.rawPath;
    if (at === DOCUMENT_PATH) {
      documentBody ??= JSON.stringify(documentForStage(settings.document, settings.operations, settings.tokenUrl));
      return jsonDocument(documentBody, requestId);
    }
    if (at === NETWORK_DOCUMENT_PATH) {
      networkDocumentBody ??= JSON.stringify(settings.networkDocument);
      return jsonDocument(networkDocumentBody, requestId);
    }
    if (at === REFERENCE_PATH) {
      return answer(
        200,
        { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS, 'x-request-id': requestId },
        PAGE,
      );
    }
    const name = event.pathParameters?.['file'] ?? '';
    const file = files.get(name);
    if (!file) return notFound(requestId, `The reference page has no file ${JSON.stringify(name)}`);
    let body = cache.get(name);
    if (body === undefined) cache.set(name, (body = file.read()));
    return answer(200, { 'content-type': file.type, ...PAGE_HEADERS, 'x-request-id': requestId }, body);
  };
}
