/**
 * Absolute paths of the repository, so that synthesis does not depend on the working directory
 * (`cdk synth` runs from the root, jest and scripts may not). The project is ESM: no __dirname.
 */
import path from 'node:path';

export const REPO_ROOT = path.join(import.meta.dirname, '..');
export const FUNCTIONS_DIR = path.join(REPO_ROOT, 'functions');
export const TSCONFIG = path.join(REPO_ROOT, 'tsconfig.json');
export const LOCK_FILE = path.join(REPO_ROOT, 'package-lock.json');

/** The source file of a route's handler: functions/<handler>.ts. */
export function handlerEntry(handler: string): string {
  return path.join(FUNCTIONS_DIR, `${handler}.ts`);
}

/** The dashboard's sources (a browser app), and where `npm run generate` builds them. */
export const DASHBOARD_SOURCE_DIR = path.join(REPO_ROOT, 'dashboard');
export const DASHBOARD_ASSETS_DIR = path.join(REPO_ROOT, 'dist', 'dashboard');
