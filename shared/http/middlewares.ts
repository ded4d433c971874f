/** The Middy middlewares every function shares, in the order shared/http/handler.ts applies them. */
import type { MiddlewareObj, Request } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import type { GateVerdict } from '../data/write-gate';
import { AppError } from '../domain/errors';
import { logger } from './logger';
import { API_ANSWER_HEADERS, errorResponse, type HttpResponse } from './responses';

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;

export interface AuthContext {
  /** The client (tenant) that owns everything this request creates or reads. */
  readonly tenant: string;
  /**
   * Who sent the request: the token's `sub`, a person for a dashboard token, the client itself for a
   * machine's (client credentials give `sub` = client id). The actor of logs and audit events.
   */
  readonly subject: string;
  readonly scopes: readonly string[];
}

export interface ApiContext extends Context {
  auth: AuthContext;
  /**
   * Checks begun before the work that may still refuse the request (the tenant's rate limit): the
   * work's writes wait for them (shared/data/write-gate.ts), and so does the answer.
   */
  writeChecks?: GateVerdict[];
}

type ApiMiddleware = MiddlewareObj<ApiEvent, HttpResponse, Error, ApiContext>;
type ApiRequestState = Request<ApiEvent, HttpResponse, Error, ApiContext>;

export const MAX_BODY_BYTES = 64 * 1024;

const requestIdOf = (request: ApiRequestState): string =>
  request.event.requestContext?.requestId ?? request.context.awsRequestId;

/**
 * Outermost layer: every answer carries the request id and API_ANSWER_HEADERS, errors become
 * problem+json, and one log line per request records what happened and who asked (the token's
 * tenant and `sub`, an opaque id), never bodies, headers or personal data.
 */
export function httpResponses(functionName: string): ApiMiddleware {
  const started = new WeakMap<object, number>();
  const finish = (request: ApiRequestState, response: HttpResponse): void => {
    const requestId = requestIdOf(request);
    response.headers = { ...response.headers, ...API_ANSWER_HEADERS, 'x-request-id': requestId };
    request.response = response;
    const code = response.statusCode >= 400 ? (JSON.parse(response.body) as { code?: string }).code : undefined;
    logger.info('request', {
      function: functionName,
      route: request.event.routeKey,
      status: response.statusCode,
      duration_ms: Date.now() - (started.get(request) ?? Date.now()),
      request_id: requestId,
      tenant: request.context.auth?.tenant,
      sub: request.context.auth?.subject,
      ...(code ? { code } : {}),
    });
  };
  return {
    before: (request) => {
      started.set(request, Date.now());
    },
    after: (request) => {
      if (request.response) finish(request, request.response);
    },
    onError: (request) => {
      finish(request, errorResponse(request.error, requestIdOf(request)));
    },
  };
}

/**
 * The tenant and scopes from the JWT that API Gateway's authorizer (or the local server) verified.
 * A person signed in to the dashboard works for the tenant their token's `tenant` claim names (the
 * token's `client_id` is then the dashboard's app client); a machine client's token has no `tenant`
 * and is its own tenant, its `client_id`. A missing claim means the function was invoked without
 * the authorizer: refuse.
 */
export function authContext(): ApiMiddleware {
  return {
    before: (request) => {
      const jwt = request.event.requestContext?.authorizer?.jwt;
      const claims = jwt?.claims ?? {};
      const tenant = claims['tenant'] ?? claims['client_id'] ?? claims['sub'];
      // A token without `sub` is no token of ours (Cognito's and the local issuer's all carry one);
      // a machine's is its client id, so the actor is never missing from an audit event.
      const subject = claims['sub'] ?? claims['client_id'];
      if (typeof tenant !== 'string' || tenant === '' || typeof subject !== 'string' || subject === '') {
        throw new AppError('UNAUTHORIZED', 'The request carries no verified access token');
      }
      request.context.auth = {
        tenant,
        subject,
        scopes:
          jwt?.scopes ??
          String(claims['scope'] ?? '')
            .split(' ')
            .filter(Boolean),
      };
    },
  };
}

/** The one path parameter that is not a resource id: a calendar day (GET /v1/accounts/{id}/statements/{date}). */
export const DATE_PARAMETER = 'date';

/** Ids of the API's resources: the UUIDs it generates (stored in lower case, found in any case). */
const RESOURCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Every path parameter of the API but a statement's date is a resource id. Any other value names nothing: 404 at once,
 * without a lookup (DynamoDB refuses keys over 2,048 bytes, which would otherwise be a 500).
 */
export function resourceIds(): ApiMiddleware {
  return { before: ({ event }) => checkResourceIds(event.pathParameters) };
}

/** 404 NOT_FOUND unless every path parameter but a statement's date is a resource id (resourceIds). */
export function checkResourceIds(pathParameters: Readonly<Record<string, string | undefined>> | undefined): void {
  for (const [name, value] of Object.entries(pathParameters ?? {})) {
    // A statement's calendar day is no id: its route checks it (400 when it is not a day).
    if (name === DATE_PARAMETER) continue;
    if (value === undefined || !RESOURCE_ID.test(value)) {
      throw new AppError('NOT_FOUND', 'No resource has this id');
    }
  }
}

export function bodySizeLimit(maxBytes = MAX_BODY_BYTES): ApiMiddleware {
  return {
    before: ({ event }) => {
      if (event.body === undefined) return;
      const bytes = event.isBase64Encoded
        ? Buffer.byteLength(event.body, 'base64')
        : Buffer.byteLength(event.body, 'utf8');
      if (bytes > maxBytes) {
        throw new AppError('PAYLOAD_TOO_LARGE', `The body has ${bytes} bytes; the limit is ${maxBytes}`);
      }
    },
  };
}

/**
 * The Content-Type as @middy/http-json-body-parser's check expects it: that check already takes the
 * media type in any letter case (`Application/JSON`), but not white space before a `;` nor at either
 * end (`application/json ; charset=utf-8`), which HTTP allows (RFC 9110, section 8.3). Trimmed
 * around every `;`; docs/architecture.md has the fix we would offer upstream.
 */
export function jsonMediaType(): ApiMiddleware {
  return {
    before: ({ event }) => {
      const contentType = event.headers?.['content-type'];
      if (contentType === undefined) return;
      event.headers['content-type'] = contentType
        .split(';')
        .map((part) => part.trim())
        .join(';');
    },
  };
}

/**
 * A POST, PUT or PATCH that declares a body sends one, as JSON (or a JSON-based type such as
 * application/problem+json), which @middy/http-json-body-parser decodes from base64 if need be and
 * parses for the schema validation after it. Its refusals become the API's codes in errorResponse
 * (shared/http/responses.ts).
 */
export function jsonBody(): ApiMiddleware[] {
  return [jsonMediaType(), httpJsonBodyParser<ApiEvent>()];
}
