/**
 * `npm run generate:validators`: writes shared/schemas/generated/ from the request schemas of
 * shared/schemas/*.ts (tools/validators.ts), and removes files no schema module produces any more.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generatedValidatorFiles, VALIDATORS_DIR } from './validators';

const files = await generatedValidatorFiles();
mkdirSync(VALIDATORS_DIR, { recursive: true });
for (const stale of readdirSync(VALIDATORS_DIR)) {
  if (!files.has(path.join(VALIDATORS_DIR, stale))) rmSync(path.join(VALIDATORS_DIR, stale));
}
for (const [file, content] of files) writeFileSync(file, content);
console.log(`${files.size} files in ${path.relative(process.cwd(), VALIDATORS_DIR)}`);
