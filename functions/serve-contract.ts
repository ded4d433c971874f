/**
 * GET /openapi.json, GET /docs and its files: the API's description, and GET /network/openapi.json,
 * the network connector's; without a token (functions/contract.ts).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { contractHandler } from '../shared/http/contract-pages';
import { runtimeConfig } from '../shared/runtime/config';
import document from '../shared/schemas/generated/openapi.json' with { type: 'json' };
import networkDocument from '../shared/schemas/generated/network-openapi.json' with { type: 'json' };
import { TOKEN_URL_ENV } from './contract';
import { routesFor } from './routes';

// Swagger UI's files, found as Node finds the package: in node_modules locally, and in the Lambda
// bundle, where the stack copies them (infra/constructs/contract-function.ts).
const swaggerUiDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export const handler = contractHandler({
  document,
  networkDocument,
  operations: routesFor(runtimeConfig().sandboxEnabled).flatMap((route) =>
    route.paths.map((routePath) => ({ method: route.method, path: routePath })),
  ),
  tokenUrl: process.env[TOKEN_URL_ENV],
  swaggerUiDir,
});
