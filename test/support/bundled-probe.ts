/**
 * A probe bundled as the functions are (their esbuild options and aliases, minified ESM), from its
 * source as text, and run as Lambda runs a bundle: in a Node process of its own, with only what the
 * bundle holds. test/unit/bundle-rewrites.test.ts and bundled-s3-client.test.ts run the SDK's clients so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { bundleOptions } from '../../infra/constructs/function-bundle';
import { bundleRewritesPlugin } from '../../infra/constructs/bundle-rewrites';
import { everyFunction } from '../../infra/function-bundles';
import { REPO_ROOT } from '../../infra/paths';

export interface ProbeRun {
  /** The bundle's code. */
  readonly code: string;
  /** What the probe wrote to its standard output, as JSON. */
  readonly output: Record<string, unknown>;
}

/**
 * Bundles `source` with `plugins` (the functions' own, unless a test leaves them out) and runs it with
 * `env` beside the process's own and credentials that sign (no AWS endpoint checks them here).
 */
export async function runBundledProbe(
  source: string,
  env: Record<string, string>,
  plugins: Plugin[] = [bundleRewritesPlugin],
): Promise<ProbeRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bundled-probe-'));
  try {
    const outfile = path.join(dir, 'probe.mjs');
    await build({
      ...bundleOptions(everyFunction[0]!),
      entryPoints: [],
      stdin: { contents: source, resolveDir: REPO_ROOT, sourcefile: 'probe.mjs' },
      outfile,
      sourcemap: false,
      logLevel: 'silent',
      plugins,
    });
    const { stdout } = await promisify(execFile)(process.execPath, [outfile], {
      env: { ...process.env, AWS_ACCESS_KEY_ID: 'probe', AWS_SECRET_ACCESS_KEY: 'probe', ...env },
      encoding: 'utf8',
    });
    return { code: readFileSync(outfile, 'utf8'), output: JSON.parse(stdout) as Record<string, unknown> };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
