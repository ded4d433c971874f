/**
 * How every function's code is built: through esbuild's own API, as the asset's local bundling
 * (Docker is never needed), in a plain Node process so that esbuild's asynchronous API can run the
 * plugin of bundle-rewrites.ts, and for all the handlers in one call (bundlesBuiltWith). NodejsFunction
 * ran the same build through `npx --no-install esbuild`, an npm process per function: about half a
 * second each, 47 of the 101 s `npm run synth:all` took (docs/testing.md, "CI's time").
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';
import { isRequiredBuiltinSource } from './bundle-rewrites';
import type { FunctionDefinition } from '../../functions/routes';
import { ENV } from '../../shared/runtime/env-names';
import { FUNCTIONS_DIR, handlerEntry, REPO_ROOT, TSCONFIG } from '../paths';

/**
 * esbuild emits ESM, where `require` does not exist; a CommonJS dependency bundled into the output
 * that requires one of Node's modules still calls it, so the banner recreates it (none does today:
 * pngjs did, until the QR functions took qrcode's symbol builder alone).
 */
const ESM_REQUIRE_BANNER = "import { createRequire } from 'module';const require = createRequire(import.meta.url);";

/**
 * Packages the bundles take from this repository instead (see each file). Lambda's credentials are
 * in the environment, so the SDK's default credential chain is replaced by
 * shared/runtime/lambda-credentials.ts (≈100 KB less per bundle); DynamoDB's endpoint discovery, which
 * no command of ours runs, by shared/runtime/no-endpoint-discovery.ts (≈9 KB); the event streams no
 * operation of ours sends, which S3's client loads at creation, by shared/runtime/no-event-streams.ts
 * (≈15 KB in the functions that touch files). esbuild resolves the replacements from the project root.
 */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './shared/runtime/lambda-credentials.ts',
  '@aws-sdk/middleware-endpoint-discovery': './shared/runtime/no-endpoint-discovery.ts',
  '@smithy/core/event-streams': './shared/runtime/no-event-streams.ts',
};

/** Who records a stage's traces (shared/observability/telemetry.ts): X-Ray, or OpenTelemetry under ADOT. */
export type BundleTracer = 'xray' | 'otel';

/** Prefer the ESM build of dependencies that ship both (Middy, the AWS SDK). */
export const BUNDLE_MAIN_FIELDS: readonly string[] = ['module', 'main'];

/** The module Lambda loads: the function's handler is `index.handler`, its export `handler`. */
const BUNDLE_FILE = 'index.mjs';
export const BUNDLE_HANDLER = 'index.handler';

/** Files of a package that the function reads at run time, copied beside its bundle (where Node finds them). */
export interface PackageFiles {
  readonly packageName: string;
  readonly files: readonly string[];
}

/**
 * The bundle of a function's entry: minified ESM for Node 24 with its source map beside it (the
 * functions run with --enable-source-maps), our SDK bundled in rather than the runtime's, the
 * aliases above, and the root tsconfig for every entry alike. The stage's tracer is written in as
 * `TRACING`, so that the other one is left out (shared/observability/telemetry.ts); the stack sets
 * the same value in the function's environment.
 */
export function bundleOptions(definition: FunctionDefinition, tracer: BundleTracer = 'xray'): BuildOptions {
  return {
    entryPoints: [handlerEntry(definition.handler)],
    absWorkingDir: REPO_ROOT,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'esm',
    minify: true,
    sourcemap: true,
    mainFields: [...BUNDLE_MAIN_FIELDS],
    alias: { ...BUNDLE_ALIASES },
    define: { [`process.env.${ENV.tracing}`]: JSON.stringify(tracer) },
    tsconfig: TSCONFIG,
    banner: { js: ESM_REQUIRE_BANNER },
    logLevel: 'warning',
  };
}

/** The build that runs bundle-rewrites.ts's plugin, asynchronous, as a process (≈0.1 s) to wait for. */
const BUNDLE_REWRITES_BUILDER = path.join(REPO_ROOT, 'infra', 'constructs', 'bundle-rewrites.ts');

function buildWithRewrites(options: BuildOptions): void {
  // Node 24 strips the file's types by default; the flag makes Node 22 do so too.
  execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', BUNDLE_REWRITES_BUILDER], {
    input: JSON.stringify(options),
    stdio: ['pipe', 'inherit', 'inherit'],
  });
}

/** Every handler's entry: the modules of functions/ that export a `handler` (not the tables beside them). */
const handlerEntries = (): string[] =>
  readdirSync(FUNCTIONS_DIR)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(FUNCTIONS_DIR, file))
    .filter((file) => /^export (const|async function|function) handler\b/m.test(readFileSync(file, 'utf8')));

/** The folders where every handler was bundled, by the options they were bundled with (their entry aside). */
const bundledTogether = new Map<string, string>();

/**
 * The folder that holds every handler's bundle built with `options` (its entry aside), as
 * `<handler>.mjs` with its map: one esbuild call for all of them, made once per process and set of
 * options. esbuild links each entry's bundle apart, so each is the one a call of its own would make;
 * but it reads and parses the SDK once, where a call per function took about 0.4 s each (30 s of a
 * stage's synthesis, in `cdk deploy` and in CI).
 */
function bundlesBuiltWith(options: BuildOptions): string {
  const { entryPoints: _entry, ...shared } = options;
  const key = JSON.stringify(shared);
  const built = bundledTogether.get(key);
  if (built) return built;
  const dir = mkdtempSync(path.join(tmpdir(), 'breb-bundles-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  buildWithRewrites({ ...shared, entryPoints: handlerEntries(), outdir: dir, outExtension: { '.js': '.mjs' } });
  bundledTogether.set(key, dir);
  return dir;
}

/**
 * Copies `handler`'s bundle out of the folder where all were built into `outputDir` as Lambda loads
 * it (index.mjs), its source map beside it with the sources' paths made relative to the new place
 * (the modules that require Node's own are no files: their names stay).
 */
function copyBundle(builtDir: string, handler: string, outputDir: string): void {
  const code = readFileSync(path.join(builtDir, `${handler}.mjs`), 'utf8');
  const mapComment = `//# sourceMappingURL=${handler}.mjs.map`;
  if (!code.trimEnd().endsWith(mapComment)) throw new Error(`The bundle of ${handler} names no source map`);
  writeFileSync(
    path.join(outputDir, BUNDLE_FILE),
    code.replace(new RegExp(`${mapComment}\\s*$`), () => `//# sourceMappingURL=${BUNDLE_FILE}.map\n`),
  );
  // The map as esbuild writes it, its sources' line alone changed: the bytes (and the asset's hash)
  // are those of a build of the function alone.
  const map = readFileSync(path.join(builtDir, `${handler}.mjs.map`), 'utf8');
  const sourcesLine = /^ {2}"sources": (\[.*\]),$/m.exec(map);
  if (!sourcesLine) throw new Error(`The source map of ${handler} has no sources line`);
  const moved = (JSON.parse(sourcesLine[1]!) as string[]).map((source) =>
    JSON.stringify(isRequiredBuiltinSource(source) ? source : path.relative(outputDir, path.resolve(builtDir, source))),
  );
  const relocated = map.replace(sourcesLine[0], () => `  "sources": [${moved.join(', ')}],`);
  writeFileSync(path.join(outputDir, `${BUNDLE_FILE}.map`), relocated);
}

/**
 * The local bundling of one function. CDK keys its cache of bundles by the bundling settings as JSON,
 * so the build's options are fields of this object: each function gets its own bundle, and `synth:all`
 * copies each once for every stage.
 */
class EsbuildBundling implements ILocalBundling {
  constructor(
    readonly build: BuildOptions,
    readonly besideBundle: readonly PackageFiles[],
  ) {}

  tryBundle(outputDir: string): boolean {
    const [entry] = this.build.entryPoints as string[];
    copyBundle(bundlesBuiltWith(this.build), path.basename(entry!, '.ts'), outputDir);
    for (const { packageName, files } of this.besideBundle) {
      const to = path.join(outputDir, 'node_modules', packageName);
      mkdirSync(to, { recursive: true });
      for (const file of files) cpSync(path.join(REPO_ROOT, 'node_modules', packageName, file), path.join(to, file));
    }
    // Built, or esbuild threw (and synthesis with it): never a fallback to Docker.
    return true;
  }
}

/** The code asset of a function: its bundle (and the package files it reads), hashed by what was built. */
export function functionCode(
  definition: FunctionDefinition,
  tracer: BundleTracer,
  besideBundle: readonly PackageFiles[] = [],
): Code {
  return Code.fromAsset(REPO_ROOT, {
    assetHashType: AssetHashType.OUTPUT,
    bundling: {
      // Required by CDK, never pulled: the local bundling above always builds or throws.
      image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
      local: new EsbuildBundling(bundleOptions(definition, tracer), besideBundle),
    },
  });
}
