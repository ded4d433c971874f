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
  Record<
    string,
    {
      readonly body?: string;
      /** A body of JSON lines: `body` names the schema of one line. */
      readonly bodyFormat?: 'ndjson';
      readonly response: string;
      /** The answer's status, when it is not 200. */
      readonly status?: number;
      readonly problems: Problems;
    }
  >
> = {
  applyTransferStatus: {
    body: 'transferStatusRequestSchema',
    response: 'transferStatusAnswerSchema',
    problems: { 404: ['NOT_FOUND'], 422: ['TRANSFER_MISMATCH'] },
  },
  receiveNetworkCredit: {
    body: 'creditRequestSchema',
    response: 'creditAnswerSchema',
    problems: { 409: ['CREDIT_IN_PROGRESS', 'END_TO_END_ID_REUSED'] },
  },
  reverseNetworkCredit: {
    body: 'reversalRequestSchema',
    response: 'reversalAnswerSchema',
    problems: { 404: ['NOT_FOUND'], 409: ['REVERSAL_EXCEEDS_PAYMENT', 'REVERSAL_ID_REUSED'] },
  },
  applyMerchantDecision: {
    body: 'merchantDecisionRequestSchema',
    response: 'merchantDecisionAnswerSchema',
    problems: { 404: ['NOT_FOUND'] },
  },
  receiveSettlementFile: {
    body: 'settlementLineSchema',
    bodyFormat: 'ndjson',
    response: 'settlementFileAnswerSchema',
    status: 202,
    problems: { 415: ['UNSUPPORTED_MEDIA_TYPE'] },
  },
  getNetworkKeys: { response: 'networkKeysSchema', problems: {} },
};

/** The schema of a path parameter: a resource id, or a merchant's identification. */
const PATH_PARAMETER_SCHEMAS: Readonly<Record<string, JsonObject>> = {
  identification_type: { type: 'string', enum: ['NIT'] },
  identification_number: { type: 'string', pattern: '^[0-9]{9}$' },
  date: { type: 'string', format: 'date', description: 'A day in Colombia (America/Bogota), YYYY-MM-DD' },
  end_to_end_id: { type: 'string', pattern: '^[A-Za-z0-9]{1,35}$' },
};

/** The problems every network route may answer, by status. */
const PROBLEMS: Problems = {
  400: ['MALFORMED_JSON', 'VALIDATION_FAILED'],
  401: ['NETWORK_SIGNATURE_INVALID'],
  413: ['PAYLOAD_TOO_LARGE'],
  429: ['RATE_LIMITED'],
  500: ['INTERNAL_ERROR'],
};

/** What a route anyone may read may answer: no body, no signature to refuse. */
const PUBLIC_PROBLEMS: Problems = { 429: ['RATE_LIMITED'], 500: ['INTERNAL_ERROR'] };

const SIGNATURE_HEADERS = ['content-digest', 'signature-input', 'signature'];

const SIGNATURE_DESCRIPTION =
  'RFC 9421 HTTP Message Signature with Ed25519: `signature-input` is ' +
  '`sig1=("@method" "@target-uri" "content-digest" "content-type");created=<unix>;keyid="<kid>";' +
  'nonce="<id>";alg="ed25519"`, `signature` is `sig1=:<base64>:`, `content-digest` is ' +
  '`sha-256=:<base64 SHA-256 of the body>:` (RFC 9530). Each side signs with its own key: the bank with ' +
  "one of the keys the stage's networkBankKeys holds, we with one of GET /network/v1/keys. A missing or " +
  'wrong signature, a digest that does not match the body, or `created` more than 5 minutes away, is 401. ' +
  'A sandbox stage, whose only caller is its own simulator, checks the Standard Webhooks signature instead.';

/** A body of ours, or of the connector's answer, as JSON. */
const json = (schema: JsonObject): JsonObject => ({ content: { 'application/json': { schema } } });

/**
 * The rest of what we send the connector (docs/network.md): the directory's lookups, our keys'
 * publication, status and withdrawal, and the inquiry of a transfer left unanswered. Each is signed as
 * every request is; the paths are under the connector's base URL.
 */
function outgoing(components: SchemaComponents): JsonObject {
  const failure = { description: 'Anything else, or no answer in time: we answer 503 and change nothing' };
  const operation = (fields: JsonObject): JsonObject => ({
    ...fields,
    description: `${String(fields['description'])} ${SIGNATURE_DESCRIPTION}`,
    // A webhook entry names no path: where it goes is in its summary (the connector's base URL, then the path).
    parameters: headerParameters(),
  });
  return {
    'directory.lookup': {
      post: operation({
        operationId: 'directoryLookup',
        summary: 'POST <connector>/v1/directory/lookups: the entry of a key, for resolve-key and validate-key',
        description:
          'Answered 200 with the entry, 404 when no participant holds the key, 429 (Retry-After) when limited.',
        requestBody: { required: true, ...json(components.refer('directoryLookupSchema')) },
        responses: {
          200: { description: "The key's entry", ...json(components.refer('directoryEntrySchema')) },
          404: { description: 'No participant holds the key: {"reason": "KEY_NOT_FOUND"}' },
          429: { description: 'Lookups limited for now: passed on with its Retry-After' },
          default: failure,
        },
      }),
    },
    'directory.key.published': {
      post: operation({
        operationId: 'directoryKeyPublished',
        summary: "POST <connector>/v1/directory/keys: one of our merchants' keys, before we store it",
        description: 'The same registration again (same participant, same account) answers 201 and changes nothing.',
        requestBody: { required: true, ...json(components.refer('publishedKeySchema')) },
        responses: {
          201: { description: 'Published' },
          409: { description: 'Held by another participant or another account: {"reason": "KEY_HELD_ELSEWHERE"}' },
          default: failure,
        },
      }),
    },
    'directory.key.status': {
      patch: operation({
        operationId: 'directoryKeyStatus',
        summary: 'PATCH <connector>/v1/directory/keys/{key_type}/{key_value}: our key suspended or active again',
        description: 'A 404 on ACTIVE makes us publish the key again.',
        requestBody: { required: true, ...json(components.refer('publishedKeyStatusSchema')) },
        responses: { 200: { description: 'Changed' }, 404: { description: 'Not held' }, default: failure },
      }),
    },
    'directory.key.withdrawn': {
      delete: operation({
        operationId: 'directoryKeyWithdrawn',
        summary: 'DELETE <connector>/v1/directory/keys/{key_type}/{key_value}: our key deleted',
        description: 'The empty body is signed.',
        responses: { 204: { description: 'Withdrawn' }, 404: { description: 'Not held: done too' }, default: failure },
      }),
    },
    'transfer.inquiry': {
      get: operation({
        operationId: 'transferInquiry',
        summary: 'GET <connector>/v1/transfers/{end_to_end_id}: what became of a transfer left unanswered',
        description: 'Asked once TRANSFER_INQUIRY_AFTER_MS has passed; NOT_FOUND (or 404) sends the order again.',
        responses: {
          200: { description: 'What the network answered', ...json(components.refer('transferInquiryAnswerSchema')) },
          404: { description: 'The same as NOT_FOUND' },
          default: failure,
        },
      }),
    },
  };
}

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
  const problems = (all: Problems): JsonObject =>
    Object.fromEntries(
      Object.entries(all).map(([status, codes]) => [
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
    const signed = route.auth === 'signature';
    for (const path of route.paths) {
      const parameters = [
        ...[...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
          name,
          in: 'path',
          required: true,
          schema: PATH_PARAMETER_SCHEMAS[name!] ?? { type: 'string', format: 'uuid' },
        })),
        ...(signed ? headerParameters() : []),
      ];
      paths[path] = {
        [route.method.toLowerCase()]: {
          operationId: route.name,
          summary: route.summary,
          ...(signed ? { description: SIGNATURE_DESCRIPTION } : { security: [] }),
          ...(parameters.length > 0 ? { parameters } : {}),
          ...(schemas.body
            ? {
                requestBody: {
                  required: true,
                  ...(schemas.bodyFormat === 'ndjson'
                    ? {
                        description:
                          'JSON lines: one object of this schema a line (LF or CRLF), none for a day without movements. ' +
                          'A refusal names each bad field as `<line>.<field>`, lines counted from 1.',
                      }
                    : {}),
                  content: {
                    [schemas.bodyFormat === 'ndjson' ? 'application/x-ndjson' : 'application/json']: {
                      schema: components.refer(schemas.body),
                    },
                  },
                },
              }
            : {}),
          responses: {
            [schemas.status ?? 200]: {
              description: schemas.status === 202 ? 'Taken: the work follows' : 'Done',
              content: { 'application/json': { schema: components.refer(schemas.response) } },
            },
            ...problems(signed ? { ...PROBLEMS, ...schemas.problems } : PUBLIC_PROBLEMS),
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
    security: [{ httpMessageSignature: [] }],
    paths,
    webhooks: {
      'transfer.requested': {
        post: {
          operationId: 'transferRequested',
          summary: 'A transfer order: POSTed to the connector URL, which answers 202 once it has recorded it',
          description:
            "Sent again, the same body and nonce, until the connector answers 202; the network's answer " +
            'comes back on POST /network/v1/transfers/{id}/status. ' +
            SIGNATURE_DESCRIPTION,
          parameters: headerParameters(),
          requestBody: { required: true, content: { 'application/json': { schema: order } } },
          responses: { 202: { description: 'Taken: the answer follows on the status route' } },
        },
      },
      ...outgoing(components),
    },
    components: {
      schemas: Object.fromEntries(components.schemas),
      securitySchemes: {
        httpMessageSignature: {
          type: 'apiKey',
          in: 'header',
          name: 'signature',
          description: SIGNATURE_DESCRIPTION,
        },
      },
    },
  };
}
