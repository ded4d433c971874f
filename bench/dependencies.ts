/**
 * `npm run bench:dependencies`: what each part we could take from a library costs a function, in one
 * run. For each part, a function that uses it is bundled twice as it is deployed
 * (infra/function-bundles.ts): as it is, and with the library (a module of ours swapped for the
 * library's, as bench/functions/baseline/ does for Powertools' Tracer, or the
 * library's module bundled beside our own, used, where no drop-in variant exists). Each bundle's size
 * (minified, no source map) and import time (median of BENCH_IMPORTS fresh processes, taken in turns)
 * are written to docs/benchmarks/dependencies.json; docs/dependencies.md reads them.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Plugin } from 'esbuild';
import { buildBundles, everyFunction } from '../infra/function-bundles';
import { REPO_ROOT } from '../infra/paths';
import { environmentOf, importMs } from './import-time';
import { machineLine, median } from './run-facts';

const IMPORTS = Number(process.env['BENCH_IMPORTS'] ?? 9);
const OUTDIR = path.join(REPO_ROOT, 'dist', 'bench', 'dependencies');
const BASELINE_DIR = path.join(REPO_ROOT, 'bench', 'functions', 'baseline');
const KB = 1024;

interface Part {
  readonly part: string;
  readonly library: string;
  /** The function measured: one that uses the part. */
  readonly functionName: string;
  /** Our modules replaced by bench/functions/baseline/'s of the same name (the library's). */
  readonly swap?: readonly string[];
  /** Or the library's code bundled beside ours, and used (so that nothing of it is shaken off). */
  readonly beside?: string;
}

const PARTS: readonly Part[] = [
  {
    part: 'tracer',
    library: '@aws-lambda-powertools/tracer (X-Ray SDK)',
    functionName: 'getPayment',
    swap: ['xray'],
  },
  {
    part: 'idempotency',
    library: '@aws-lambda-powertools/idempotency',
    functionName: 'createRefund',
    beside: `import { makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
export const used = [makeIdempotent, DynamoDBPersistenceLayer];`,
  },
  {
    part: 'SQS batch',
    library: '@aws-lambda-powertools/batch',
    functionName: 'sendWebhook',
    beside: `import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
export const used = [new BatchProcessor(EventType.SQS), processPartialResponse];`,
  },
  {
    part: 'secrets cache',
    library: '@aws-lambda-powertools/parameters',
    functionName: 'registerKey',
    beside: `import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
export const used = [new SecretsProvider()];`,
  },
  {
    part: 'S3 multipart upload',
    library: '@aws-sdk/lib-storage',
    functionName: 'runReport',
    beside: `import { Upload } from '@aws-sdk/lib-storage';
export const used = [Upload];`,
  },
  {
    part: 'CSV',
    library: 'csv-stringify',
    functionName: 'runReport',
    beside: `import { stringify } from 'csv-stringify/sync';
export const used = [stringify];`,
  },
];

/** A plugin putting bench/functions/baseline/<name>.ts in place of shared/observability/<name>.ts. */
const swapping = (names: readonly string[]): Plugin => ({
  name: 'library-modules',
  setup(build) {
    const filter = new RegExp(`[\\\\/]shared[\\\\/]observability[\\\\/](${names.join('|')})\\.ts$`);
    build.onLoad({ filter }, (args) => ({
      contents: readFileSync(path.join(BASELINE_DIR, path.basename(args.path)), 'utf8'),
      resolveDir: BASELINE_DIR,
      loader: 'ts',
    }));
  },
});

/** A plugin adding `code` to the function's entry (the handler's file itself stays as it is). */
const besideEntry = (entry: string, code: string): Plugin => ({
  name: 'library-beside',
  setup(build) {
    build.onLoad({ filter: new RegExp(`${path.basename(entry).replace('.', '\\.')}$`) }, (args) => ({
      contents: `${readFileSync(args.path, 'utf8')}\n${code}\n`,
      resolveDir: path.dirname(args.path),
      loader: 'ts',
    }));
  },
});

async function bundled(part: Part, withLibrary: boolean): Promise<string> {
  const definition = everyFunction.find((candidate) => candidate.name === part.functionName)!;
  const outdir = path.relative(REPO_ROOT, path.join(OUTDIR, `${part.part.replace(/\W+/g, '-')}-${withLibrary}`));
  const entry = path.join(REPO_ROOT, 'functions', `${definition.handler}.ts`);
  const plugins = !withLibrary ? [] : part.swap ? [swapping(part.swap)] : [besideEntry(entry, part.beside!)];
  const { bundles } = await buildBundles([definition], outdir, { plugins });
  return path.join(REPO_ROOT, bundles[0]!.outputPath);
}

const round1 = (value: number) => Math.round(value * 10) / 10;

rmSync(OUTDIR, { recursive: true, force: true });
mkdirSync(OUTDIR, { recursive: true });
const rows = [];
for (const part of PARTS) {
  const ours = await bundled(part, false);
  const library = await bundled(part, true);
  const env = environmentOf(part.functionName);
  importMs(ours, env);
  try {
    importMs(library, env);
  } catch (error) {
    console.log(`${part.part}: the library's bundle does not load (${String(error).slice(-300)})`);
    continue;
  }
  const times = { ours: [] as number[], library: [] as number[] };
  for (let run = 0; run < IMPORTS; run++) {
    times.ours.push(importMs(ours, env));
    times.library.push(importMs(library, env));
  }
  const row = {
    part: part.part,
    library: part.library,
    function: part.functionName,
    oursKb: round1(statSync(ours).size / KB),
    libraryKb: round1(statSync(library).size / KB),
    oursImportMs: round1(median(times.ours)),
    libraryImportMs: round1(median(times.library)),
  };
  const extraPercent = round1(((row.libraryImportMs - row.oursImportMs) / row.oursImportMs) * 100);
  rows.push({ ...row, extraImportPercent: extraPercent });
  console.log(JSON.stringify(rows.at(-1)));
}
writeFileSync(
  path.join(REPO_ROOT, 'docs', 'benchmarks', 'dependencies.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: machineLine(),
      loadAverage: os.loadavg().map((value) => round1(value)),
      imports: IMPORTS,
      parts: rows,
    },
    null,
    2,
  )}\n`,
);
console.log('Wrote docs/benchmarks/dependencies.json');
