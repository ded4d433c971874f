/**
 * `networkHandler` builds the handler of a route the network connector calls (docs/network.md): no
 * JWT and no tenant, but the connector's signature over the request and the exact bytes received,
 * made at most 5 minutes away (the bank's RFC 9421 signature on a connector stage, the simulator's
 * Standard Webhooks one on a sandbox stage: the route's `verify`); without one, 401 (saying only that,
 * the reason in our log) before anything is parsed or read. Then the path's ids (404 when one is no resource id),
 * the body as JSON, validated, and the route's work. The same observability and answers as
 * the clients' routes (shared/http/handler.ts).
 */
import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import { AppError, RetryLater } from '../domain/errors';
import { tracer } from '../observability/telemetry';
import { logger } from './logger';
import { bodySizeLimit, checkResourceIds, httpResponses, type ApiContext, type ApiEvent } from './middlewares';
import { dynamoIdempotencyStore } from '../data/idempotency-store';
import { runIdempotently } from './idempotency';
import { observability } from './observability';
import { errorResponse, jsonResponse, type HttpResponse } from './responses';
import { bodyValidator, type SchemaValidator } from './validation';

export interface NetworkRequest<Body, Path> {
  readonly body: Body;
  readonly path: Path;
  readonly requestId: string;
}

/**
 * Whether the connector signed these exact bytes, recently, and the request's id it signed (the
 * signature's nonce, or `webhook-id`); the reason when it did not.
 */
export type NetworkSignatureCheck =
  { readonly valid: true; readonly requestId: string } | { readonly valid: false; readonly reason: string };

/**
 * Whose Idempotency-Key records hold the connector's request ids: no client's (a client id never
 * holds '#'), so the connector's ids and the clients' keys never meet.
 */
export const NETWORK_REQUESTS_TENANT = 'network#connector';

/** What a network request's signature covers: its method, the URI it was sent to, its headers and bytes. */
export interface ReceivedNetworkRequest {
  readonly method: string;
  readonly targetUri: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
}

export interface NetworkRouteSpec<Body, Path> {
  readonly name: string;
  /** Checks the request's signature against the keys or secrets the stage trusts. */
  readonly verify: (request: ReceivedNetworkRequest) => Promise<NetworkSignatureCheck>;
  readonly body: SchemaValidator<Body, 'body'>;
  /** The route checks its own path parameters (a merchant's NIT is no resource id); else each must be one. */
  readonly checksOwnPath?: boolean;
  /**
   * How the body is read: one JSON value (the default), or JSON lines (`application/x-ndjson`, a
   * settlement file: one object a line, validated as one array, each refusal naming its line).
   */
  readonly format?: 'json' | 'ndjson';
  /** The most bytes the body may have (413 beyond): 64 KiB unless the route says more. */
  readonly maxBodyBytes?: number;
  /** The status of the route's answer: 200 unless it only takes the work (202). */
  readonly status?: number;
  readonly handle: (request: NetworkRequest<Body, Path>) => Promise<unknown>;
}

/** The bytes the connector signed: the body as received, decoded when API Gateway base64-encoded it. */
const rawBody = (event: ApiEvent): string =>
  event.body === undefined
    ? ''
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body;

/**
 * The URI the connector sent the request to, as it signed it: API Gateway's scheme (X-Forwarded-Proto),
 * the Host it was called on (the network's own custom domain in production), the path and the query.
 */
const targetUriOf = (event: ApiEvent): string => {
  const headers = event.headers ?? {};
  const scheme = headers['x-forwarded-proto'] ?? 'https';
  const host = headers['host'] ?? event.requestContext.domainName;
  return `${scheme}://${host}${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
};

/** The media type of JSON lines (one JSON value a line), with or without parameters, in any case. */
const NDJSON_MEDIA_TYPE = /^application\/x-ndjson[ \t]*(;|$)/i;

/**
 * The values of a JSON lines body: one a line, LF or CRLF, the last line's break optional. An empty
 * body has none (a day of no movement); an empty line or one that is no JSON is refused, by its number.
 */
function parseJsonLines(headers: ApiEvent['headers'], body: string): unknown[] {
  if (!NDJSON_MEDIA_TYPE.test((headers?.['content-type'] ?? '').trim())) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The body must be application/x-ndjson: one JSON object a line');
  }
  const lines = body.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as unknown;
    } catch {
      throw new AppError('MALFORMED_JSON', `Line ${i + 1} is not JSON`);
    }
  });
}

/** A line's refusal named by its line, counted from 1: `3.amount` (the array's index 2) is line 3's `amount`. */
function byLine(error: unknown): unknown {
  if (!(error instanceof AppError) || !error.extensions.errors) return error;
  const errors = error.extensions.errors.map(({ field, message }) => {
    const [index, ...rest] = field.split('.');
    const line = Number(index) + 1;
    return Number.isInteger(line) ? { field: [String(line), ...rest].join('.'), message } : { field, message };
  });
  return new AppError(error.code, `The body has ${errors.length} invalid field(s), named <line>.<field>`, { errors });
}

export function networkHandler<Body, Path = Record<string, string>>(spec: NetworkRouteSpec<Body, Path>) {
  const validateBody = bodyValidator<Body>(spec.body);
  const ndjson = spec.format === 'ndjson';
  const validate = (parsed: unknown): Body => {
    try {
      return validateBody(parsed);
    } catch (error) {
      throw ndjson ? byLine(error) : error;
    }
  };

  const handleSigned = async (event: ApiEvent): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    const body = rawBody(event);
    const check = await spec.verify({
      method: event.requestContext.http.method,
      targetUri: targetUriOf(event),
      headers: event.headers ?? {},
      body,
    });
    if (!check.valid) {
      // Why is for our log, not for the caller: a detail that says which check failed (no header, a
      // stale timestamp, no signature that matches) would guide whoever is trying to forge one. Every
      // refusal answers the same problem (byte for byte but its request id, which finds this line).
      logger.warn('Network request refused', { reason: check.reason, request_id: requestId });
      throw new AppError('NETWORK_SIGNATURE_INVALID', 'The request is not signed by the network connector');
    }
    // Signed, its path ids are still checked: an id that is no resource id names nothing (404), where
    // DynamoDB would refuse a key over 2,048 bytes (a 500).
    if (!spec.checksOwnPath) checkResourceIds(event.pathParameters);
    let parsed: unknown;
    if (ndjson) {
      parsed = parseJsonLines(event.headers, body);
    } else {
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new AppError('MALFORMED_JSON', 'The body is not JSON');
      }
    }
    const run = async (): Promise<HttpResponse> => {
      try {
        const answer = await spec.handle({
          body: validate(parsed),
          path: (event.pathParameters ?? {}) as Path,
          requestId,
        });
        return jsonResponse(spec.status ?? 200, answer);
      } catch (error) {
        if (error instanceof AppError) return errorResponse(error, requestId);
        throw error;
      }
    };
    // A request id is remembered (24 hours, as an Idempotency-Key is): one sent again, a replay of a
    // captured request within its 5 minutes included, gets the first answer and applies nothing.
    return runIdempotently(
      dynamoIdempotencyStore,
      {
        tenant: NETWORK_REQUESTS_TENANT,
        key: check.requestId,
        method: event.requestContext.http.method,
        path: event.rawPath,
        body: parsed,
      },
      run,
    );
  };

  const chain = middy<ApiEvent, HttpResponse, Error, ApiContext>(handleSigned)
    .use(observability(spec.name))
    .use(httpResponses(spec.name))
    .use(bodySizeLimit(spec.maxBodyBytes));
  return tracer.traced(chain);
}

/**
 * The handler of a network route anyone may read (our public keys): no signature to check, the same
 * observability and answers as the signed ones.
 */
export function publicNetworkHandler(spec: { readonly name: string; readonly handle: () => Promise<unknown> }) {
  const chain = middy<ApiEvent, HttpResponse, Error, ApiContext>(async () => jsonResponse(200, await spec.handle()))
    .use(observability(spec.name))
    .use(httpResponses(spec.name));
  return tracer.traced(chain);
}

/** A network route's handler as networkHandler builds it. */
export type NetworkRouteHandler = (event: ApiEvent, context: ApiContext) => Promise<HttpResponse>;

/** The Lambda context of a call made in process: the caller's own invocation lends its time. */
function inProcessContext(functionName: string, requestId: string): ApiContext {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `in-process:${functionName}`,
    memoryLimitInMB: '0',
    awsRequestId: requestId,
    logGroupName: '',
    logStreamName: '',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  } as unknown as ApiContext;
}

/**
 * Sends `body` to the network route `path` by calling its handler in this process, with the headers
 * `sign` makes for its bytes (the connector's Standard Webhooks signature): the route's own signature check,
 * validation and work run on it, as for a request from the network. The sandbox's simulator speaks
 * the network's contract so (docs/network.md, "The sandbox"). Answers the route's 200 body; any other
 * answer is a fault of the caller's, thrown.
 */
export async function callNetworkRoute(
  handler: NetworkRouteHandler,
  route: { readonly name: string; readonly path: string },
  body: unknown,
  sign: (raw: string, messageId: string) => Promise<Readonly<Record<string, string>>>,
): Promise<unknown> {
  const requestId = randomUUID();
  const raw = JSON.stringify(body);
  const headers = await sign(raw, `msg_${requestId}`);
  const now = Date.now();
  const event = {
    version: '2.0',
    routeKey: `POST ${route.path}`,
    rawPath: route.path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...headers },
    body: raw,
    isBase64Encoded: false,
    requestContext: {
      accountId: 'in-process',
      apiId: 'in-process',
      domainName: 'in-process',
      domainPrefix: 'in-process',
      http: { method: 'POST', path: route.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'sandbox' },
      requestId,
      routeKey: `POST ${route.path}`,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
  } as unknown as ApiEvent;
  const answer = await handler(event, inProcessContext(route.name, requestId));
  if (answer.statusCode === 200) return JSON.parse(String(answer.body));
  // A store that did not answer is the caller's answer too (503, retry later); anything else is a fault.
  const retryAfter = Number(answer.headers?.['retry-after']);
  if (answer.statusCode === 503 && retryAfter > 0) {
    throw new RetryLater('SERVICE_UNAVAILABLE', 'The data store did not answer in time; retry the request', retryAfter);
  }
  throw new Error(`${route.path} answered ${answer.statusCode}: ${answer.body}`);
}
