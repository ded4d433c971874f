/**
 * `npm start` as a user runs it: a child process serving the API and its description (GET
 * /openapi.json and /docs, without a token), keeping its data in DATA_DIR across restarts, stopping
 * DynamoDB Local with itself on SIGTERM, and logging no personal data in clear.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/local/dynamodb-local';
import { linkMerchantBody, SANDBOX_NIT } from '../support/fixtures';
import { sandboxToken, startServer, type Started } from '../support/npm-start';

const TIMEOUT_MS = 120_000;

async function stopServer(started: Started): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => started.child.once('exit', (code) => resolve(code)));
  started.child.kill('SIGTERM');
  return exited;
}

const answers = async (url: string): Promise<boolean> =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    () => true,
    () => false,
  );

describe('npm start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'breb-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(
    'keeps data and tokens across a restart, stops DynamoDB Local with itself, logs no personal data',
    async () => {
      const port = String(await freePort());
      const first = await startServer({ PORT: port, DATA_DIR: dataDir });
      const accessToken = await sandboxToken(first.url);
      const linked = await fetch(`${first.url}/v1/customers/business/link`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(linkMerchantBody()),
      });
      expect(linked.status).toBe(200);
      const customer = (await linked.json()) as { id: string };
      const logs = first.output();

      expect(await stopServer(first)).toBe(0);
      expect(await answers(first.dynamodbUrl)).toBe(false);

      const second = await startServer({ PORT: port, DATA_DIR: dataDir });
      try {
        // The signing key lives in DATA_DIR: a token of the first run is still good.
        const read = await fetch(`${second.url}/v1/customers/${customer.id}`, {
          headers: { authorization: `Bearer ${accessToken}` },
        });
        expect(read.status).toBe(200);
        expect(await read.json()).toEqual(customer);
      } finally {
        expect(await stopServer(second)).toBe(0);
      }

      // Every structured log line of the run (the banner names the sandbox fixtures on purpose): none
      // holds the NIT, email, phone or token in clear.
      const logLines = logs.split('\n').filter((line) => line.startsWith('{'));
      expect(logLines.length).toBeGreaterThan(0);
      for (const secret of [SANDBOX_NIT, 'pagos@esperanza.co', '3001234567', accessToken.split('.')[2]!]) {
        expect(logLines.join('\n')).not.toContain(secret);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'keeps nothing with DATA_DIR=:memory:',
    async () => {
      const port = String(await freePort());
      const run = async () => {
        const started = await startServer({ PORT: port, DATA_DIR: ':memory:' });
        const accessToken = await sandboxToken(started.url);
        const answer = await fetch(`${started.url}/v1/customers/business/link`, {
          method: 'POST',
          headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
          body: JSON.stringify(linkMerchantBody()),
        });
        // The API's description, without a token (test/e2e/reference-page.test.ts looks at it closely).
        const described = await Promise.all(['/openapi.json', '/docs'].map((path) => fetch(`${started.url}${path}`)));
        expect(described.map((response) => response.status)).toEqual([200, 200]);
        expect(((await described[0]!.json()) as { openapi: string }).openapi).toBe('3.1.0');
        await stopServer(started);
        return answer.status;
      };
      // Linking the same NIT twice is a 409 only if the first link survived.
      expect(await run()).toBe(200);
      expect(await run()).toBe(200);
    },
    TIMEOUT_MS,
  );
});
