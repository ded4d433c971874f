/**
 * The generated OpenAPI document passes Redocly's linter (`@redocly/cli lint`, the recommended rules
 * of redocly.yaml) with no error and no warning. The linter runs as the CLI runs, on this machine
 * only: its telemetry and update notice are off. A broken copy of the document, linted in the same
 * run, shows the linter finds what it should.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../infra/paths';
import { NETWORK_OPENAPI_FILE, OPENAPI_FILE } from '../../tools/openapi/files';

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly severity: string }[];
}

/** One report per file linted, in the order given: the document's, the broken copy's, the network connector's. */
let reports: LintReport[];
let broken: string;
const scratch = mkdtempSync(path.join(tmpdir(), 'openapi-lint-'));

beforeAll(async () => {
  const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
  // Two operations under one id: an error of the recommended rules.
  const [first, second] = ['/v1/customers/{id}', '/v1/customers'];
  document.paths[second].get.operationId = document.paths[first].get.operationId;
  broken = path.join(scratch, 'broken.json');
  writeFileSync(broken, JSON.stringify(document));
  const { stdout } = await promisify(execFile)(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'redocly'),
    [
      'lint',
      OPENAPI_FILE,
      broken,
      NETWORK_OPENAPI_FILE,
      '--format=json',
      '--config',
      path.join(REPO_ROOT, 'redocly.yaml'),
    ],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  // One JSON report per file, one after the other.
  reports = JSON.parse(`[${stdout.replace(/\}\s*\{\s*"totals"/g, '},{"totals"')}]`) as LintReport[];
}, 60_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test("the network connector's document (GET /network/openapi.json) has no error and no warning", () => {
  expect(reports[2]!.problems).toEqual([]);
  expect(reports[2]!.totals).toMatchObject({ errors: 0, warnings: 0 });
});

test('the document has no error and no warning', () => {
  expect(reports).toHaveLength(3);
  expect(reports[0]!.problems).toEqual([]);
  expect(reports[0]!.totals).toMatchObject({ errors: 0, warnings: 0 });
});

test('the linter finds a broken copy broken', () => {
  expect(reports[1]!.problems.map((problem) => [problem.ruleId, problem.severity])).toContainEqual([
    'operation-operationId-unique',
    'error',
  ]);
});
