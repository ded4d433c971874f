/**
 * `npm start` as a user runs it, in a child process of its own: Node with tsx's loader, one process
 * (tsx's own CLI would run the server in a child of its own, which a signal to it would not reach).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../infra/local/dynamodb-local';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { testEndpoint } from './local-api';

export interface Started {
  readonly child: ChildProcess;
  readonly url: string;
  readonly dynamodbUrl: string;
  output(): string;
}

/** Starts `npm start` with `env` added to this process's environment; answers once it listens. */
export async function startServer(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'infra/local/start.ts'], {
    env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'INFO', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 90_000;
  while (!/listening on (\S+)/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    url: /listening on (\S+)/.exec(output)![1]!,
    dynamodbUrl: /DynamoDB: (\S+)/.exec(output)![1]!,
    output: () => output,
  };
}

/** A token of a sandbox client (sandbox-client-a unless told) from the server at `url`, as the README's walk-through gets one. */
export async function sandboxToken(url: string, client = SANDBOX_CLIENTS[0]!): Promise<string> {
  const answer = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

export interface ServerProcess {
  readonly url: string;
  /** Settles when the process has exited (killed, or killing itself at a crash point). */
  readonly exited: Promise<void>;
  output(): string;
  /** Kills it with SIGKILL, as a crash would, unless it is gone already. */
  crash(): Promise<void>;
}

/**
 * `npm start` on the test run's DynamoDB and table `tableName` (which outlive it, as AWS's would),
 * with a data folder of its own, killed as a crash kills it.
 */
export async function startServerProcess(tableName: string, env: Record<string, string>): Promise<ServerProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'breb-crash-'));
  const started = await startServer({
    ...env,
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: testEndpoint(),
  });
  const exited = new Promise<void>((resolve) => {
    if (started.child.exitCode !== null || started.child.signalCode !== null) resolve();
    else started.child.once('exit', () => resolve());
  }).then(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return {
    url: started.url,
    exited,
    output: started.output,
    crash: async (): Promise<void> => {
      if (started.child.exitCode === null && started.child.signalCode === null) started.child.kill('SIGKILL');
      await exited;
    },
  };
}
