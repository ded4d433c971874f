/**
 * The routes of the API's own description: the OpenAPI document and its reference page
 * (shared/http/contract-pages.ts), and the network connector's OpenAPI document, served by one function without a token, since they hold nothing
 * of any client. They are not in the route table: every route there sits behind the authorizer and
 * is put through the suites that check it (authorization matrix, fuzz, races). The CDK stack routes
 * these paths to the function with no authorizer; the local server serves them before it asks for a
 * token. Nothing here imports handler code.
 */
import {
  DOCUMENT_PATH,
  NETWORK_DOCUMENT_PATH,
  REFERENCE_FILES_PATH,
  REFERENCE_PATH,
} from '../shared/http/contract-pages';
import type { FunctionDefinition, HttpMethod } from './routes';

/** The contract function's Lambda timeout, in seconds (it serves files it holds: no call to wait for). */
export const CONTRACT_TIMEOUT_SECONDS = 5;

export const contractRoutes = {
  name: 'serveContract',
  handler: 'serve-contract',
  // It reads the generated document and Swagger UI's files; no table, no secret, no queue.
  tableActions: [],
  method: 'GET',
  // The network connector's document too: one more path of this function, not a function of its own.
  paths: [DOCUMENT_PATH, REFERENCE_PATH, REFERENCE_FILES_PATH, NETWORK_DOCUMENT_PATH],
} as const satisfies FunctionDefinition & { readonly method: HttpMethod; readonly paths: readonly string[] };

/** The environment variable of the stage's token endpoint, when it is not the local issuer's. */
export const TOKEN_URL_ENV = 'TOKEN_URL';
