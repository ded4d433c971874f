/**
 * The local API: an HTTP server that does what API Gateway does in front of our functions. It
 * enforces JWTs like the JWT authorizer (plus the route's scopes), turns each request into an HTTP
 * API payload 2.0 event for the route's real handler, and serves the local OAuth2 endpoints.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { invokeWithin, LambdaTimeout } from './lambda-context';
import { CONTRACT_TIMEOUT_SECONDS, contractRoutes } from '../../functions/contract';
import {
  networkRoutes,
  ROUTE_TIMEOUT_SECONDS,
  routesFor,
  type FunctionDefinition,
  type HttpMethod,
  type RouteDefinition,
} from '../../functions/routes';
import { AppError, type ErrorCode } from '../../shared/domain/errors';
import { PROBLEM_CONTENT_TYPE, problemOf } from '../../shared/http/problem';
import { API_ANSWER_HEADERS, type HttpResponse } from '../../shared/http/responses';
import { answerDashboardRequest, type DashboardAssets } from './dashboard-assets';
import { answerIssuerRequest } from './issuer-endpoints';
import { answerDownloadRequest } from './report-downloads';
import { TokenRejected, type LocalIssuer, type VerifiedToken } from './oauth';
import { EDGE_REFUSALS, protectedPaths } from '../edge-rules';
import { EdgeGuard, type EdgeLimits } from './edge-guard';
import { StageThrottle, type ThrottlingSettings } from './rate-limiter';
import { matchRoute, mountRoutes } from './router';
import { scopeRefusal, tokenRefusal, type Refusal, type TokenFault } from './token-refusals';
import { loggable } from '../../shared/observability/loggable-error';

/** API Gateway's own payload limit; the functions enforce the contract's 64 KiB. */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/**
 * API Gateway HTTP APIs refuse more than 10,240 bytes of request line and header values. Node counts
 * the request target, header names and values against `maxHeaderSize`: the same bound, a few bytes
 * stricter.
 */
export const MAX_HEADER_BYTES = 10_240;

export type LambdaHandler = (event: APIGatewayProxyEventV2WithJWTAuthorizer, context: Context) => Promise<HttpResponse>;

/** What loading a function's handler needs: its name (a bundle's) and its file (a source's). */
export type LoadableFunction = Pick<FunctionDefinition, 'name' | 'handler'>;

export interface LocalServerOptions {
  readonly issuer: LocalIssuer;
  readonly sandboxEnabled: boolean;
  readonly routes?: readonly RouteDefinition[];
  /** The stage's one token bucket for every caller (API Gateway's stage throttling); undefined throttles nothing. */
  readonly throttling?: ThrottlingSettings;
  /** The bucket of the network connector's routes, apart from the clients' (their route throttling on AWS). */
  readonly networkThrottling?: ThrottlingSettings;
  /**
   * The edge before the stage (the web ACL's model, infra/local/edge-guard.ts): a bucket per client
   * address, and tokenless requests to the API refused; undefined lets everything through to the stage.
   */
  readonly edge?: EdgeLimits;
  /** The dashboard's files, served at /dashboard/; none by default. */
  readonly dashboard?: DashboardAssets;
  /** Loads a function's handler: by default its module in functions/ (bench/functions.ts loads built bundles). */
  readonly loadHandler?: (route: LoadableFunction) => Promise<LambdaHandler>;
  /**
   * Each route's timeout (default: the deployed ROUTE_TIMEOUT_SECONDS; the contract's own for its
   * routes): a handler that has not answered by then is failed, as Lambda ends it, and the request
   * answers 503.
   */
  readonly routeTimeoutMs?: number;
}

async function loadHandler(route: LoadableFunction): Promise<LambdaHandler> {
  const module = (await import(`../../functions/${route.handler}.ts`)) as { handler: LambdaHandler };
  return module.handler;
}

class BodyTooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function send(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string | Buffer,
): void {
  response.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

function sendProblem(
  response: ServerResponse,
  requestId: string,
  code: ErrorCode,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const problem = problemOf(new AppError(code, detail), requestId);
  send(
    response,
    problem.status,
    { 'content-type': PROBLEM_CONTENT_TYPE, ...API_ANSWER_HEADERS, 'x-request-id': requestId, ...headers },
    JSON.stringify(problem),
  );
}

/** A token refused (401) or short of scope (403): RFC 6750's challenge, and the same words as detail. */
function sendRefusal(response: ServerResponse, requestId: string, code: ErrorCode, refusal: Refusal): void {
  sendProblem(response, requestId, code, refusal.detail, { 'www-authenticate': refusal.challenge });
}

function bearerToken(authorization: string | undefined): string | undefined {
  // API Gateway accepts the token with or without the Bearer prefix. The scheme alone (HTTP clients
  // trim the space of `Bearer `) sends no token.
  const token = authorization?.replace(/^Bearer(\s+|$)/i, '').trim();
  return token ? token : undefined;
}

/** Text bodies go to the function as text, anything else Base64-encoded, like API Gateway. */
function isTextual(contentType: string | undefined): boolean {
  return !contentType || /^(text\/|application\/(.+\+)?(json|xml|x-www-form-urlencoded))/i.test(contentType);
}

function headersOf(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(',') : (value ?? ''),
    ]),
  );
}

/** The payload 2.0 event of a request API Gateway routed to `route`, before any authorizer. */
function toEvent(
  request: IncomingMessage,
  url: URL,
  route: { readonly method: HttpMethod },
  routePath: string,
  pathParameters: Record<string, string>,
  body: Buffer,
  requestId: string,
): APIGatewayProxyEventV2 {
  // API Gateway sets X-Forwarded-Proto to the scheme it was called with; locally that is plain HTTP.
  const headers: Record<string, string> = { ...headersOf(request), 'x-forwarded-proto': 'http' };
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = name in query ? `${query[name]},${value}` : value;
  const textual = isTextual(headers['content-type']);
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: `${route.method} ${routePath}`,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    ...(url.search ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    ...(body.length ? { body: textual ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !textual,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers['host'] ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: route.method,
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey: `${route.method} ${routePath}`,
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
    },
  };
}

/** The event of a route behind the JWT authorizer: what it verified, as API Gateway hands it on. */
function withAuthorizer(event: APIGatewayProxyEventV2, token: VerifiedToken): APIGatewayProxyEventV2WithJWTAuthorizer {
  return {
    ...event,
    requestContext: {
      ...event.requestContext,
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: {
          claims: Object.fromEntries(
            Object.entries(token.claims).map(([k, v]) => [
              k,
              typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean),
            ]),
          ),
          scopes: [...token.scopes],
        },
      },
    },
  };
}

async function invoke(
  response: ServerResponse,
  handler: LambdaHandler | undefined,
  name: string,
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
  requestId: string,
  timeoutMs: number,
): Promise<void> {
  if (!handler) throw new Error(`No handler loaded for ${name}`);
  let result: Awaited<ReturnType<LambdaHandler>>;
  try {
    result = await invokeWithin(handler, event, name, timeoutMs, requestId);
  } catch (error) {
    if (!(error instanceof LambdaTimeout)) throw error;
    // API Gateway answers 5xx when its function times out; the problem says which, for the caller.
    console.error('local server: route timed out', error.message);
    return sendProblem(response, requestId, 'SERVICE_UNAVAILABLE', 'The function did not answer within its timeout');
  }
  const resultBody = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  send(response, result.statusCode, result.headers, resultBody);
}

export type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** The request listener of the local API (attach it to a server once the issuer's URL is known). */
export async function createLocalApi(options: LocalServerOptions): Promise<RequestListener> {
  const routes = options.routes ?? routesFor(options.sandboxEnabled);
  const mounted = mountRoutes(routes);
  // The API's description (functions/contract.ts): no authorizer, so matched before any token is read.
  const publicRoutes = mountRoutes([contractRoutes]);
  // Load every handler up front, so a broken module fails the start rather than a request. One at a
  // time: jest's ES module loader fails on concurrent imports of a shared module.
  const handlers = new Map<string, LambdaHandler>();
  // The network connector's routes (functions/routes/network.ts): no token, their handler checks the
  // connector's signature.
  const networkMounted = mountRoutes(networkRoutes);
  for (const route of [...routes, contractRoutes, ...networkRoutes]) {
    handlers.set(route.name, await (options.loadHandler ?? loadHandler)(route));
  }
  const { issuer } = options;
  const dashboard = options.dashboard ?? new Map();
  const throttle = options.throttling ? new StageThrottle(options.throttling) : undefined;
  const networkThrottle = options.networkThrottling ? new StageThrottle(options.networkThrottling) : undefined;
  const edge = options.edge ? new EdgeGuard(options.edge, protectedPaths(routes)) : undefined;

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    const url = new URL(request.url ?? '/', 'http://localhost');
    const method = request.method ?? 'GET';

    let body: Buffer;
    try {
      body = await readBody(request);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        return sendProblem(response, requestId, 'PAYLOAD_TOO_LARGE', 'The body is too large');
      throw error;
    }

    // The sign-in and the dashboard's files stand in for Cognito and CloudFront: outside the API stage.
    const plain =
      (await answerIssuerRequest(issuer, request, url, body)) ?? answerDashboardRequest(dashboard, method, url);
    if (plain) return send(response, plain.status, plain.headers, plain.body);
    // Report files stand in for S3's presigned URLs: outside the API stage too, without a token.
    if (await answerDownloadRequest(method, url, requestId, response)) return;

    const refuseToken = (fault: TokenFault): void =>
      sendRefusal(response, requestId, 'UNAUTHORIZED', tokenRefusal(fault, issuer.issuer));
    const rateLimited = (retryAfterSeconds: number, detail: string): void =>
      sendProblem(response, requestId, 'RATE_LIMITED', detail, { 'retry-after': String(retryAfterSeconds) });
    const run = (name: string, event: APIGatewayProxyEventV2WithJWTAuthorizer, timeoutSeconds: number): Promise<void> =>
      invoke(response, handlers.get(name), name, event, requestId, options.routeTimeoutMs ?? timeoutSeconds * 1000);
    const token = bearerToken(request.headers.authorization);

    // The edge first, as deployed (CloudFront's web ACL, before API Gateway): a flood from one address
    // or without tokens stops here, before it spends the stage's bucket that every tenant shares.
    const atEdge = edge?.check(request.socket.remoteAddress ?? '', url.pathname, request.headers.authorization);
    if (atEdge?.refused === 'perIpRate') return rateLimited(atEdge.retryAfterSeconds, EDGE_REFUSALS.perIpRate.detail);
    if (atEdge?.refused === 'tokenless') return refuseToken({ kind: 'missing' });

    // The network connector's routes, after the edge (its per-IP rule counts them; /network/ is no
    // protected path, as they carry a signature, never a token) and before the stage's bucket: their own.
    const network = matchRoute(networkMounted, method, url.pathname);
    if (network.kind === 'found') {
      const limited = networkThrottle?.take();
      if (limited && !limited.allowed) {
        return rateLimited(limited.retryAfterSeconds, 'Too many requests from the network; slow down');
      }
      const { route, path: routePath } = network.mounted;
      const event = toEvent(request, url, route, routePath, network.pathParameters, body, requestId);
      // API Gateway hands these routes on without an authorizer.
      return run(route.name, event as never, ROUTE_TIMEOUT_SECONDS);
    }

    // A stage's throttling counts the stage's requests, whoever sends them: each request to the API
    // takes a token of the one bucket before it is routed or its token checked, so that a flood of
    // bad tokens spends the bucket here as it may deployed.
    const throttled = throttle?.take();
    if (throttled && !throttled.allowed) {
      return rateLimited(throttled.retryAfterSeconds, 'Too many requests to the API; slow down');
    }

    const open = matchRoute(publicRoutes, method, url.pathname);
    if (open.kind === 'found') {
      const event = toEvent(request, url, contractRoutes, open.mounted.path, open.pathParameters, body, requestId);
      // Its handler takes any payload 2.0 event; API Gateway sends it one without an authorizer.
      return run(contractRoutes.name, event as never, CONTRACT_TIMEOUT_SECONDS);
    }

    const match = matchRoute(mounted, method, url.pathname);
    if (match.kind === 'none')
      return sendProblem(response, requestId, 'ROUTE_NOT_FOUND', `No route for ${method} ${url.pathname}`);
    if (match.kind === 'wrong-method') {
      return sendProblem(
        response,
        requestId,
        'METHOD_NOT_ALLOWED',
        `${url.pathname} accepts ${match.allowed.join(', ')}`,
        {
          allow: match.allowed.join(', '),
        },
      );
    }
    const { route, path: routePath } = match.mounted;

    if (!token) return refuseToken({ kind: 'missing' });
    let verified: VerifiedToken;
    try {
      verified = await issuer.verify(token);
    } catch (error) {
      if (!(error instanceof TokenRejected)) throw error;
      return refuseToken(error.fault);
    }
    // As API Gateway: the token must carry at least one of the route's scopes.
    if (!route.scopes.some((scope) => verified.scopes.includes(scope))) {
      return sendRefusal(response, requestId, 'INSUFFICIENT_SCOPE', scopeRefusal(route.scopes, verified.scopes));
    }

    const event = withAuthorizer(
      toEvent(request, url, route, routePath, match.pathParameters, body, requestId),
      verified,
    );
    await run(route.name, event, ROUTE_TIMEOUT_SECONDS);
  }

  return (request, response) => {
    serve(request, response).catch((error: unknown) => {
      console.error('local server error', loggable(error));
      if (!response.headersSent) sendProblem(response, randomUUID(), 'INTERNAL_ERROR', 'The local server failed');
      else response.end();
    });
  };
}

/**
 * Requests Node's parser refuses before any route runs. Headers over the limit get a problem answer
 * (431); anything else keeps Node's own bare 400.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code !== 'HPE_HEADER_OVERFLOW' || !socket.writable) {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
    return;
  }
  const requestId = randomUUID();
  const body = JSON.stringify(
    problemOf(
      new AppError('HEADERS_TOO_LARGE', `The request line and headers exceed ${MAX_HEADER_BYTES} bytes`),
      requestId,
    ),
  );
  socket.end(
    `HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      Object.entries(API_ANSWER_HEADERS)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `x-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Whole seconds a client waits before it asks again while the runtime starts (a few seconds in all). */
export const STARTING_RETRY_AFTER_SECONDS = 1;

/** The answer to every request that arrives before the runtime is ready. */
const answerStarting: RequestListener = (_request, response) =>
  sendProblem(response, randomUUID(), 'SERVICE_UNAVAILABLE', 'The server is starting; retry shortly', {
    'retry-after': String(STARTING_RETRY_AFTER_SECONDS),
  });

export interface ListeningServer {
  readonly server: Server;
  /** The base URL (the port is known only now when port 0 picked one). */
  readonly url: string;
  /** Hands every request from now on to the ready API, instead of answering 503. */
  serve(listener: RequestListener): void;
}

/**
 * Starts listening (port 0 picks a free one). The runtime listens before it has an API to serve
 * (the issuer's URL names the port), so until `serve` is called every request is answered 503
 * SERVICE_UNAVAILABLE with Retry-After: a connection the server accepts always gets an answer.
 */
export async function listen(port: number, host = '127.0.0.1'): Promise<ListeningServer> {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES });
  server.on('clientError', answerClientError);
  let listener = answerStarting;
  server.on('request', (request: IncomingMessage, response: ServerResponse) => listener(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${address.port}`,
    serve: (ready) => {
      listener = ready;
    },
  };
}
