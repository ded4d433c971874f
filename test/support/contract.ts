/**
 * The contract checks: every answer the HTTP suites receive through the test client (local-api.ts)
 * is checked against the OpenAPI document the server serves, so that code and contract cannot drift.
 *
 * - The request's method and path name an operation of the document; its answer's status must be one
 *   the operation documents, in the documented content type, and the body must be valid against the
 *   schema documented for that status (for a problem: the problem schema, with `status` and `code`
 *   among those the operation lists under that status).
 * - A request the server accepted (2xx) must be one the document accepts too: its body and query
 *   string valid against the operation's request schemas.
 * - A request for no operation (an unknown path, a known path with another method) may only get a
 *   problem the server answers before any route runs: no such route, no such method, a body or
 *   headers over the limits, the stage's throttling, a server still starting.
 *
 * An answer outside the document throws, which fails the test that received it. The endpoints of the
 * token issuer (Cognito's on AWS) and of the description itself are not part of the document.
 *
 * Each check is counted in a file of the run (CONTRACT_REPORT_DIR, set by the global setup): the
 * global teardown adds them up (contract-report.ts).
 */
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { matchRoute, mountRoutes } from '../../infra/local/router';
import { PROBLEM_CONTENT_TYPE } from '../../shared/http/problem';
import document from '../../shared/schemas/generated/openapi.json' with { type: 'json' };

// ajv-formats is CommonJS: its default export arrives wrapped when imported from an ES module.
const addFormats = ((addFormatsPlugin as unknown as { default?: typeof addFormatsPlugin }).default ??
  addFormatsPlugin) as typeof addFormatsPlugin;

type Json = Record<string, any>;

/** What the server answers before any route: the problems of a request that names no operation. */
const BEFORE_ANY_ROUTE = [
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'HEADERS_TOO_LARGE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
];

/**
 * Paths outside the API's document: the local token issuer's and its sign-in page (Cognito's on AWS),
 * the description's own, and the dashboard's files (CloudFront's on AWS).
 */
const NOT_DESCRIBED = /^\/(oauth2\/|\.well-known\/|openapi\.json$|docs(\/|$)|dashboard(\/|$))/;

const DOCUMENT_ID = 'openapi.json';
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema(document, DOCUMENT_ID);
// Query strings arrive as strings: the document's types are checked after coercion, as the server does.
const coercing = addFormats(new Ajv2020({ strict: false, allErrors: true, coerceTypes: true }));
coercing.addSchema(document, DOCUMENT_ID);

interface DocumentOperation {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly paths: readonly string[];
  readonly id: string;
  readonly pointer: string;
  readonly operation: Json;
}

const operations: DocumentOperation[] = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(
  ([template, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase() as DocumentOperation['method'],
      paths: [template],
      id: operation['operationId'] as string,
      pointer: `/paths/${escape(template)}/${method}`,
      operation,
    })),
);
const mounted = mountRoutes(operations);

/** One JSON Pointer segment, as a URI fragment holds it. */
function escape(segment: string): string {
  return encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));
}

const validators = new Map<string, ValidateFunction>();
function validatorAt(pointer: string, instance = ajv): ValidateFunction {
  const key = `${instance === ajv ? 'json' : 'query'} ${pointer}`;
  let validate = validators.get(key);
  if (!validate) validators.set(key, (validate = instance.compile({ $ref: `${DOCUMENT_ID}#${pointer}` })));
  return validate;
}

/** The object a `$ref` names (a shared response or parameter), with its JSON Pointer. */
function followed(node: Json, pointer: string): { node: Json; pointer: string } {
  const ref = node['$ref'];
  if (typeof ref !== 'string') return { node, pointer };
  const target = ref.slice('#'.length);
  const found = target
    .split('/')
    .slice(1)
    .reduce<Json | undefined>(
      (at, segment) => at?.[decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~')],
      document,
    );
  if (!found) throw new Error(`${ref} names nothing in the document`);
  return followed(found, target);
}

export class ContractViolation extends Error {
  override readonly name = 'ContractViolation';
}

export interface CheckedExchange {
  readonly method: string;
  /** The path as sent, with its query string. */
  readonly path: string;
  /** The request body as sent (a JSON text, or nothing). */
  readonly requestBody?: string | Buffer | undefined;
  readonly status: number;
  readonly contentType: string | null;
  readonly text: string;
}

/** What a report line counts: the operation (or none), the status, the schema it was checked against. */
interface Checked {
  readonly operation: string;
  readonly status: number;
  readonly schema: string;
}

const schemaNameOf = (schema: Json): string => {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value.split('/').at(-1)!);
      else walk(value);
    }
  };
  walk(schema);
  return refs[0] ?? 'inline';
};

function record(checked: Checked): void {
  const dir = process.env['CONTRACT_REPORT_DIR'];
  if (dir) appendFileSync(path.join(dir, `${process.pid}.jsonl`), `${JSON.stringify(checked)}\n`);
}

const describe = (exchange: CheckedExchange) =>
  `${exchange.method} ${exchange.path} answered ${exchange.status} ${exchange.text.slice(0, 300)}`;

function parsed(exchange: CheckedExchange): unknown {
  try {
    return JSON.parse(exchange.text);
  } catch {
    throw new ContractViolation(`${describe(exchange)}: the body is not JSON`);
  }
}

function mustBeValid(validate: ValidateFunction, value: unknown, what: string): void {
  if (!validate(value)) {
    throw new ContractViolation(`${what}: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
  }
}

/** The answer of a request that names no operation: a problem the server answers before any route. */
function checkWithoutOperation(exchange: CheckedExchange): void {
  if (exchange.contentType !== PROBLEM_CONTENT_TYPE) {
    throw new ContractViolation(`${describe(exchange)}: a request for no operation must get a problem`);
  }
  const body = parsed(exchange) as Json;
  mustBeValid(validatorAt('/components/schemas/Problem'), body, describe(exchange));
  if (!BEFORE_ANY_ROUTE.includes(body['code']) || body['status'] !== exchange.status) {
    throw new ContractViolation(`${describe(exchange)}: no operation answers ${body['code']}`);
  }
  record({ operation: '(no operation)', status: exchange.status, schema: 'Problem' });
}

/** The request the server took was one the operation documents: its body and query string. */
function checkAcceptedRequest(found: DocumentOperation, exchange: CheckedExchange, url: URL): void {
  const requestSchema = found.operation['requestBody']?.content?.['application/json']?.schema;
  if (requestSchema && exchange.requestBody !== undefined) {
    const pointer = `${found.pointer}/requestBody/content/${escape('application/json')}/schema`;
    let body: unknown;
    try {
      body = JSON.parse(exchange.requestBody.toString());
    } catch {
      throw new ContractViolation(`${describe(exchange)}: the server took a body that is not JSON`);
    }
    mustBeValid(validatorAt(pointer), body, `${describe(exchange)}: the document refuses the body the server took`);
  }
  const parameters = ((found.operation['parameters'] ?? []) as Json[]).map((parameter, index) =>
    followed(parameter, `${found.pointer}/parameters/${index}`),
  );
  const inQuery = new Map(parameters.filter(({ node }) => node['in'] === 'query').map((p) => [p.node['name'], p]));
  for (const [name, value] of url.searchParams) {
    const parameter = inQuery.get(name);
    if (!parameter) {
      throw new ContractViolation(`${describe(exchange)}: the server took the query parameter ${name}, undocumented`);
    }
    mustBeValid(
      validatorAt(`${parameter.pointer}/schema`, coercing),
      value,
      `${describe(exchange)}: the document refuses ${name}=${value}, which the server took`,
    );
  }
}

/**
 * Checks one exchange against the document; throws ContractViolation when the answer (or, for an
 * accepted request, the request) is outside it.
 */
export function checkAgainstContract(exchange: CheckedExchange): void {
  const url = new URL(exchange.path, 'http://localhost');
  if (NOT_DESCRIBED.test(url.pathname)) return;
  const match = matchRoute(mounted, exchange.method, url.pathname);
  if (match.kind !== 'found') return checkWithoutOperation(exchange);
  const found = match.mounted.route;
  const documented = found.operation['responses'][String(exchange.status)] as Json | undefined;
  if (!documented) {
    throw new ContractViolation(`${describe(exchange)}: ${found.id} documents no ${exchange.status} answer`);
  }
  const response = followed(documented, `${found.pointer}/responses/${exchange.status}`);
  const [contentType] = Object.keys(response.node['content'] ?? {});
  if (!contentType || exchange.contentType !== contentType) {
    throw new ContractViolation(`${describe(exchange)}: ${found.id} answers ${exchange.status} as ${contentType}`);
  }
  const schema = response.node['content'][contentType].schema as Json;
  const pointer = `${response.pointer}/content/${escape(contentType)}/schema`;
  mustBeValid(
    validatorAt(pointer),
    parsed(exchange),
    `${describe(exchange)}: outside ${found.id}'s ${exchange.status}`,
  );
  if (exchange.status < 300) checkAcceptedRequest(found, exchange, url);
  record({ operation: found.id, status: exchange.status, schema: schemaNameOf(schema) });
}
