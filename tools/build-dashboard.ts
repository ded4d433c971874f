/**
 * Builds the dashboard (dashboard/, Preact) into dist/dashboard/: its page, its stylesheet and one
 * script bundled by esbuild with everything it imports, so serving it needs nothing from the
 * network. `npm run generate` (tools/generate.ts) runs it, and so `npm start`, `npm test` and
 * `cdk synth` do; the local server serves the folder at /dashboard/ and the stack uploads it to S3.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { DASHBOARD_ASSETS_DIR, DASHBOARD_SOURCE_DIR } from '../infra/paths';

export async function buildDashboard(): Promise<void> {
  rmSync(DASHBOARD_ASSETS_DIR, { recursive: true, force: true });
  mkdirSync(DASHBOARD_ASSETS_DIR, { recursive: true });
  await build({
    entryPoints: [path.join(DASHBOARD_SOURCE_DIR, 'src', 'main.tsx')],
    outfile: path.join(DASHBOARD_ASSETS_DIR, 'app.js'),
    bundle: true,
    format: 'esm',
    // What the evergreen browsers of the last two years run.
    target: ['chrome120', 'firefox120', 'safari17'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: true,
    // No timestamps or absolute paths: the same sources give the same bytes (and the same S3 upload).
    legalComments: 'none',
    sourceRoot: 'dashboard',
    tsconfig: path.join(DASHBOARD_SOURCE_DIR, 'tsconfig.json'),
    logLevel: 'warning',
  });
  for (const file of ['index.html', 'styles.css']) {
    copyFileSync(path.join(DASHBOARD_SOURCE_DIR, file), path.join(DASHBOARD_ASSETS_DIR, file));
  }
}
