/**
 * `httpHandler` builds a route's Lambda handler: the shared Middy chain around a thin function that
 * turns a validated request into a domain call (Middy 7). Order: observability (logger context,
 * tracer, metrics; outermost), answers and logs, auth context, the tenant's rate limit, path ids, body
 * size, the JSON body (@middy/http-json-body-parser, its refusals in the API's codes), schema
 * validation, then Idempotency-Key around the route's own work.
 */
import middy from '@middy/core';
import { AppError, RetryLater } from '../domain/errors';
import { actingAs } from '../data/audit-trail';
import { callerOf } from './caller';
import { dynamoIdempotencyStore } from '../data/idempotency-store';
import { dynamoTenantRateLimitStore } from '../data/rate-limit-store';
import { gatingWrites } from '../data/write-gate';
import { readIdempotencyKey, runIdempotently, type Redrawn } from './idempotency';
import { tracer } from '../observability/telemetry';
import { observability } from './observability';
import { tenantRateLimit } from './tenant-rate-limit';
import {
  authContext,
  bodySizeLimit,
  httpResponses,
  jsonBody,
  resourceIds,
  type ApiContext,
  type ApiEvent,
  type AuthContext,
} from './middlewares';
import { errorResponse, jsonResponse, type HttpResponse } from './responses';
import { emptyQuery } from '../schemas/generated/common';
import { bodyValidator, queryValidator, type SchemaValidator } from './validation';

export interface ApiRequest<Body, Query, Path> {
  readonly body: Body;
  readonly query: Query;
  readonly path: Path;
  readonly auth: AuthContext;
  readonly requestId: string;
  /**
   * The POST's Idempotency-Key, when it has one: the chain replays answers by it; a route whose
   * request is unique only by it (paying a recipient) refuses to run without one.
   */
  readonly idempotencyKey?: string;
}

export interface RouteSpec<Body, Query, Path> {
  /** Name for logs: the route table's `name`. */
  readonly name: string;
  /** Validator of the body (shared/schemas/generated); routes without one take no body. */
  readonly body?: SchemaValidator<Body, 'body'>;
  /** Validator of the query string; by default no parameter is accepted. */
  readonly query?: SchemaValidator<Query, 'query'>;
  /** Success status (the contract answers creates with 200). */
  readonly status?: number;
  /**
   * The route's work writes at most one transaction, as its last step: its reads, then one
   * TransactWriteItems or nothing, and no other write after it (its after-commit messages wait for the
   * commit). An Idempotency-Key's
   * record is then committed in that transaction, one round trip instead of a claim before the work
   * and its answer after (shared/http/idempotency.ts; the runtime refuses anything after the held
   * transaction, so a route that does more fails loudly).
   */
  readonly oneTransaction?: boolean;
  /** Fields of the answer a replay under the Idempotency-Key leaves out: the secret it shows once. */
  readonly withheldOnReplay?: readonly string[];
  /** A field of the answer not kept under the Idempotency-Key but drawn again on a replay (a QR image). */
  readonly redrawnOnReplay?: Redrawn;
  readonly handle: (request: ApiRequest<Body, Query, Path>) => Promise<unknown>;
}

export function httpHandler<Body = undefined, Query = Record<string, never>, Path = Record<string, string>>(
  spec: RouteSpec<Body, Query, Path>,
) {
  const validateBody = spec.body ? bodyValidator<Body>(spec.body) : undefined;
  const validateQuery = queryValidator<Query>(spec.query ?? (emptyQuery as SchemaValidator<Query, 'query'>));
  const status = spec.status ?? 200;

  const handleValidated = async (event: ApiEvent, context: ApiContext): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    const body = (validateBody ? validateBody(event.body) : undefined) as Body;
    const query = validateQuery({ ...event.queryStringParameters });
    const key = event.requestContext.http.method === 'POST' ? readIdempotencyKey(event.headers ?? {}) : undefined;
    const request: ApiRequest<Body, Query, Path> = {
      body,
      query,
      path: (event.pathParameters ?? {}) as Path,
      auth: context.auth,
      requestId,
      ...(key === undefined ? {} : { idempotencyKey: key }),
    };
    // Rule violations are answers too (stored and replayed under an Idempotency-Key); other errors,
    // and a refusal to be retried later (a spent lookup budget), leave the key free for a retry.
    const run = async (): Promise<HttpResponse> => {
      try {
        // The token's subject authors every audited change the work makes (shared/data/audit-trail.ts),
        // from the caller's address and User-Agent.
        const { ipAddress, userAgent } = callerOf(event);
        const actor = { tenant: request.auth.tenant, subject: request.auth.subject, requestId, ipAddress, userAgent };
        return jsonResponse(status, await actingAs(actor, () => spec.handle(request)));
      } catch (error) {
        if (error instanceof AppError && !(error instanceof RetryLater)) return errorResponse(error, requestId);
        throw error;
      }
    };
    const idempotently = (idempotencyKey: string) =>
      runIdempotently(
        dynamoIdempotencyStore,
        {
          tenant: request.auth.tenant,
          key: idempotencyKey,
          method: event.requestContext.http.method,
          path: event.rawPath,
          body: request.body,
        },
        run,
        {
          oneTransaction: spec.oneTransaction === true,
          withheld: spec.withheldOnReplay ?? [],
          ...(spec.redrawnOnReplay ? { redrawn: spec.redrawnOnReplay } : {}),
        },
      );
    // The work's writes wait for the checks still running (the rate limit's count); its reads do not.
    return gatingWrites(() => (key ? idempotently(key) : run()), context.writeChecks);
  };

  const chain = middy<ApiEvent, HttpResponse, Error, ApiContext>(handleValidated)
    // Logger context, tracing and metrics (shared/http/observability.ts) wrap everything else.
    .use(observability(spec.name))
    .use(httpResponses(spec.name))
    .use(authContext())
    // Counted from before anything else of the request (invalid requests spend the tenant's limit
    // too), beside the work's reads (shared/data/write-gate.ts).
    .use(tenantRateLimit(dynamoTenantRateLimitStore))
    .use(resourceIds());
  if (validateBody) {
    chain.use(bodySizeLimit()).use(jsonBody());
  }
  // Each invocation in a tracing context of its own (shared/observability/tracer.ts), whatever runs
  // beside it in the process.
  return tracer.traced(chain);
}
