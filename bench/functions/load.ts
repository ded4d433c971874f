/**
 * A closed-loop load generator (what autocannon does, with a request of its own for every call):
 * `concurrency` keep-alive connections, each sending its next request as soon as the previous one is
 * answered, until `requests` were sent (or `durationMs` passed). Latency is measured per request, from the first byte sent to
 * the last byte received, in milliseconds with microsecond resolution.
 */
import { Agent, request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface HttpCall {
  readonly method: string;
  /** Path and query string. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

export interface HttpAnswer {
  readonly status: number;
  readonly body: string;
}

export interface LoadResult {
  readonly latenciesMs: number[];
  readonly elapsedMs: number;
}

/** The call's body as sent: a string as it is (with the content type the call gives), anything else as JSON. */
export function encoded(call: HttpCall): { readonly headers: Record<string, string>; readonly body?: string } {
  const json = call.body !== undefined && typeof call.body !== 'string';
  const body = json ? JSON.stringify(call.body) : (call.body as string | undefined);
  return {
    headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...call.headers },
    ...(body === undefined ? {} : { body }),
  };
}

/** Sends one request on `agent`, answering its status and body. */
export function send(baseUrl: string, call: HttpCall, agent?: Agent): Promise<HttpAnswer> {
  const url = new URL(call.path, baseUrl);
  const { headers, body } = encoded(call);
  return new Promise((answered, failed) => {
    const outgoing = httpRequest(
      url,
      {
        method: call.method,
        agent,
        headers: {
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...headers,
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () =>
          answered({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        incoming.on('error', failed);
      },
    );
    outgoing.on('error', failed);
    outgoing.end(body);
  });
}

/**
 * Runs `requests` calls over `concurrency` connections. `next(index, worker)` builds each call (the
 * index is unique in the run; a worker is one connection's loop); `check` throws on a wrong answer.
 */
export async function runLoad(
  baseUrl: string,
  options: {
    readonly requests: number;
    readonly concurrency: number;
    /** Sends no new request after this long (the run then has fewer than `requests`). */
    readonly durationMs?: number;
    readonly next: (index: number, worker: number) => HttpCall;
    readonly check: (answer: HttpAnswer, call: HttpCall) => void;
  },
): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latenciesMs: number[] = [];
  let sent = 0;
  const started = performance.now();
  const worker = async (id: number): Promise<void> => {
    while (sent < options.requests && performance.now() - started < (options.durationMs ?? Infinity)) {
      const call = options.next(sent++, id);
      const before = performance.now();
      const answer = await send(baseUrl, call, agent);
      latenciesMs.push(performance.now() - before);
      options.check(answer, call);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, (_, id) => worker(id)));
  } finally {
    agent.destroy();
  }
  return { latenciesMs, elapsedMs: performance.now() - started };
}

/** The value below which `share` of the sorted values fall (nearest rank). */
export function percentile(values: readonly number[], share: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))]!;
}
