/**
 * The modules of shared/schemas and their exports, loaded as they are: the one place the generators
 * find schemas. The request validators take the exports named `…RequestSchema` and `…QuerySchema`
 * (tools/validators.ts); the OpenAPI document takes any export named `…Schema` that a route names,
 * and every schema those contain (tools/openapi/).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../infra/paths';

export const SCHEMAS_DIR = path.join(REPO_ROOT, 'shared', 'schemas');
/** What `npm run generate` writes: validators, the OpenAPI document and its TypeScript types. */
export const GENERATED_DIR = path.join(SCHEMAS_DIR, 'generated');

export interface LoadedSchemaModule {
  /** File name without extension, e.g. `keys`. */
  readonly name: string;
  readonly exports: Readonly<Record<string, unknown>>;
}

/** Every module of shared/schemas, in file-name order. */
export async function schemaModules(): Promise<LoadedSchemaModule[]> {
  const files = readdirSync(SCHEMAS_DIR)
    .filter((file) => file.endsWith('.ts'))
    .sort();
  const modules: LoadedSchemaModule[] = [];
  for (const file of files) {
    const exports = (await import(pathToFileURL(path.join(SCHEMAS_DIR, file)).href)) as Record<string, unknown>;
    modules.push({ name: file.slice(0, -'.ts'.length), exports });
  }
  return modules;
}

/** Every schema of shared/schemas by its export name (`customerSchema`); a name used twice is refused. */
export async function namedSchemas(): Promise<ReadonlyMap<string, object>> {
  const schemas = new Map<string, object>();
  for (const module of await schemaModules()) {
    for (const [name, value] of Object.entries(module.exports)) {
      if (!name.endsWith('Schema') || typeof value !== 'object' || value === null) continue;
      if (schemas.has(name)) throw new Error(`Two modules of shared/schemas export ${name}`);
      schemas.set(name, value);
    }
  }
  return schemas;
}
