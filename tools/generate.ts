/**
 * `npm run generate`: writes shared/schemas/generated/ (not committed) from the schemas and the route
 * table: the request validators (tools/validators.ts), the OpenAPI document and its TypeScript types
 * (tools/openapi/files.ts). Files nothing produces any more are removed. Then builds the dashboard
 * into dist/dashboard/ (tools/build-dashboard.ts). `npm start`, `npm test`, `npm run typecheck` and
 * the CDK app run it first.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DASHBOARD_ASSETS_DIR } from '../infra/paths';
import { buildDashboard } from './build-dashboard';
import { generatedOpenApiFiles } from './openapi/files';
import { GENERATED_DIR } from './schema-modules';
import { generatedValidatorFiles } from './validators';

const files = new Map([...(await generatedValidatorFiles()), ...(await generatedOpenApiFiles())]);
mkdirSync(GENERATED_DIR, { recursive: true });
for (const stale of readdirSync(GENERATED_DIR)) {
  if (!files.has(path.join(GENERATED_DIR, stale))) rmSync(path.join(GENERATED_DIR, stale));
}
for (const [file, content] of files) writeFileSync(file, content);
console.log(`${files.size} files in ${path.relative(process.cwd(), GENERATED_DIR)}`);

await buildDashboard();
console.log(`dashboard built in ${path.relative(process.cwd(), DASHBOARD_ASSETS_DIR)}`);
