/**
 * The validators in shared/schemas/validators are generated from the schemas (infra/validators.ts):
 * this fails when a schema changed, or a request schema was added, without `npm run generate:validators`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generatedValidatorFiles, VALIDATORS_DIR } from '../../infra/validators';

const REGENERATE = 'stale: run `npm run generate:validators`';

test('the committed validators are those the current schemas generate', async () => {
  const expected = await generatedValidatorFiles();
  for (const [file, content] of expected) {
    const name = path.relative(VALIDATORS_DIR, file);
    expect({ [name]: existsSync(file) ? 'present' : `missing: ${REGENERATE}` }).toEqual({ [name]: 'present' });
    const same = readFileSync(file, 'utf8') === content;
    expect({ [name]: same ? 'up to date' : REGENERATE }).toEqual({ [name]: 'up to date' });
  }
  const extra = readdirSync(VALIDATORS_DIR).filter((name) => !expected.has(path.join(VALIDATORS_DIR, name)));
  expect(extra).toEqual([]);
}, 30_000);
