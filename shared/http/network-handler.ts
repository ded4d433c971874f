/**
 * `networkHandler` builds the handler of a route the network connector calls (docs/network.md): no
 * JWT and no tenant, but a Standard Webhooks signature by the connector's secret over the exact bytes
 * received, with a timestamp at most 5 minutes away; without one, 401 before anything is parsed or
 * read. Then the body as JSON, validated, and the route's work. The same observability and answers as
 * the clients' routes (shared/http/handler.ts).
 */
import middy from '@middy/core';
import { AppError } from '../domain/errors';
import { tracer } from '../observability/telemetry';
import { bodySizeLimit, httpResponses, type ApiContext, type ApiEvent } from './middlewares';
import { observability } from './observability';
import { errorResponse, jsonResponse, type HttpResponse } from './responses';
import { bodyValidator, type SchemaValidator } from './validation';

export interface NetworkRequest<Body, Path> {
  readonly body: Body;
  readonly path: Path;
  readonly requestId: string;
}

/** Whether the connector signed these exact bytes, recently; the reason when it did not. */
export type NetworkSignatureCheck = { readonly valid: true } | { readonly valid: false; readonly reason: string };

export interface NetworkRouteSpec<Body, Path> {
  readonly name: string;
  /** Checks the Standard Webhooks headers against the connector's current secrets. */
  readonly verify: (
    headers: Readonly<Record<string, string | undefined>>,
    body: string,
  ) => Promise<NetworkSignatureCheck>;
  readonly body: SchemaValidator<Body, 'body'>;
  readonly handle: (request: NetworkRequest<Body, Path>) => Promise<unknown>;
}

/** The bytes the connector signed: the body as received, decoded when API Gateway base64-encoded it. */
const rawBody = (event: ApiEvent): string =>
  event.body === undefined
    ? ''
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body;

export function networkHandler<Body, Path = Record<string, string>>(spec: NetworkRouteSpec<Body, Path>) {
  const validateBody = bodyValidator<Body>(spec.body);

  const handleSigned = async (event: ApiEvent): Promise<HttpResponse> => {
    const requestId = event.requestContext.requestId;
    const body = rawBody(event);
    const check = await spec.verify(event.headers ?? {}, body);
    if (!check.valid)
      throw new AppError('NETWORK_SIGNATURE_INVALID', `The request is not signed by the network: ${check.reason}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new AppError('MALFORMED_JSON', 'The body is not JSON');
    }
    try {
      const answer = await spec.handle({
        body: validateBody(parsed),
        path: (event.pathParameters ?? {}) as Path,
        requestId,
      });
      return jsonResponse(200, answer);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error, requestId);
      throw error;
    }
  };

  const chain = middy<ApiEvent, HttpResponse, Error, ApiContext>(handleSigned)
    .use(observability(spec.name))
    .use(httpResponses(spec.name))
    .use(bodySizeLimit());
  return tracer.traced(chain);
}
