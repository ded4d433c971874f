/**
 * A client of the API typed by its OpenAPI document: openapi-fetch over the types openapi-typescript
 * writes from the document (`npm run generate`). Paths, parameters, bodies and answers are the
 * document's, so a change of the contract that a test relies on fails the type check (`tsc`) before
 * any test runs. Every answer it receives is checked against the document as the test client's are
 * (contract.ts).
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from '../../shared/schemas/generated/openapi-types';
import { checkAgainstContract } from './contract';
import type { TestApi } from './local-api';

export type ApiClient = Client<paths>;
/** A schema of the document, by its component name: `Schema<'Webhook'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

async function checkedFetch(request: Request): Promise<Response> {
  const requestBody = request.body ? await request.clone().text() : undefined;
  const response = await fetch(request);
  const { pathname, search } = new URL(request.url);
  checkAgainstContract({
    method: request.method,
    path: `${pathname}${search}`,
    requestBody,
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.clone().text(),
  });
  return response;
}

/** The typed client of the test server, sending `token` (a sandbox client's) with every request. */
export function typedClient(api: Pick<TestApi, 'url'>, token: string): ApiClient {
  return createClient<paths>({ baseUrl: api.url, headers: { authorization: `Bearer ${token}` }, fetch: checkedFetch });
}
