/**
 * infra/constructs/sdk-schema-keys.ts: the SDK's shapes with their computed trait keys written as the
 * strings they name, so esbuild can drop those no command reaches (test/unit/dependencies.test.ts
 * weighs the bundles that come of it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { inlineSchemaKeys, sdkSchemaKeysPlugin } from '../../infra/constructs/sdk-schema-keys';

const SCHEMAS = [
  'const _hH = "httpHeader";',
  'const _xF = "xmlFlattened";',
  'export var Used$ = [3, "n", "Used", 0, ["A"], [[0, { [_hH]: "x-a", [_xF]: 1 }]]];',
  'export var Unused$ = [3, "n", "Unused", 0, ["B"], [[0, { [_hH]: "x-b" }]]];',
  'export var Other$ = [3, "n", "Other", { [notAConstant]: 1 }, [], []];',
].join('\n');

test('a computed key naming a string constant becomes that string; any other is left as it is', () => {
  const inlined = inlineSchemaKeys(SCHEMAS);
  expect(inlined).toContain('[[0, { "httpHeader": "x-a", "xmlFlattened": 1 }]]');
  expect(inlined).toContain('{ [notAConstant]: 1 }');
  expect(inlined).not.toContain('[_hH]');
});

test('with the plugin, a bundle keeps the shapes it uses and drops the others', async () => {
  const root = mkdtempSync(path.join(tmpdir(), 'sdk-schema-keys-'));
  const schemas = path.join(root, 'node_modules', '@aws-sdk', 'client-x', 'dist-es', 'schemas', 'schemas_0.js');
  mkdirSync(path.dirname(schemas), { recursive: true });
  writeFileSync(schemas, SCHEMAS);
  const bundled = async (plugins: Plugin[]) => {
    const result = await build({
      stdin: { contents: `import { Used$ } from ${JSON.stringify(schemas)}; console.log(Used$);`, resolveDir: root },
      bundle: true,
      write: false,
      format: 'esm',
      logLevel: 'silent',
      plugins,
    });
    return result.outputFiles[0]!.text;
  };
  // Without it esbuild keeps every shape with a computed key: the reason for the plugin.
  expect(await bundled([])).toContain('"Unused"');
  const withPlugin = await bundled([sdkSchemaKeysPlugin]);
  expect(withPlugin).toContain('"Used"');
  expect(withPlugin).not.toContain('"Unused"');
  rmSync(root, { recursive: true });
});
