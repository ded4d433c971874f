/**
 * infra/constructs/bundle-rewrites.ts: the SDK's shapes with their computed trait keys written as the
 * strings they name, so esbuild can drop those no command reaches; only the errors our code tells
 * apart by class registered; the native hashes alone (test/unit/dependencies.test.ts weighs the
 * bundles that come of it, test/unit/bundled-s3-client.test.ts runs them).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import {
  inlineSchemaKeys,
  keepRegisteredErrors,
  nativeHashesOnly,
  REQUIRED_NODE_MODULES,
  SDK_ERRORS_KEPT,
  bundleRewritesPlugin,
} from '../../infra/constructs/bundle-rewrites';
import { REPO_ROOT } from '../../infra/paths';
import { runBundledProbe } from '../support/bundled-probe';
import { testDynamoDbEndpoint } from '../support/worker-dynamodb';

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
  const root = mkdtempSync(path.join(tmpdir(), 'bundle-rewrites-'));
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
  const withPlugin = await bundled([bundleRewritesPlugin]);
  expect(withPlugin).toContain('"Used"');
  expect(withPlugin).not.toContain('"Unused"');
  rmSync(root, { recursive: true });
});

test('only the kept errors stay registered, beside the base exception', () => {
  const schemas = [
    '_s_registry.registerError(XServiceException$, XServiceException);',
    'n0_registry.registerError(ConditionalCheckFailedException$, ConditionalCheckFailedException);',
    'n0_registry.registerError(BackupInUseException$, BackupInUseException);',
  ].join('\n');
  const kept = keepRegisteredErrors(schemas);
  expect(kept).toContain('registerError(XServiceException$, XServiceException)');
  expect(kept).toContain('registerError(ConditionalCheckFailedException$, ConditionalCheckFailedException)');
  expect(kept).not.toContain('BackupInUseException');
});

/** Every file ending in `extension` under `dir`. */
const sourcesUnder = (dir: string, extension = '.ts'): string[] =>
  readdirSync(path.join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith(extension))
    .map((file) => readFileSync(path.join(REPO_ROOT, dir, file), 'utf8'));

test("the kept errors are those the bundled code and libraries tell apart by class, and the SDK's retryable ones", () => {
  const imported = [...sourcesUnder('shared'), ...sourcesUnder('functions')].flatMap((source) =>
    [...source.matchAll(/import \{([^}]*)\} from '@aws-sdk\/client-[\w-]+'/g)].flatMap((match) =>
      match[1]!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => /^\w+Exception$/.test(name)),
    ),
  );
  const clients = readdirSync(path.join(REPO_ROOT, 'node_modules', '@aws-sdk')).filter((name) =>
    name.startsWith('client-'),
  );
  const retryable = clients.flatMap((client) => {
    const errors = readFileSync(
      path.join(REPO_ROOT, 'node_modules', '@aws-sdk', client, 'dist-es', 'models', 'errors.js'),
      'utf8',
    );
    return [...errors.matchAll(/export class (\w+) extends[^}]*?\$retryable/g)].map((match) => match[1]!);
  });
  // The libraries we bundle that tell an SDK error apart by its class.
  const libraries = ['@aws-lambda-powertools', '@aws-sdk'].flatMap((scope) =>
    readdirSync(path.join(REPO_ROOT, 'node_modules', scope))
      .filter((name) => scope === '@aws-lambda-powertools' || name.startsWith('lib-'))
      .map((name) => path.join('node_modules', scope, name)),
  );
  const checkedByLibraries = libraries.flatMap((library) =>
    sourcesUnder(library, '.js').flatMap((source) =>
      [...source.matchAll(/instanceof ([A-Z]\w*Exception)\b/g)].map((match) => match[1]!),
    ),
  );
  expect(imported.length).toBeGreaterThan(0);
  expect(checkedByLibraries).toContain('ResourceNotFoundException');
  expect(retryable).toEqual(['ReplicatedWriteConflictException']);
  expect([...new Set([...imported, ...checkedByLibraries, ...retryable])].sort()).toEqual([...SDK_ERRORS_KEPT].sort());
});

/**
 * Bundled as a function is (its options, the plugin), against DynamoDB Local: an error whose
 * registration went still reaches the code with its name, fault and status, as the base exception;
 * a kept one as its own class.
 */
const ERRORS_PROBE = `
import {
  ConditionalCheckFailedException, CreateTableCommand, DynamoDBClient, DynamoDBServiceException,
  PutItemCommand,
} from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ endpoint: process.env.PROBE_ENDPOINT, region: 'us-east-1' });
const seen = (error) => ({
  name: error.name, fault: error.$fault, status: error.$metadata.httpStatusCode,
  base: error instanceof DynamoDBServiceException, conditional: error instanceof ConditionalCheckFailedException,
  ownClass: error.constructor !== DynamoDBServiceException, message: error.message.length > 0,
});
const table = 'probe-' + Date.now();
const create = () => client.send(new CreateTableCommand({
  TableName: table, BillingMode: 'PAY_PER_REQUEST',
  KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }],
}));
await create();
const inUse = await create().catch(seen);
const put = () => client.send(new PutItemCommand({ TableName: table, Item: { id: { S: 'a' } }, ConditionExpression: 'attribute_not_exists(id)' }));
await put();
const conditional = await put().catch(seen);
console.log(JSON.stringify({ inUse, conditional }));
`;

test("an error left unregistered reaches the code as the client's base exception, with its name", async () => {
  const run = (plugins: Plugin[]) => runBundledProbe(ERRORS_PROBE, { PROBE_ENDPOINT: testDynamoDbEndpoint() }, plugins);
  const asBuilt = await run([bundleRewritesPlugin]);
  const inUse = {
    name: 'ResourceInUseException',
    fault: 'client',
    status: 400,
    base: true,
    conditional: false,
    message: true,
  };
  expect(asBuilt.output.inUse).toEqual({ ...inUse, ownClass: false });
  expect(asBuilt.output.conditional).toEqual({
    ...inUse,
    name: 'ConditionalCheckFailedException',
    conditional: true,
    ownClass: true,
  });
  expect(asBuilt.code).not.toContain('BackupInUseException');
  // Without the plugin, every error has its class: the bytes the plugin saves.
  const whole = await run([]);
  expect(whole.output.inUse).toEqual({ ...inUse, ownClass: true });
  expect(whole.code).toContain('BackupInUseException');
});

test("the SDK's Node hash classes take the native class alone; a module of another shape is left as it is", () => {
  const modules = [
    'node_modules/@smithy/core/dist-es/submodules/checksum/sha256/Sha256Node.js',
    'node_modules/@smithy/core/dist-es/submodules/checksum/md5/Md5Node.js',
    'node_modules/@aws-sdk/checksums/dist-es/submodules/sha/sha1/Sha1Node.js',
  ];
  for (const module of modules) {
    const source = readFileSync(path.join(REPO_ROOT, module), 'utf8');
    const rewritten = nativeHashesOnly(source);
    expect({ module, fallback: /\w+Js\b/.test(rewritten) }).toEqual({ module, fallback: false });
    expect(rewritten).toMatch(/^export const \w+Node = buildNativeClass\(\);$/m);
  }
  const other = 'export const X = cond ? a() : b;';
  expect(nativeHashesOnly(other)).toBe(other);
});

/** Node's modules imported the ways our dependencies import them: named, default, bare name, namespace. */
const NODE_MODULES_PROBE = `
import { STATUS_CODES } from 'node:http';
import { METHODS } from 'http';
import https from 'node:https';
import { createHash } from 'crypto';
import * as fs from 'node:fs';
import { env } from 'node:process';
const lazilyLoaded = process.moduleLoadList.filter((module) => /undici|http2/.test(module));
console.log(JSON.stringify({
  notFound: STATUS_CODES[404],
  get: METHODS.includes('GET'),
  request: typeof https.request,
  hash: createHash('sha256').update('a').digest('hex').slice(0, 8),
  exists: fs.existsSync(process.execPath),
  path: env.PATH === process.env.PATH,
  lazilyLoaded,
}));
`;

test('node:http is required, so what it loads lazily stays unloaded; each import reads the same', async () => {
  const asBuilt = await runBundledProbe(NODE_MODULES_PROBE, {});
  const read = { notFound: 'Not Found', get: true, request: 'function', hash: 'ca978112', exists: true, path: true };
  expect(asBuilt.output).toEqual({ ...read, lazilyLoaded: [] });
  // What stays imported: the banner's module, which defines `require`, and Node's other modules.
  const imports = [...asBuilt.code.matchAll(/\bfrom\s*["']([^"']+)["']/g)].map((match) => match[1]);
  expect(imports.sort()).toEqual(['crypto', 'module', 'node:fs', 'node:https', 'node:process']);
  // Imported, node:http's module loads undici and HTTP/2, for its WebSocket and kin.
  const imported = await runBundledProbe(NODE_MODULES_PROBE, {}, []);
  expect(imported.output).toEqual({ ...read, lazilyLoaded: expect.arrayContaining([expect.stringMatching(/undici/)]) });
});

test('each module required instead is one whose import loads more of Node than requiring it does', () => {
  const loadedBy = (code: string): number =>
    Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' }));
  for (const name of REQUIRED_NODE_MODULES) {
    const count = (load: string) =>
      loadedBy(
        `import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);` +
          `const before = process.moduleLoadList.length; ${load};` +
          `process.stdout.write(String(process.moduleLoadList.length - before));`,
      );
    const [imported, required] = [count(`await import('node:${name}')`), count(`require('node:${name}')`)];
    expect({ name, loadsMore: imported - required > 10 }).toEqual({ name, loadsMore: true });
  }
});
