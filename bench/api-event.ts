/**
 * The events the benchmarks hand a function directly, without the local API in front: an HTTP API
 * payload 2.0 event as API Gateway's JWT authorizer passes it on (the client's id and scopes in the
 * claims).
 */
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from 'aws-lambda';

export interface BenchRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  /** The route's path template and the values of its parameters, for a path with parameters. */
  readonly route?: { readonly path: string; readonly parameters: Record<string, string> };
  readonly query?: Record<string, string>;
  /** A JSON body, sent as application/json. */
  readonly body?: unknown;
  readonly tenant: string;
  readonly scopes: readonly string[];
  readonly requestId: string;
}

/** What API Gateway writes into every event that no benchmark looks at. */
const GATEWAY = {
  accountId: '000000000000',
  apiId: 'bench',
  domainName: 'bench',
  domainPrefix: 'bench',
  stage: '$default',
} as const;

export function apiEvent(request: BenchRequest): APIGatewayProxyEventV2WithJWTAuthorizer {
  const { method, path, route, query, body, requestId } = request;
  const routeKey = `${method} ${route?.path ?? path}`;
  const now = Date.now();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: query ? new URLSearchParams(query).toString() : '',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(query ? { queryStringParameters: query } : {}),
    ...(route ? { pathParameters: route.parameters } : {}),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
    requestContext: {
      ...GATEWAY,
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'bench' },
      requestId,
      routeKey,
      time: new Date(now).toISOString(),
      timeEpoch: now,
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: { claims: { client_id: request.tenant, scope: request.scopes.join(' ') }, scopes: [...request.scopes] },
      },
    },
  };
}
