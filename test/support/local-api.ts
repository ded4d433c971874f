/**
 * The real local server for end-to-end tests: the same runtime `npm start` runs, on a free port,
 * against the test run's DynamoDB Local, in a table of this test file's own.
 */
import { randomUUID } from 'node:crypto';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';

export interface ApiAnswer<T = Record<string, any>> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: T;
  readonly text: string;
}

export interface RequestOptions {
  readonly token?: string;
  readonly body?: unknown;
  /** Sent as is, instead of JSON. */
  readonly rawBody?: string | Buffer;
  readonly headers?: Record<string, string>;
}

export interface TestApi {
  readonly runtime: LocalRuntime;
  readonly url: string;
  /** A token from the token endpoint, as a client would get it. */
  token(clientId: string, scope?: string): Promise<string>;
  request<T = Record<string, any>>(method: string, path: string, options?: RequestOptions): Promise<ApiAnswer<T>>;
  stop(): Promise<void>;
}

export function testEndpoint(): string {
  const endpoint = process.env['TEST_DYNAMODB_ENDPOINT'];
  if (!endpoint) throw new Error('TEST_DYNAMODB_ENDPOINT is not set: run the tests through jest (global setup)');
  return endpoint;
}

export async function startTestApi(): Promise<TestApi> {
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: ':memory:',
    dynamodbEndpoint: testEndpoint(),
    tableName: `test-${randomUUID()}`,
  });
  const tokens = new Map<string, string>();

  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['authorization'] ??= `Bearer ${options.token}`;
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${runtime.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }

  return {
    runtime,
    url: runtime.url,
    async token(clientId: string, scope?: string) {
      const cacheKey = `${clientId} ${scope ?? ''}`;
      const cached = tokens.get(cacheKey);
      if (cached) return cached;
      const client = SANDBOX_CLIENTS.find((c) => c.clientId === clientId);
      if (!client) throw new Error(`No sandbox client ${clientId}`);
      const form = new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
      const answer = await fetch(`${runtime.url}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
        },
        body: form.toString(),
      });
      if (answer.status !== 200) throw new Error(`Token request failed: ${answer.status} ${await answer.text()}`);
      const { access_token } = (await answer.json()) as { access_token: string };
      tokens.set(cacheKey, access_token);
      return access_token;
    },
    request,
    stop: () => runtime.stop(),
  };
}
