/**
 * The modules the bundles are built from, as they take them: rewritten, never changed in what a
 * function sends or gets, so that esbuild can leave out what no function of ours runs, and Node loads
 * no more than a function uses.
 *
 * - **Shapes.** Each AWS SDK client's dist-es/schemas/schemas_0.js declares every shape of its service
 *   (S3's: 538, ≈130 KB) as an array whose trait objects have computed keys naming module constants,
 *   e.g. `{ [_hH]: _xaebo }` with `const _hH = "httpHeader"`. esbuild cannot tell a computed key from
 *   a call to `toString`, so it kept every such statement: a function sending five S3 commands carried
 *   all 538 shapes (65 KB). Each key is written as the string its constant holds (inlineSchemaKeys),
 *   and the shapes no command reaches go.
 * - **Errors.** Each error shape registers itself at load, with its class: only those of
 *   SDK_ERRORS_KEPT stay registered (keepRegisteredErrors), so the others' shapes and classes go too.
 * - **Hashes.** The SHA-256, SHA-1 and MD5 classes fall back to pure-JavaScript ones where Node has
 *   no native hash, which Lambda's Node always has: they take the native class (nativeHashesOnly).
 * - **Manifests.** Each client's manifest is bundled as the one field its code reads (CLIENT_MANIFEST).
 * - **Node's modules.** node:http is required where a module imports it: importing it loads what it
 *   exports lazily, undici among them (REQUIRED_NODE_MODULES).
 *
 * esbuild runs plugins in its asynchronous API only, and CDK's local bundling is synchronous, so
 * function-bundle.ts runs this file as a Node process for each bundle (Node strips its types), which
 * builds with the options it reads from stdin. It imports nothing of this repository for that.
 */
import { readFileSync } from 'node:fs';
import { build, type BuildOptions, type Plugin } from 'esbuild';

/** The schema modules of the SDK's clients. */
const SCHEMA_MODULE = /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/;

/** `{ [_name]:` or `, [_name]:` where `_name` is a string constant of the module, written as that string. */
export function inlineSchemaKeys(source: string): string {
  const strings = new Map(
    [...source.matchAll(/^const (_\w+) = ("[^"\\\n]*");$/gm)].map((match) => [match[1]!, match[2]!]),
  );
  return source.replace(/([{,] )\[(_\w+)\]:/g, (computed: string, before: string, name: string) => {
    const value = strings.get(name);
    return value === undefined ? computed : `${before}${value}:`;
  });
}

/**
 * The service errors whose class the SDK still builds: those our code (shared/data/) and the libraries
 * we bundle (Powertools Parameters, for a missing secret) tell apart with `instanceof`, and those
 * whose class carries the `$retryable` trait the SDK's retry reads. Any
 * other error is thrown as the client's base exception (DynamoDBServiceException, KMSServiceException,
 * ...) with the same `name`, `$fault`, `$metadata`, message and fields: the SDK's own path for an
 * error its registry does not know. Each client registered every error of its service, classes and
 * all (KMS's 49): 45 KB of createPayment's bundle. test/unit/bundle-rewrites.test.ts holds the list
 * to the code's imports and to the SDK's retryable classes.
 */
export const SDK_ERRORS_KEPT: readonly string[] = [
  'ConditionalCheckFailedException',
  'TransactionCanceledException',
  'ReplicatedWriteConflictException',
  'ResourceNotFoundException',
];

/** A schemas module with the registrations of errors outside SDK_ERRORS_KEPT removed (the base exception's stays). */
export function keepRegisteredErrors(source: string): string {
  return source.replace(
    /^(\w+)_registry\.registerError\(\w+\$, (\w+)\);$/gm,
    (registration: string, registry: string, errorClass: string) =>
      registry === '_s' || SDK_ERRORS_KEPT.includes(errorClass) ? registration : '',
  );
}

/** The SDK's hash classes for Node, which take a pure-JavaScript class where Node's has no such hash. */
const NODE_HASH_MODULE = /[\\/](Sha256Node|Sha1Node|Md5Node)\.js$/;

/**
 * A hash module with the native class alone: `X = hasNativeCrypto ? buildNativeClass() : XJs` becomes
 * `X = buildNativeClass()`, and the fallback's import goes (3 to 7 KB a bundle). Where a runtime had
 * no such hash, creating one would throw instead; a module of another shape is left as it is.
 */
export function nativeHashesOnly(source: string): string {
  const fallback = /= hasNativeCrypto \? buildNativeClass\(\) : (\w+Js);/.exec(source)?.[1];
  if (!fallback) return source;
  return source
    .replace(`= hasNativeCrypto ? buildNativeClass() : ${fallback};`, '= buildNativeClass();')
    .replace(`import { ${fallback} } from "./${fallback}";\n`, '');
}

/**
 * The manifests of the SDK's clients, which each client's runtimeConfig.js imports whole (2.2 KB for
 * DynamoDB's, with its dependency list) to read one field: `version`, for the User-Agent.
 */
const CLIENT_MANIFEST = /[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]package\.json$/;

/** A client's manifest as its code reads it: the version alone. */
export const clientVersionOnly = (manifest: string): string =>
  JSON.stringify({ version: (JSON.parse(manifest) as { version: string }).version });

/**
 * The modules of Node's own that the bundles require rather than import. Node builds the ES module of
 * one of its modules by reading every export, and node:http's WebSocket, CloseEvent and MessageEvent
 * load undici when read, with HTTP/2, zlib and worker threads: `import { STATUS_CODES } from
 * 'node:http'`, in Middy's util, cost every HTTP function ≈12 ms of its import. `require` answers the
 * module's object without reading its exports, and esbuild's interop reads a named import where it is
 * used. Node's other modules stay imported: requiring them too measured no faster, and each import of
 * a required module copies its exports' names (docs/dependencies.md, "What importing a bundle loads").
 */
export const REQUIRED_NODE_MODULES: readonly string[] = ['http'];

/** One of REQUIRED_NODE_MODULES, by either of its names (`http`, `node:http`). */
const REQUIRED_NODE_MODULE = new RegExp(`^(node:)?(${REQUIRED_NODE_MODULES.join('|')})$`);

/** The namespace of the modules that stand for them. */
const REQUIRED_BUILTIN = 'required-builtin';

/** A bundle's source map names each such module `required-builtin:node:http`: a source of no file. */
export const isRequiredBuiltinSource = (source: string): boolean => source.startsWith(`${REQUIRED_BUILTIN}:`);

/** The module that stands for Node's module `name`: its object, required (the bundle's banner defines `require`). */
const requiredBuiltin = (name: string): string =>
  `module.exports = require(${JSON.stringify(name.startsWith('node:') ? name : `node:${name}`)});`;

export const bundleRewritesPlugin: Plugin = {
  name: 'bundle-rewrites',
  setup(plugin) {
    plugin.onResolve({ filter: REQUIRED_NODE_MODULE }, (args) =>
      args.kind === 'import-statement' && args.namespace !== REQUIRED_BUILTIN
        ? { path: args.path, namespace: REQUIRED_BUILTIN }
        : { path: args.path, external: true },
    );
    plugin.onLoad({ filter: /.*/, namespace: REQUIRED_BUILTIN }, (args) => ({
      contents: requiredBuiltin(args.path),
      loader: 'js',
    }));
    plugin.onLoad({ filter: SCHEMA_MODULE }, (args) => ({
      contents: keepRegisteredErrors(inlineSchemaKeys(readFileSync(args.path, 'utf8'))),
      loader: 'js',
    }));
    plugin.onLoad({ filter: NODE_HASH_MODULE }, (args) => ({
      contents: nativeHashesOnly(readFileSync(args.path, 'utf8')),
      loader: 'js',
    }));
    plugin.onLoad({ filter: CLIENT_MANIFEST }, (args) => ({
      contents: clientVersionOnly(readFileSync(args.path, 'utf8')),
      loader: 'json',
    }));
  },
};

/** Run as a process: builds the options on stdin (JSON) with the plugin, and fails as esbuild does. */
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replaceAll('\\', '/'))) {
  const options = JSON.parse(readFileSync(0, 'utf8')) as BuildOptions;
  build({ ...options, plugins: [bundleRewritesPlugin] }).catch(() => {
    process.exitCode = 1;
  });
}
