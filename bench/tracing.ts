/**
 * `npm run bench:tracing`: what each way of tracing adds to a Lambda bundle (docs/tracing.md), read
 * from esbuild's metafile of a route's and a worker's bundle built as the stack builds them
 * (infra/constructs/function-bundle.ts: minified ES module for Node 24, the same aliases and
 * externals), by the bytes each input leaves in the output:
 *
 * - X-Ray: shared/observability/xray.ts;
 * - option A (the ADOT layer registers the provider): shared/observability/otel.ts and @opentelemetry/api;
 * - option B's further cost without its exporter (not installed): the SDK's tracer provider,
 *   the AsyncLocalStorage context manager and the W3C propagator, registered at module load.
 *
 * Today's bundles carry both tracers (telemetry.ts picks one from TRACING), so they pay X-Ray and A.
 */
import path from 'node:path';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_ALIASES } from '../infra/constructs/function-bundle';
import { handlerEntry, REPO_ROOT } from '../infra/paths';

const HANDLERS = ['get-payment', 'settle-payment'];

/** Option B's registration, as otel.ts would do it at module load (exporter aside). */
const OPTION_B = `
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { TracerProvider } from '@opentelemetry/sdk-trace';
context.setGlobalContextManager(new AsyncLocalStorageContextManager());
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(new TracerProvider());
`;

async function bundle(entry: string, withOptionB: boolean): Promise<{ bytes: number; metafile: Metafile }> {
  const contents = `export { handler } from ${JSON.stringify(entry)};${withOptionB ? OPTION_B : ''}`;
  const result = await build({
    stdin: { contents, resolveDir: REPO_ROOT, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    write: false,
    outfile: 'index.mjs',
    format: 'esm',
    platform: 'node',
    target: 'node24',
    minify: true,
    mainFields: ['module', 'main'],
    alias: BUNDLE_ALIASES as Record<string, string>,
    tsconfig: path.join(REPO_ROOT, 'tsconfig.json'),
    metafile: true,
    logLevel: 'warning',
  });
  return { bytes: result.outputFiles[0]!.contents.byteLength, metafile: result.metafile };
}

/** Bytes the inputs whose path matches `pattern` leave in the bundle. */
function bytesOf(metafile: Metafile, pattern: RegExp): number {
  const [output] = Object.values(metafile.outputs);
  return Object.entries(output!.inputs)
    .filter(([input]) => pattern.test(input))
    .reduce((sum, [, { bytesInOutput }]) => sum + bytesInOutput, 0);
}

const XRAY = /shared\/observability\/xray\.ts$/;
const OPTION_A = /(shared\/observability\/otel\.ts|@opentelemetry\/api\/)/;
const SDK = /@opentelemetry\/(sdk-trace|core|resources|context-async-hooks|semantic-conventions)\//;

console.log(`Node ${process.version}, ${process.platform}-${process.arch}`);
for (const handler of HANDLERS) {
  const today = await bundle(handlerEntry(handler), false);
  const withB = await bundle(handlerEntry(handler), true);
  console.log(
    JSON.stringify({
      handler,
      bundleBytes: today.bytes,
      xray: bytesOf(today.metafile, XRAY),
      optionA: bytesOf(today.metafile, OPTION_A),
      otelTs: bytesOf(today.metafile, /shared\/observability\/otel\.ts$/),
      optionBWithoutExporter: bytesOf(withB.metafile, OPTION_A) + bytesOf(withB.metafile, SDK),
      optionBBundleGrowth: withB.bytes - today.bytes,
    }),
  );
}
