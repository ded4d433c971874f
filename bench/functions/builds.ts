/**
 * The two builds the function benchmark compares.
 *
 * - **optimized**: the Lambda bundles themselves. The CDK stack is synthesized with bundling, so
 *   every function is bundled with the settings of infra/constructs/function-bundle.ts
 *   (minified ESM for Node 24, the credential alias, source maps beside the bundle).
 * - **baseline**: the same handler files built the usual way before this optimisation: our
 *   TypeScript compiled by esbuild into one unminified ES module per handler, every package left
 *   external and loaded by Node from node_modules (the AWS SDK's whole CommonJS build, the full
 *   default credential chain, Middy, Powertools), with modules swapped for what the functions
 *   used before: request validators compiled by AJV at cold start (bench/functions/baseline/
 *   compiled-at-cold-start.ts), Powertools' Tracer over the X-Ray SDK for tracing
 *   (bench/functions/baseline/xray.ts; both builds log and count with Powertools), and the
 *   Idempotency-Key claimed before every POST's work and completed after it
 *   (bench/functions/baseline/idempotency.ts). Everything else is the current code.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { App } from 'aws-cdk-lib';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { build, type Plugin } from 'esbuild';
import type { RouteDefinition } from '../../functions/routes';
import { handlerEntry, REPO_ROOT } from '../../infra/paths';
import { BrebApiStack } from '../../infra/stack';
import { stageSettings } from '../../infra/stages';
import { requestSchemaModules, VALIDATORS_DIR } from '../../tools/validators';

export const BENCH_DIST = path.join(REPO_ROOT, 'dist', 'bench');
const BENCH_FUNCTIONS_DIR = path.join(REPO_ROOT, 'bench', 'functions');
const BASELINE_DIR = path.join(BENCH_FUNCTIONS_DIR, 'baseline');

export interface Artefact {
  /** The ES module exporting `handler`. */
  readonly file: string;
  /** Its size in bytes (for a bundle: minified, without its source map). */
  readonly bytes: number;
}

/**
 * Bundles routes exactly as `cdk synth` does for the stack (stage dev: sandbox routes included), in
 * `outdir`. CDK runs esbuild for one function after the other: bench/functions/synth.ts calls this in
 * child processes, each for a share of the routes, so that both cores bundle.
 */
export function synthesizeBundles(routes: readonly RouteDefinition[], outdir: string): Map<string, Artefact> {
  rmSync(outdir, { recursive: true, force: true });
  const cdkContext = JSON.parse(readFileSync(path.join(REPO_ROOT, 'cdk.json'), 'utf8')).context;
  const app = new App({ outdir, context: { ...cdkContext, stage: 'dev', 'aws:cdk:enable-asset-metadata': true } });
  const stack = new BrebApiStack(app, 'BrebMerchantApi-bench', { settings: stageSettings('dev'), routes });
  app.synth();
  const bundles = new Map<string, Artefact>();
  for (const route of routes) {
    const fn = stack.functions.get(route.name);
    if (!fn) throw new Error(`The stack has no function for ${route.name}`);
    const assetPath = (fn.function.node.defaultChild as CfnFunction).getMetadata('aws:asset:path') as string;
    const file = path.join(outdir, assetPath, 'index.mjs');
    bundles.set(route.name, { file, bytes: statSync(file).size });
  }
  return bundles;
}

/** The Lambda bundle of every route, synthesized by `processes` child processes at once. */
export async function buildLambdaBundles(
  routes: readonly RouteDefinition[],
  processes = 2,
): Promise<Map<string, Artefact>> {
  const shares = Array.from({ length: Math.min(processes, routes.length) }, (_, share) =>
    routes.filter((_route, index) => index % processes === share).map((route) => route.name),
  );
  const built = await Promise.all(
    shares.map(
      (names, share) =>
        new Promise<[string, Artefact][]>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', path.join(BENCH_FUNCTIONS_DIR, 'synth.ts')], {
            cwd: REPO_ROOT,
            env: {
              ...process.env,
              BENCH_SYNTH: JSON.stringify({ routes: names, outdir: path.join(BENCH_DIST, `cdk.out.${share}`) }),
            },
            // CDK reports its bundling on stderr.
            stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
          });
          let answer: [string, Artefact][] | undefined;
          child.on('message', (message: [string, Artefact][]) => {
            answer = message;
          });
          child.on('exit', (code) => (answer ? resolve(answer) : reject(new Error(`synthesis exited with ${code}`))));
        }),
    ),
  );
  return new Map(built.flat());
}

/** Swaps the modules the baseline takes from before (see the header). */
async function baselineModules(): Promise<Plugin> {
  const modules = await requestSchemaModules();
  const schemaModule = (name: string) => path.join(REPO_ROOT, 'shared', 'schemas', `${name}.ts`);
  const compiler = path.join(BASELINE_DIR, 'compiled-at-cold-start.ts');
  const swapped = new Set<'telemetry' | 'validators' | 'idempotency'>();
  return {
    name: 'baseline-modules',
    setup(plugin) {
      plugin.onStart(() => swapped.clear());
      // The library the functions traced with before: Powertools' Tracer (with the X-Ray SDK).
      plugin.onLoad({ filter: /[\\/]shared[\\/]observability[\\/]xray\.ts$/ }, (args) => {
        swapped.add('telemetry');
        return {
          contents: readFileSync(path.join(BASELINE_DIR, path.basename(args.path)), 'utf8'),
          resolveDir: BASELINE_DIR,
          loader: 'ts',
        };
      });
      // The chain's Idempotency-Key (only shared/http/handler.ts's import: the baseline module itself
      // imports the current one, which it wraps).
      plugin.onResolve({ filter: /^\.\/idempotency$/ }, (args) => {
        if (!/[\\/]shared[\\/]http[\\/]handler\.ts$/.test(args.importer)) return undefined;
        swapped.add('idempotency');
        return { path: path.join(BASELINE_DIR, 'idempotency.ts') };
      });
      plugin.onLoad({ filter: /[\\/]shared[\\/]schemas[\\/]generated[\\/][\w-]+\.js$/ }, (args) => {
        swapped.add('validators');
        const name = path.basename(args.path, '.js');
        const module = modules.find((m) => m.name === name);
        if (!module) throw new Error(`No schema module for ${path.relative(VALIDATORS_DIR, args.path)}`);
        const lines = [
          `import { compiledAtColdStart } from ${JSON.stringify(compiler)};`,
          `import * as schemas from ${JSON.stringify(schemaModule(name))};`,
          ...module.schemas.map(
            (s) => `export const ${s.validatorName} = compiledAtColdStart(schemas.${s.schemaName}, '${s.part}');`,
          ),
        ];
        return { contents: lines.join('\n'), resolveDir: REPO_ROOT, loader: 'ts' };
      });
      plugin.onEnd((result) => {
        // Every handler logs, validates (its query at least) and runs the chain with its
        // Idempotency-Key: a build that swapped less than all three matched a moved file no more,
        // and would measure our own code against itself.
        if (result.errors.length === 0 && swapped.size < 3) {
          throw new Error(`The baseline build swapped only ${[...swapped].join(', ') || 'nothing'}: check its filters`);
        }
      });
    },
  };
}

/**
 * Builds entry files (absolute paths) the unbundled way into dist/bench/<name>: with the baseline's
 * modules (see the header), or, with `baseline` false, the current code built alike (for the
 * middleware benchmark, which compares the two chains built the same way). Answers each entry's
 * output file.
 */
export async function buildUnbundled(
  entries: readonly string[],
  options: { readonly name: string; readonly baseline: boolean },
): Promise<Map<string, Artefact>> {
  const outdir = path.join(BENCH_DIST, options.name);
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: [...entries],
    outdir,
    outbase: REPO_ROOT,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node24',
    tsconfig: path.join(REPO_ROOT, 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning',
    plugins: options.baseline ? [await baselineModules()] : [],
  });
  const outputs = new Map<string, Artefact>();
  for (const [file, output] of Object.entries(result.metafile.outputs)) {
    if (!output.entryPoint) continue;
    outputs.set(path.join(REPO_ROOT, output.entryPoint), { file: path.join(REPO_ROOT, file), bytes: output.bytes });
  }
  return outputs;
}

/** The baseline build of every route's handler, by route name. */
export async function buildBaselineHandlers(routes: readonly RouteDefinition[]): Promise<Map<string, Artefact>> {
  const built = await buildUnbundled(
    routes.map((route) => handlerEntry(route.handler)),
    { name: 'baseline', baseline: true },
  );
  return new Map(
    routes.map((route) => {
      const artefact = built.get(handlerEntry(route.handler));
      if (!artefact) throw new Error(`No baseline build for ${route.name}`);
      return [route.name, artefact];
    }),
  );
}
