/**
 * Every function the stack deploys, bundled at once as infra/constructs/function-bundle.ts bundles
 * each, and the size each bundle may reach. test/unit/dependencies.test.ts checks the bundles against
 * these limits; `npm run bench:bundles` (bench/bundles.ts) writes them out to time their import.
 */
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { contractRoutes } from '../functions/contract';
import { networkRoutes, routes, type FunctionDefinition } from '../functions/routes';
import { personClaimsTrigger } from '../functions/triggers';
import { workers } from '../functions/workers';
import { bundleOptions } from './constructs/function-bundle';
import { bundleRewritesPlugin } from './constructs/bundle-rewrites';
import { handlerEntry } from './paths';

/** Every function of every stage: the routes (sandbox ones included), the network's, workers, the trigger, the contract. */
export const everyFunction: readonly FunctionDefinition[] = [
  ...routes,
  ...networkRoutes,
  ...workers,
  personClaimsTrigger,
  contractRoutes,
];

const KB = 1024;

/**
 * The size a bundle may reach, minified and without its source map: every kilobyte is parsed on each
 * cold start. The QR functions carry qrcode's symbol builder and the PNG writer; the functions that
 * read or write files in S3 (reports, the sponsor bank's settlement files beside them, audit copies)
 * carry the S3 client (≈75 KB with its XML protocol and checksums): they may
 * reach more.
 */
export const BUNDLE_LIMIT_BYTES = 300 * KB;
export const LARGE_BUNDLE_LIMIT_BYTES = 400 * KB;

/** The functions allowed LARGE_BUNDLE_LIMIT_BYTES: the QR codes' and the reports', and those of S3's files. */
const isQrOrFileFunction = (definition: FunctionDefinition): boolean =>
  /qr-code|report/.test(definition.handler) ||
  Boolean(definition.reportFiles?.length || definition.settlementFiles?.length || definition.auditArchive);

export const bundleLimitOf = (definition: FunctionDefinition): number =>
  isQrOrFileFunction(definition) ? LARGE_BUNDLE_LIMIT_BYTES : BUNDLE_LIMIT_BYTES;

/** One function's bundle: where it was written (or would be), and its inputs and size. */
export interface BuiltBundle {
  readonly definition: FunctionDefinition;
  readonly outputPath: string;
  readonly output: Metafile['outputs'][string];
}

/**
 * Bundles `definitions` with the functions' own settings, in one esbuild call. `overrides` are merged
 * into the options (not written, not minified, ...); outputs land in `outdir/<handler>.mjs`.
 */
export async function buildBundles(
  definitions: readonly FunctionDefinition[],
  outdir: string,
  overrides: BuildOptions = {},
): Promise<{ bundles: BuiltBundle[]; metafile: Metafile }> {
  const built = await build({
    ...bundleOptions(definitions[0]!),
    entryPoints: [...new Set(definitions.map((definition) => handlerEntry(definition.handler)))],
    outdir,
    outExtension: { '.js': '.mjs' },
    sourcemap: false,
    logLevel: 'silent',
    plugins: [bundleRewritesPlugin],
    ...overrides,
    metafile: true,
  });
  const bundles = definitions.map((definition): BuiltBundle => {
    const entry = handlerEntry(definition.handler);
    const found = Object.entries(built.metafile.outputs).find(
      ([, output]) => output.entryPoint && entry.endsWith(output.entryPoint),
    );
    if (!found) throw new Error(`esbuild wrote no bundle for ${definition.name}`);
    return { definition, outputPath: found[0], output: found[1] };
  });
  return { bundles, metafile: built.metafile };
}

/** The inputs of one bundle that weigh most in it (bytes of each in the output), heaviest first. */
export const heaviestInputs = (bundle: BuiltBundle, count: number): [string, number][] =>
  Object.entries(bundle.output.inputs)
    .map(([file, input]): [string, number] => [file, input.bytesInOutput])
    .sort((a, b) => b[1] - a[1])
    .slice(0, count);
