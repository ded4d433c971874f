/**
 * The OpenAPI 3.1 document of the network connector's contract (docs/network.md), apart from the
 * clients' one: the routes the connector calls (functions/routes/network.ts), signed rather than
 * behind a token, and, as an OpenAPI `webhooks` entry, the signed transfer order we POST to the
 * connector. Built from the same schemas the handlers validate with; `npm run generate` writes it
 * (network-openapi.json), and the contract function serves it at GET /network/openapi.json.
 */
import type { NetworkRouteDefinition } from '../../functions/routes';
import { ERROR_CATALOG, type ErrorCode } from '../../shared/domain/errors';
import { PROBLEM_CONTENT_TYPE } from '../../shared/http/problem';
import { SchemaComponents, type JsonObject } from './components';

type Problems = Readonly<Record<number, readonly ErrorCode[]>>;

/**
 * Each network route's request and answer schemas (exports of shared/schemas/network.ts), and the
 * problems it answers besides everyone's.
 */
const ROUTE_SCHEMAS: Readonly<
  Record<string, { readonly body: string; readonly response: string; readonly problems: Problems }>
> = {
  applyTransferStatus: {
    body: 'transferStatusRequestSchema',
    response: 'transferStatusAnswerSchema',
    problems: { 404: ['NOT_FOUND'], 422: ['TRANSFER_MISMATCH'] },
  },
  receiveNetworkCredit: {
    body: 'creditRequestSchema',
    response: 'creditAnswerSchema',
    problems: { 409: ['CREDIT_IN_PROGRESS'] },
  },
  applyMerchantDecision: {
    body: 'merchantDecisionRequestSchema',
    response: 'merchantDecisionAnswerSchema',
    problems: { 404: ['NOT_FOUND'] },
  },
};

/** The schema of a path parameter: a resource id, or a merchant's identification. */
const PATH_PARAMETER_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  identification_type: { type: 'string', enum: ['NIT'] },
  identification_number: { type: 'string', pattern: '^[0-9]{9}$' },
};

/** The problems every network route may answer, by status. */
const PROBLEMS: Problems = {
  400: ['MALFORMED_JSON', 'VALIDATION_FAILED'],
  401: ['NETWORK_SIGNATURE_INVALID'],
  413: ['PAYLOAD_TOO_LARGE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR'],
};

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

const SIGNATURE_DESCRIPTION =
  'Standard Webhooks signature with the connector secret (whsec_...): `webhook-signature` is ' +
  '`v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, several space-separated ' +
  'during a rotation. A missing or wrong signature, or a timestamp more than 5 minutes away, is 401.';

const headerParameters = (): JsonObject[] =>
  SIGNATURE_HEADERS.map((name) => ({ name, in: 'header', required: true, schema: { type: 'string' } }));

export interface NetworkDocumentSettings {
  readonly version: string;
  readonly routes: readonly NetworkRouteDefinition[];
  readonly schemas: ReadonlyMap<string, object>;
}

export function networkOpenApiDocument(settings: NetworkDocumentSettings): JsonObject {
  const components = new SchemaComponents(settings.schemas);
  const problem = components.refer('problemSchema');
  const problems = (own: Problems): JsonObject =>
    Object.fromEntries(
      Object.entries({ ...PROBLEMS, ...own }).map(([status, codes]) => [
        status,
        {
          description: codes.map((code) => `- \`${code}\`: ${ERROR_CATALOG[code].title}`).join('\n'),
          content: { [PROBLEM_CONTENT_TYPE]: { schema: problem } },
        },
      ]),
    );
  const paths: JsonObject = {};
  for (const route of settings.routes) {
    const schemas = ROUTE_SCHEMAS[route.name];
    if (!schemas) throw new Error(`Network route ${route.name} names no schemas in tools/openapi/network-document.ts`);
    for (const path of route.paths) {
      const parameters = [
        ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
          name,
          in: 'path',
          required: true,
          schema: PATH_PARAMETER_SCHEMAS[name!] ?? { type: 'string', format: 'uuid' },
        })),
        ...headerParameters(),
      ];
      paths[path] = {
        [route.method.toLowerCase()]: {
          operationId: route.name,
          summary: route.summary,
          description: SIGNATURE_DESCRIPTION,
          parameters,
          requestBody: { required: true, content: { 'application/json': { schema: components.refer(schemas.body) } } },
          responses: {
            200: {
              description: 'Done',
              content: { 'application/json': { schema: components.refer(schemas.response) } },
            },
            ...problems(schemas.problems),
          },
        },
      };
    }
  }
  const order = components.refer('transferOrderSchema');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bre-B merchant API: the network connector',
      version: settings.version,
      description:
        "Our side of the sponsor bank's connector (docs/network.md): the transfer orders we send, and the " +
        'routes the connector calls. Every request, both ways, is signed. ' +
        SIGNATURE_DESCRIPTION,
    },
    // Relative to where the document is served: the stage's API.
    servers: [{ url: '/' }],
    // The signature stands in for a token: named as a header-borne key so tools show it on each operation.
    security: [{ standardWebhooks: [] }],
    paths,
    webhooks: {
      'transfer.requested': {
        post: {
          operationId: 'transferRequested',
          summary: 'A transfer order: POSTed to the connector URL, which answers 202 once it has recorded it',
          description:
            "Sent again, the same bytes and webhook-id, until the connector answers 202; the network's answer " +
            'comes back on POST /network/v1/transfers/{id}/status. ' +
            SIGNATURE_DESCRIPTION,
          parameters: headerParameters(),
          requestBody: { required: true, content: { 'application/json': { schema: order } } },
          responses: { 202: { description: 'Taken: the answer follows on the status route' } },
        },
      },
    },
    components: {
      schemas: Object.fromEntries(components.schemas),
      securitySchemes: {
        standardWebhooks: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description: SIGNATURE_DESCRIPTION,
        },
      },
    },
  };
}
