/**
 * `npm run audit:dependencies` (CI runs it): known vulnerabilities of high or critical severity in
 * what we ship, from `npm audit`: the packages the functions carry (package.json's `dependencies`,
 * test/unit/dependencies.test.ts keeps them exactly that) and the dashboard's (the packages its code
 * imports, which it bundles), each with what they depend on. A finding in a tool that ships nothing
 * (jest, the CDK, eslint) is listed, not failed on: Renovate updates those.
 *
 * A registry that answers no advisories (a mirror without the audit endpoint: 405) fails nothing and
 * says so on stderr, since there is nothing to judge; a finding always fails.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const FAILING = new Set(['high', 'critical']);

export interface LockFile {
  readonly packages: Record<string, { readonly dependencies?: Record<string, string> }>;
}

export interface AuditReport {
  /** By package name, when npm could ask the registry. */
  readonly vulnerabilities?: Record<string, { readonly severity: string; readonly via: readonly unknown[] }>;
  /** npm's own error (the registry refused the audit). */
  readonly error?: unknown;
  readonly message?: string;
}

/** `roots` and every package they depend on, by name, as the lock file installs them at the top level. */
export function closureOf(lock: LockFile, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const pending = [...roots];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const entry = lock.packages[`node_modules/${name}`];
    pending.push(...Object.keys(entry?.dependencies ?? {}));
  }
  return seen;
}

export type Verdict =
  | { readonly kind: 'unchecked'; readonly why: string }
  | { readonly kind: 'checked'; readonly failing: string[]; readonly listed: string[] };

/** What the audit says of the shipped packages: those with a high or critical finding fail. */
export function judge(report: AuditReport, shipped: ReadonlySet<string>): Verdict {
  if (!report.vulnerabilities) return { kind: 'unchecked', why: report.message ?? 'npm audit answered no report' };
  const failing: string[] = [];
  const listed: string[] = [];
  for (const [name, finding] of Object.entries(report.vulnerabilities)) {
    const line = `${name} (${finding.severity})`;
    if (shipped.has(name) && FAILING.has(finding.severity)) failing.push(line);
    else listed.push(line);
  }
  return { kind: 'checked', failing: failing.sort(), listed: listed.sort() };
}

/** The packages the dashboard's code imports (its bundle's roots). */
function dashboardImports(root: string): string[] {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name)) {
        for (const [, spec] of readFileSync(full, 'utf8').matchAll(/from '([^'.][^']*)'/g)) {
          const parts = spec!.split('/');
          names.add(spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
        }
      }
    }
  };
  walk(path.join(root, 'dashboard', 'src'));
  return [...names];
}

function main(): void {
  const root = path.resolve(import.meta.dirname, '..');
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as LockFile;
  const shipped = closureOf(lock, [...Object.keys(manifest.dependencies), ...dashboardImports(root)]);
  let output: string;
  try {
    output = execFileSync('npm', ['audit', '--json'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    // npm audit exits 1 on any finding, and on a refused request: the report says which.
    output = String((error as { stdout?: string }).stdout ?? '');
  }
  let report: AuditReport;
  try {
    report = JSON.parse(output) as AuditReport;
  } catch {
    report = { message: `npm audit printed no JSON: ${output.slice(0, 200)}` };
  }
  const verdict = judge(report, shipped);
  if (verdict.kind === 'unchecked') {
    console.error(`audit: not checked, the registry gave no advisories (${verdict.why})`);
    return;
  }
  console.log(`audit: ${shipped.size} shipped packages checked`);
  if (verdict.listed.length > 0) console.log(`audit: in tools only, or below high: ${verdict.listed.join(', ')}`);
  if (verdict.failing.length > 0) {
    console.error(`audit: high or critical in what we ship: ${verdict.failing.join(', ')}`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
