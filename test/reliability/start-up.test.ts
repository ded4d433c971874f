/**
 * Requests while the local runtime starts: from before its port is taken until it is ready, a client
 * sends requests without pause. Each one is refused (nothing listens yet), answered 503
 * SERVICE_UNAVAILABLE with Retry-After (the runtime is starting), or served (it is ready); none is
 * left without an answer. A request that never gets one runs into the client's timeout, which is
 * how this test sees it.
 */
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS, freePort } from '../../infra/local/dynamodb-local';
import { SANDBOX_CLIENTS } from '../../infra/local/oauth';
import { startLocalRuntime, type LocalRuntime } from '../../infra/local/runtime';
import { uniqueTableName } from '../support/dynamo-table';
import { testEndpoint } from '../support/local-api';

/** Far beyond any answer of a local server, even on a loaded machine: only an unanswered request gets there. */
const CLIENT_TIMEOUT_MS = 15_000;
/** A new request every so often: dozens while the runtime starts, without flooding the machine. */
const PAUSE_MS = 25;

type Outcome =
  | { readonly kind: 'refused' }
  | { readonly kind: 'answered'; readonly status: number; readonly retryAfter?: string; readonly body: string }
  | { readonly kind: 'no answer' }
  | { readonly kind: 'failed'; readonly error: string };

const client = SANDBOX_CLIENTS[0]!;

/**
 * One request on a connection of its own (a refusal then means that nothing listened): alternately
 * the key set and a token request, which has a body. Both need no token and answer 200 when ready.
 */
function send(port: number, n: number): Promise<Outcome> {
  const tokenRequest = n % 2 === 1;
  const body = tokenRequest ? 'grant_type=client_credentials' : undefined;
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        agent: false,
        method: tokenRequest ? 'POST' : 'GET',
        path: tokenRequest ? '/oauth2/token' : '/.well-known/jwks.json',
        headers: tokenRequest
          ? {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
            }
          : {},
        timeout: CLIENT_TIMEOUT_MS,
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const retryAfter = incoming.headers['retry-after'];
          resolve({
            kind: 'answered',
            status: incoming.statusCode ?? 0,
            ...(retryAfter ? { retryAfter } : {}),
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    outgoing.on('timeout', () => {
      resolve({ kind: 'no answer' });
      outgoing.destroy();
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else resolve({ kind: 'failed', error: `${error.code ?? ''} ${error.message}` });
    });
    outgoing.end(body);
  });
}

/** What a client can be told: go away (refused), come back later (503), or the answer itself. */
function verdictOf(outcome: Outcome): string {
  if (outcome.kind !== 'answered') return outcome.kind;
  if (outcome.status === 200) return 'served';
  if (outcome.status !== 503) return `unexpected ${outcome.status}`;
  const problem = JSON.parse(outcome.body) as { code?: string };
  const retryAfter = Number(outcome.retryAfter);
  return problem.code === 'SERVICE_UNAVAILABLE' && Number.isInteger(retryAfter) && retryAfter >= 1
    ? 'starting'
    : `503 without SERVICE_UNAVAILABLE and Retry-After: ${outcome.retryAfter} ${outcome.body}`;
}

let runtime: LocalRuntime | undefined;
afterAll(() => runtime?.stop());

it(
  'answers every request sent while it starts: refused, 503 with Retry-After, or served; none hangs',
  async () => {
    const port = await freePort();
    let ready = false;
    const starting = startLocalRuntime({
      port,
      dataDir: ':memory:',
      dynamodbEndpoint: testEndpoint(),
      tableName: uniqueTableName('start-up'),
      dynamodbRequestTimeoutMs: DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS,
    }).finally(() => (ready = true));

    const sent: Promise<Outcome>[] = [];
    while (!ready) {
      sent.push(send(port, sent.length));
      await sleep(PAUSE_MS);
    }
    runtime = await starting;
    // Both kinds of request once more, now that it is ready.
    sent.push(send(port, sent.length), send(port, sent.length + 1));
    const verdicts = (await Promise.all(sent)).map(verdictOf);

    expect(verdicts.filter((verdict) => !['refused', 'starting', 'served'].includes(verdict))).toEqual([]);
    // The client did reach the server while it was starting, and the last requests were served.
    expect(verdicts).toContain('starting');
    expect(verdicts.slice(-2)).toEqual(['served', 'served']);
  },
  3 * CLIENT_TIMEOUT_MS,
);
