/**
 * `npm start` as a user runs it, in a child process of its own: Node with tsx's loader, one process
 * (tsx's own CLI would run the server in a child of its own, which a signal to it would not reach).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';

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

/** A token of sandbox-client-a from the server at `url`, as the README's walk-through gets one. */
export async function sandboxToken(url: string): Promise<string> {
  const client = SANDBOX_CLIENTS[0]!;
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
