/**
 * The import rules of .dependency-cruiser.cjs (docs/architecture.md): no cycles, and layers that
 * never turn back. The check runs the real dependency-cruiser over the real tree; a second test runs
 * it over a small tree that breaks each rule, so a rule that stopped catching anything would fail.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = path.join(import.meta.dirname, '..', '..');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules', '.bin', 'depcruise');

interface Violation {
  readonly from: string;
  readonly to: string;
  readonly rule: { readonly name: string };
}

async function violationsIn(cwd: string, folders: readonly string[]): Promise<string[]> {
  // depcruise exits non-zero when it finds violations; the JSON report is on stdout either way.
  const { stdout } = await run(DEPCRUISE, [...folders, '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

test('the code has no import cycle and no layer that turns back', async () => {
  expect(await violationsIn(ROOT, ['functions', 'shared', 'infra', 'tools', 'dashboard'])).toEqual([]);
}, 60_000);

describe('the rules catch what they forbid', () => {
  let tree: string;
  const write = (file: string, content: string) => {
    mkdirSync(path.dirname(path.join(tree, file)), { recursive: true });
    writeFileSync(path.join(tree, file), content);
  };

  beforeAll(() => {
    tree = mkdtempSync(path.join(tmpdir(), 'layers-'));
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } }));
    write('shared/domain/errors.ts', 'export class AppError extends Error {}\n');
    write('shared/domain/rules.ts', "import { handler } from '../http/handler';\nexport const rule = handler;\n");
    write('shared/http/handler.ts', "import { rule } from '../domain/fees';\nexport const handler = rule;\n");
    write(
      'shared/domain/fees.ts',
      "import { rule } from './rules';\nexport const fees = rule;\nexport { fees as rule };\n",
    );
    write(
      'shared/qr/tlv.ts',
      "import { AppError } from '../domain/errors';\nexport const refuse = () => new AppError();\n",
    );
    write('shared/data/store.ts', "import { fees } from '../domain/fees';\nexport const store = fees;\n");
    write(
      'shared/calendar/days.ts',
      "import { AppError } from '../domain/errors';\nexport const refuse = () => new AppError();\n",
    );
    write('shared/data/typed.ts', "import type { AppError } from '../domain/errors';\nexport type Typed = AppError;\n");
    write(
      'dashboard/src/api.ts',
      "import { AppError } from '../../shared/domain/errors';\nexport const api = AppError;\n",
    );
    // The OpenAPI document's types are the contract the dashboard may name; a generated validator is server code.
    write('shared/schemas/generated/openapi-types.d.ts', 'export interface paths {}\n');
    write('shared/schemas/generated/qrcodes.js', 'export const validate = () => true;\n');
    write(
      'dashboard/src/contract.ts',
      "import type { paths } from '../../shared/schemas/generated/openapi-types';\n" +
        "import { validate } from '../../shared/schemas/generated/qrcodes.js';\n" +
        'export type Paths = paths;\nexport const check = validate;\n',
    );
    write('infra/serve.ts', "import { api } from '../dashboard/src/api';\nexport const served = api;\n");
    write('infra/config.ts', "import type { api } from '../dashboard/src/api';\nexport type Config = typeof api;\n");
  });
  afterAll(() => rmSync(tree, { recursive: true, force: true }));

  test('a cycle, a domain rule calling HTTP, HTTP calling a rule, the QR library or the calendar using our errors, data running a rule', async () => {
    const found = await violationsIn(tree, ['shared']);
    expect(found).toEqual(
      expect.arrayContaining([
        'domain-knows-no-infrastructure: shared/domain/rules.ts -> shared/http/handler.ts',
        'http-does-not-call-functions-or-rules: shared/http/handler.ts -> shared/domain/fees.ts',
        'qr-is-a-library: shared/qr/tlv.ts -> shared/domain/errors.ts',
        'calendar-is-a-leaf: shared/calendar/days.ts -> shared/domain/errors.ts',
        'data-implements-domain-ports-by-type-only: shared/data/store.ts -> shared/domain/fees.ts',
      ]),
    );
    expect(found.some((line) => line.startsWith('no-cycles: '))).toBe(true);
    // Naming a domain type is how a repository implements a port: allowed.
    expect(found.filter((line) => line.includes('shared/data/typed.ts'))).toEqual([]);
  }, 60_000);

  test('the dashboard using server code, the server running dashboard code', async () => {
    const found = await violationsIn(tree, ['dashboard', 'infra']);
    expect(found).toEqual([
      'dashboard-is-an-api-client: dashboard/src/api.ts -> shared/domain/errors.ts',
      'dashboard-is-an-api-client: dashboard/src/contract.ts -> shared/schemas/generated/qrcodes.js',
      'the-server-runs-no-dashboard-code: infra/serve.ts -> dashboard/src/api.ts',
    ]);
  }, 60_000);
});
