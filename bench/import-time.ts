/**
 * The import time of a function's bundle: a fresh `node` process imports it once in the function's
 * environment (bench/functions/lambda-environment.ts) and answers the milliseconds of the import
 * alone (Node's own start-up is Lambda's, not ours). bench/bundles.ts and bench/dependencies.ts time
 * their bundles with it.
 */
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { lambdaEnvironment } from './functions/lambda-environment';

/** Imports one module in a fresh Node and answers the import's milliseconds on stdout. */
const IMPORT_ONCE = `
const { performance } = await import('node:perf_hooks');
const start = performance.now();
await import(process.argv[1]);
process.stdout.write(String(performance.now() - start));
process.exit(0);
`;

/** The import time of `file` in a fresh process with `env`, in milliseconds. */
export function importMs(file: string, env: Record<string, string>): number {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', IMPORT_ONCE, pathToFileURL(file).href], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
  });
  const ms = Number(child.stdout);
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`importing ${file} failed: ${child.stderr}`);
  return ms;
}

/** The environment of a function's process: nothing is called at import, so no table answers. */
export const environmentOf = (name: string): Record<string, string> =>
  lambdaEnvironment(name, {
    tableName: 'bench-bundles',
    dynamodbEndpoint: 'http://127.0.0.1:9',
    xrayDaemon: '127.0.0.1:9',
  });
