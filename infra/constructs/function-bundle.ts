/**
 * How every function's code is built: one esbuild call through esbuild's own API, as the asset's
 * local bundling (Docker is never needed), in a plain Node process so that esbuild's asynchronous
 * API can run the plugin of sdk-rewrites.ts. NodejsFunction ran the same build through
 * `npx --no-install esbuild`, an npm process per function: about half a second each, 47 of the
 * 101 s `npm run synth:all` took (docs/testing.md, "CI's time").
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import type { BuildOptions } from 'esbuild';
import type { FunctionDefinition } from '../../functions/routes';
import { ENV } from '../../shared/runtime/env-names';
import { handlerEntry, REPO_ROOT, TSCONFIG } from '../paths';

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

/** The build that runs sdk-rewrites.ts's plugin, asynchronous, as a process (≈0.1 s) to wait for. */
const SDK_REWRITES_BUILDER = path.join(REPO_ROOT, 'infra', 'constructs', 'sdk-rewrites.ts');

function buildWithSchemaKeysPlugin(options: BuildOptions): void {
  // Node 24 strips the file's types by default; the flag makes Node 22 do so too.
  execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', SDK_REWRITES_BUILDER], {
    input: JSON.stringify(options),
    stdio: ['pipe', 'inherit', 'inherit'],
  });
}

/**
 * The local bundling of one function. CDK keys its cache of bundles by the bundling settings as JSON,
 * so the build's options are fields of this object: each function gets its own bundle, and `synth:all`
 * builds each once for every stage.
 */
class EsbuildBundling implements ILocalBundling {
  constructor(
    readonly build: BuildOptions,
    readonly besideBundle: readonly PackageFiles[],
  ) {}

  tryBundle(outputDir: string): boolean {
    buildWithSchemaKeysPlugin({ ...this.build, outfile: path.join(outputDir, BUNDLE_FILE) });
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
