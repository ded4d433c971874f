/**
 * The OpenAPI 3.1 document of the API, built from what already says everything it says: the route
 * table (methods, paths, scopes, the schemas each route names, the codes of its own rules) and the
 * schemas of shared/schemas. Nothing in it is written by hand. `npm run generate` writes it
 * (tools/generate.ts); GET /openapi.json serves it, locally and deployed; the tests check every
 * answer they receive against it (test/support/contract.ts).
 */
import { SCOPE_PREFIX, type RouteDefinition } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/domain/errors';
import { DATE_PARAMETER } from '../../shared/http/middlewares';
import { PROBLEM_CONTENT_TYPE } from '../../shared/http/problem';
import { SchemaComponents, type JsonObject } from './components';
import { problemsOf, SHARED_STATUSES } from './problems';
import { DEPLOYED_ANSWERS, HEADERS, IDEMPOTENCY_KEY, INFO_DESCRIPTION, TAG_DESCRIPTIONS } from './prose';

/** The token endpoint of the local issuer; a deployed stage's document names its own (Cognito's). */
const LOCAL_TOKEN_PATH = '/oauth2/token';
const SECURITY_SCHEME = 'oauth2';

/** How the resources of the scopes read in the document's tags and scope descriptions. */
const RESOURCE_TITLES: Readonly<Record<string, string>> = { qrcodes: 'QR codes' };
const SANDBOX_TAG = 'Sandbox';

const titleOf = (resource: string): string =>
  RESOURCE_TITLES[resource] ?? resource.charAt(0).toUpperCase() + resource.slice(1);

/** `breb/qrcodes.write` -> { resource: 'qrcodes', access: 'write' }. */
function scopeParts(scope: string): { resource: string; access: string } {
  const [resource = '', access = ''] = scope.slice(SCOPE_PREFIX.length + 1).split('.');
  return { resource, access };
}

/** A route's group in the document: its scopes' resource, or the sandbox's operator tools. */
function tagOf(route: RouteDefinition): string {
  if (route.sandbox) return SANDBOX_TAG;
  const [scope] = route.scopes;
  if (!scope) throw new Error(`Route ${route.name} has no scope and is not a sandbox tool: no group for it`);
  return titleOf(scopeParts(scope).resource);
}

/** The operation of a route at each of its paths: its name at the first, a name of its own at the others. */
export function operationIdOf(route: Pick<RouteDefinition, 'name' | 'paths'>, path: string): string {
  if (path === route.paths[0]) return route.name;
  const segments = path
    .split('/')
    .filter((segment) => segment !== '' && !segment.startsWith('{'))
    .map((segment) => segment.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase()));
  return `${route.name}Via${segments.join('')}`;
}

const ref = (kind: 'responses' | 'headers' | 'parameters', name: string): JsonObject => ({
  $ref: `#/components/${kind}/${name}`,
});

/** `PAYLOAD_TOO_LARGE` -> `PayloadTooLarge`: a shared response's name. */
const sharedResponseName = (code: ErrorCode): string =>
  code
    .toLowerCase()
    .split('_')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

const codeList = (codes: readonly ErrorCode[]): string =>
  codes.map((code) => `- \`${code}\`: ${ERROR_CATALOG[code].title}`).join('\n');

function problemResponse(status: number, codes: readonly ErrorCode[], schema: JsonObject): JsonObject {
  const headers: JsonObject = { 'x-request-id': ref('headers', 'RequestId') };
  if (status === 401 || status === 403) headers['WWW-Authenticate'] = ref('headers', 'WwwAuthenticate');
  if (status === 429 || status === 503) headers['Retry-After'] = ref('headers', 'RetryAfter');
  const deployed = DEPLOYED_ANSWERS[status];
  return {
    description: deployed === undefined ? codeList(codes) : `${codeList(codes)}\n\n${deployed}`,
    headers,
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: { allOf: [schema, { properties: { status: { const: status }, code: { enum: codes } } }] },
      },
    },
  };
}

class DocumentBuilder {
  readonly components: SchemaComponents;
  private readonly problem: JsonObject;

  constructor(named: ReadonlyMap<string, object>) {
    this.components = new SchemaComponents(named);
    this.problem = this.components.refer('problemSchema');
  }

  operation(route: RouteDefinition, path: string): JsonObject {
    const { schemas } = route;
    const parameters: JsonObject[] = [
      ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) =>
        name === DATE_PARAMETER
          ? {
              name,
              in: 'path',
              required: true,
              description:
                'A calendar day in Colombia (America/Bogota), YYYY-MM-DD, up to today; any other value is 400.',
              schema: { type: 'string', format: 'date' },
            }
          : {
              name,
              in: 'path',
              required: true,
              description: 'An id the API gave; any other value names nothing (404).',
              schema: { type: 'string', format: 'uuid' },
            },
      ),
      ...this.queryParameters(schemas.query),
      ...(route.method === 'POST' ? [ref('parameters', 'IdempotencyKey')] : []),
    ];
    const success: JsonObject = {
      description: route.status === 201 ? 'Created' : 'OK',
      headers: {
        'x-request-id': ref('headers', 'RequestId'),
        ...(route.method === 'POST'
          ? {
              'Idempotent-Replayed': ref('headers', 'IdempotentReplayed'),
              'Idempotent-Replay-Withheld': ref('headers', 'IdempotentReplayWithheld'),
            }
          : {}),
      },
      content: { 'application/json': { schema: this.components.refer(schemas.response) } },
    };
    const responses: JsonObject = { [String(route.status ?? 200)]: success };
    for (const [status, codes] of problemsOf(route, path)) {
      const shared = SHARED_STATUSES.get(status);
      responses[String(status)] =
        shared !== undefined && codes.length === 1 && codes[0] === shared
          ? ref('responses', sharedResponseName(shared))
          : problemResponse(status, codes, this.problem);
    }
    return {
      operationId: operationIdOf(route, path),
      summary: route.summary,
      tags: [tagOf(route)],
      security:
        route.scopes.length > 0
          ? route.scopes.map((scope) => ({ [SECURITY_SCHEME]: [scope] }))
          : [{ [SECURITY_SCHEME]: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(schemas.body === null
        ? {}
        : {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: this.components.refer(schemas.body) } },
            },
          }),
      responses,
    };
  }

  /** One query parameter per property of the query string's schema (none is required). */
  private queryParameters(querySchema: string): JsonObject[] {
    const properties = (this.components.inline(querySchema)['properties'] ?? {}) as Record<string, JsonObject>;
    return Object.entries(properties).map(([name, schema]) => ({ name, in: 'query', required: false, schema }));
  }

  sharedResponses(): JsonObject {
    return Object.fromEntries(
      [...SHARED_STATUSES].map(([status, code]) => [
        sharedResponseName(code),
        problemResponse(status, [code], this.problem),
      ]),
    );
  }
}

export interface DocumentSettings {
  /** The API's version (package.json). */
  readonly version: string;
  readonly routes: readonly RouteDefinition[];
  /** Every schema of shared/schemas by export name (tools/schema-modules.ts). */
  readonly schemas: ReadonlyMap<string, object>;
  /** Every scope of the API, in the route table's order. */
  readonly scopes: readonly string[];
}

export function openApiDocument(settings: DocumentSettings): JsonObject {
  const builder = new DocumentBuilder(settings.schemas);
  const paths: Record<string, JsonObject> = {};
  for (const route of settings.routes) {
    for (const path of route.paths) {
      const item = (paths[path] ??= {});
      item[route.method.toLowerCase()] = builder.operation(route, path);
    }
  }
  const tags = [...new Set(settings.routes.map(tagOf))];
  const sharedResponses = builder.sharedResponses();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bre-B merchant API',
      version: settings.version,
      summary: "Onboard merchants onto Bre-B, Colombia's real-time payment network, and take payments.",
      description: INFO_DESCRIPTION,
    },
    // Relative: the operations are at the host that serves the document, whichever stage it is.
    servers: [{ url: '/', description: 'The API that serves this document' }],
    tags: tags.map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: Object.fromEntries(builder.components.schemas),
      responses: sharedResponses,
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY },
      headers: HEADERS,
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'oauth2',
          description:
            'OAuth2 client credentials: the token endpoint answers a bearer token (a JWT) for the client id and ' +
            "secret; each operation needs one of its scopes. The token's client is the tenant: it sees only what it created.",
          flows: {
            clientCredentials: {
              tokenUrl: LOCAL_TOKEN_PATH,
              scopes: Object.fromEntries(settings.scopes.map((scope) => [scope, scopeDescription(scope)])),
            },
          },
        },
      },
    },
  };
}

function scopeDescription(scope: string): string {
  const { resource, access } = scopeParts(scope);
  const title = titleOf(resource);
  return access === 'read' ? `Read ${title.toLowerCase()}` : `Create, change and delete ${title.toLowerCase()}`;
}
