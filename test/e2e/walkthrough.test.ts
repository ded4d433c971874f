/**
 * docs/walkthrough.md as a reader runs it: every shell block of the page, in order, in one shell of
 * the kind the fences name, against the real local runtime (throttled and rate-limited as `npm start`
 * is), twice in a row, because the page promises that it runs again. The page checks its own answers
 * (`set -euo pipefail`, `call`, `refused`, `expect`); this test also reads back through the API what
 * the text says a run leaves behind, and breaks one step to see the page stop there.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../infra/paths';
import { startTestApi, type TestApi } from '../support/local-api';
import { readQrPng } from '../support/qr-fixtures';

const PAGE = join(REPO_ROOT, 'docs', 'walkthrough.md');
// Fences a reader would take for shell: any of them on the page must be the one shell the test runs.
const SHELLS = new Set(['sh', 'bash', 'shell', 'zsh']);
// Two runs of about a hundred requests, each answer read by a `node -e`, on a loaded machine.
const TIMEOUT_MS = 600_000;

interface Page {
  readonly shell: string;
  readonly script: string;
}

/** The page's fenced blocks in a shell language, joined in order; they must all name one shell. */
function shellScript(markdown: string): Page {
  const blocks = [...markdown.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].filter(([, info]) => SHELLS.has(info!));
  const shells = new Set(blocks.map(([, info]) => info!));
  if (shells.size !== 1) throw new Error(`expected the shell blocks to name one shell, found ${[...shells]}`);
  return { shell: [...shells][0]!, script: blocks.map(([, , body]) => body).join('\n') };
}

interface Run {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The working directory the script ran in, empty at the start. */
  readonly cwd: string;
  /** TMPDIR of the run, where the script's `mktemp -d` makes its scratch folder. */
  readonly tmp: string;
}

let api: TestApi;
let scratch: string;

beforeAll(async () => {
  // As `npm start` runs: the stage's throttling and each client's rate limit.
  api = await startTestApi({ throttling: 'stage', tenantRateLimit: 'stage' });
  scratch = mkdtempSync(join(tmpdir(), 'breb-walkthrough-'));
});
afterAll(async () => {
  await api.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/**
 * Runs the script as `bash -c` (or `sh -c`). Asynchronous: the server answering the script runs in
 * this process, and a synchronous spawn would stop it from answering.
 */
function run({ shell, script }: Page, name: string): Promise<Run> {
  const cwd = join(scratch, `${name}-cwd`);
  const tmp = join(scratch, `${name}-tmp`);
  mkdirSync(cwd);
  mkdirSync(tmp);
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', script], {
      cwd,
      env: { ...process.env, API_URL: api.url, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr, cwd, tmp }));
  });
}

/** A run succeeded: exit 0, each output on a line of its own, nothing written to the working directory. */
function expectSucceeded(result: Run): void {
  if (result.exitCode !== 0) throw new Error(`the walk-through failed (${result.exitCode}):\n${result.stderr}`);
  expect(result.stdout.split('\n').filter((line) => /}\s*\{/.test(line))).toEqual([]);
  expect(readdirSync(result.cwd)).toEqual([]);
}

/** Lines the text promises, in this order (other lines may come between them). */
const PROMISED = [
  'status: ACTIVE',
  'code: CUSTOMER_ALREADY_LINKED',
  'code: ACCOUNT_NOT_APPROVED',
  'code: KEY_ALREADY_REGISTERED',
  'code: KEY_NOT_FOUND',
  'crc_valid: true',
  'signature_valid: true',
  'code: QR_CODE_REFERENCE_TAKEN',
  'status: PAID',
  'available_balance.value: 1139000.00',
  'status: PENDING',
  'direction: OUTBOUND',
  'available_balance.value: 1089000.00',
  'status: SETTLED',
  'code: RESOLUTION_ALREADY_USED',
  'status: PENDING',
  'rejection_reason: NETWORK_REJECTED',
  'available_balance.value: 1089000.00',
  'available_balance.value: 1114000.00',
  'available_balance.value: 975000.00',
  'code: INSUFFICIENT_FUNDS',
  'result: MATCH',
  'result: NO_MATCH',
  'code: IDEMPOTENCY_KEY_REQUIRED',
  'status: SETTLED',
  'available_balance.value: 1104000.00',
  'status: SETTLED',
  'approval: ACCEPTED',
  'available_balance.value: 1134000.00',
  'status: REJECTED',
  'approval: REFUSED',
  'available_balance.value: 1134000.00',
  'enabled: false',
  'deliveries.0.status: SUCCEEDED',
];

/** The events the page's receiver verified and logged, in the order the page waited for them. */
const RECEIVED = [
  /^received: webhook\.test \S+$/m,
  /^received: payment\.settled \S+$/m,
  /^received: payment\.rejected \S+$/m,
];

function expectInOrder(stdout: string, lines: readonly string[]): void {
  const output = stdout.split('\n');
  let at = 0;
  for (const line of lines) {
    const found = output.indexOf(line, at);
    expect({ line, found: found >= 0 }).toEqual({ line, found: true });
    at = found + 1;
  }
}

/** What a run leaves behind, read through the API as client A: the merchant of this run's NIT. */
async function expectLeftBehind(runId: string): Promise<void> {
  const token = await api.token('sandbox-client-a');
  const customers = await api.request('GET', `/v1/customers?identification_number=9${runId}`, { token });
  expect(customers.body['customers']).toHaveLength(1);
  const customerId = customers.body['customers'][0].id as string;

  const accounts = await api.request('GET', `/v1/accounts?customer_id=${customerId}`, { token });
  const balances = Object.fromEntries(
    (accounts.body['accounts'] as any[]).map((account) => [account.account_number, account.available_balance.value]),
  );
  expect(balances).toEqual({ [`00${runId}01`]: '1134000.00', [`00${runId}02`]: '975000.00' });

  const payments = await api.request('GET', `/v1/payments?customer_id=${customerId}&page_size=10`, { token });
  const seen = (payments.body['payments'] as any[]).map((payment) => `${payment.direction} ${payment.status}`);
  expect(seen.sort()).toEqual([
    'INBOUND REJECTED',
    'INBOUND SETTLED',
    'INBOUND SETTLED',
    'INBOUND SETTLED',
    'INBOUND SETTLED',
    'INBOUND SETTLED',
    'OUTBOUND REJECTED',
    'OUTBOUND SETTLED',
    'OUTBOUND SETTLED',
    'OUTBOUND SETTLED',
  ]);

  // The refunds of the received payment: a part, then the rest.
  const refunds = await api.request('GET', `/v1/refunds?customer_id=${customerId}`, { token });
  const refunded = (refunds.body['refunds'] as any[]).map((refund) => refund.amount.value);
  expect(refunded.sort()).toEqual(['15000.00', '5000.00']);
}

describe('docs/walkthrough.md', () => {
  const page = shellScript(readFileSync(PAGE, 'utf8'));

  it('is one bash script that stops at its first failing step', () => {
    expect(page.shell).toBe('bash');
    expect(page.script.split('\n')[0]).toBe('set -euo pipefail');
    expect(page.script).toContain('API_URL=${API_URL:-http://127.0.0.1:3000}');
  });

  it(
    'runs as written, twice in a row, and leaves what the text says',
    async () => {
      const runIds: string[] = [];
      for (const name of ['first', 'second']) {
        const result = await run(page, name);
        expectSucceeded(result);
        expectInOrder(result.stdout, PROMISED);
        const at = RECEIVED.map((line) => result.stdout.search(line));
        expect(at.every((index) => index >= 0)).toBe(true);
        expect([...at].sort((a, b) => a - b)).toEqual(at);

        const [, runId, work] = /^run (\d{8}) in (\S+)$/m.exec(result.stdout) ?? [];
        expect(work!.startsWith(result.tmp)).toBe(true);
        // The image the page writes is the payload it printed, as a phone's camera reads it.
        const payload = result.stdout.split('\n').find((line) => line.startsWith('000201010212'));
        expect(readQrPng(readFileSync(join(work!, 'qr.png'))).text).toBe(payload);

        await expectLeftBehind(runId!);
        runIds.push(runId!);
      }
      expect(new Set(runIds).size).toBe(2);
    },
    TIMEOUT_MS,
  );

  it(
    'stops at a step that fails, and runs nothing after it',
    async () => {
      // Step 3 links the first account at a path that does not exist.
      const broken = page.script.replace('call POST /accounts ', 'call POST /acounts ');
      expect(broken).not.toBe(page.script);
      const result = await run({ ...page, script: broken }, 'broken');
      expect(result.exitCode).not.toBe(0);
      expect(result.stderr).toContain('^ POST /acounts answered 404');
      expect(result.stdout).toContain('code: CUSTOMER_ALREADY_LINKED');
      expect(result.stdout).not.toContain('code: ACCOUNT_NOT_APPROVED');
    },
    TIMEOUT_MS,
  );
});
