/**
 * The sender's HTTP client (shared/data/webhook-transport.ts) against real servers on loopback: it
 * connects to the address it is given, never to what the URL's name resolves to; it answers the
 * status and follows no redirect; a receiver that does not answer in time is a timeout, a closed
 * port a refused connection in words; the body and headers arrive byte for byte.
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WebhookRequest } from '../../shared/domain/signed-post';
import { httpWebhookTransport } from '../../shared/data/webhook-transport';

interface Arrival {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly remotePort: number;
}

/** A server on 127.0.0.1 only, answering each path with `answer` (200 by default), recording every request. */
class Receiver {
  readonly arrivals: Arrival[] = [];
  readonly answers = new Map<string, (response: ServerResponse) => void>();
  /** Responses left unanswered, and whether the client closed their connection. */
  readonly hung: { response: ServerResponse; closed: boolean }[] = [];

  private constructor(
    readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const receiver = new Receiver(server, (server.address() as AddressInfo).port);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        receiver.arrivals.push({
          method: request.method ?? '',
          path,
          headers: request.headers,
          body: Buffer.concat(chunks),
          remotePort: request.socket.remotePort ?? 0,
        });
        (receiver.answers.get(path.split('?')[0]!) ?? ((r) => r.writeHead(200).end('ok')))(response);
      });
    });
    return receiver;
  }

  hang(path: string): void {
    this.answers.set(path, (response) => {
      const entry = { response, closed: false };
      response.socket?.on('close', () => (entry.closed = true));
      this.hung.push(entry);
    });
  }

  async stop(): Promise<void> {
    for (const { response } of this.hung) response.destroy();
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}

let receiver: Receiver;
let other: Receiver;

beforeAll(async () => {
  [receiver, other] = await Promise.all([Receiver.start(), Receiver.start()]);
});
afterAll(async () => {
  await Promise.all([receiver.stop(), other.stop()]);
});
beforeEach(() => {
  receiver.arrivals.length = 0;
  other.arrivals.length = 0;
});

const BODY = JSON.stringify({ id: 'evt_1', type: 'payment.settled', data: { note: 'café ☕ 𝄞', value: '12500.00' } });

const request = (url: string, fields: Partial<WebhookRequest> = {}): WebhookRequest => ({
  url: new URL(url),
  address: '127.0.0.1',
  headers: { 'content-type': 'application/json' },
  body: BODY,
  // Long: under a loaded CI a loopback post has taken over 2 s; the timeout tests set their own.
  timeoutMs: 10_000,
  ...fields,
});

/** A port nothing listens on (just freed). */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('the connection goes to the address given, whatever the name resolves to', () => {
  test('localhost pinned to 127.0.0.2, where nothing listens: refused, though localhost has the receiver', async () => {
    const url = `http://localhost:${receiver.port}/pinned`;
    const answer = await httpWebhookTransport.post(request(url, { address: '127.0.0.2' }));
    expect(answer).toEqual({
      error: `Connection refused by localhost:${receiver.port}`,
      duration_ms: expect.any(Number),
    });
    expect(receiver.arrivals).toEqual([]);
  });

  test('localhost pinned to 127.0.0.1: it arrives, with the name in the Host header', async () => {
    const url = `http://localhost:${receiver.port}/pinned`;
    const answer = await httpWebhookTransport.post(request(url, { address: '127.0.0.1' }));
    expect(answer).toEqual({ status_code: 200, duration_ms: expect.any(Number) });
    expect(receiver.arrivals.map((a) => [a.path, a.headers.host])).toEqual([['/pinned', `localhost:${receiver.port}`]]);
  });

  test('a name that resolves nowhere, pinned to 127.0.0.1: it arrives (the name is never looked up)', async () => {
    const url = `http://receiver.invalid:${receiver.port}/unresolvable`;
    const answer = await httpWebhookTransport.post(request(url));
    expect(answer.status_code).toBe(200);
    expect(receiver.arrivals.map((a) => [a.path, a.headers.host])).toEqual([
      ['/unresolvable', `receiver.invalid:${receiver.port}`],
    ]);
  });
});

test('the status is answered as it came, a 2xx or not', async () => {
  for (const status of [200, 201, 204, 400, 404, 410, 500, 503]) {
    receiver.answers.set(`/status-${status}`, (response) => response.writeHead(status).end('body'));
    const answer = await httpWebhookTransport.post(request(`http://127.0.0.1:${receiver.port}/status-${status}`));
    expect(answer).toEqual({ status_code: status, duration_ms: expect.any(Number) });
  }
});

test('a 3xx is answered as it is; its Location is never requested', async () => {
  const target = `http://127.0.0.1:${other.port}/target`;
  for (const status of [301, 302, 303, 307, 308]) {
    receiver.answers.set('/moved', (response) => response.writeHead(status, { location: target }).end());
    const answer = await httpWebhookTransport.post(request(`http://127.0.0.1:${receiver.port}/moved`));
    expect(answer).toEqual({ status_code: status, duration_ms: expect.any(Number) });
  }
  await sleep(200);
  expect(receiver.arrivals).toHaveLength(5);
  expect(other.arrivals).toEqual([]);
});

test('a receiver that never answers: timedOut after the timeout, and the connection closed', async () => {
  receiver.hang('/hang');
  const answer = await httpWebhookTransport.post(request(`http://127.0.0.1:${receiver.port}/hang`, { timeoutMs: 300 }));
  expect(answer).toEqual({ timedOut: true, duration_ms: expect.any(Number) });
  expect(answer.duration_ms).toBeGreaterThanOrEqual(290);
  expect(answer.duration_ms).toBeLessThan(1_500);
  expect(receiver.arrivals).toHaveLength(1);
  await sleep(100);
  expect(receiver.hung.at(-1)!.closed).toBe(true);
});

test('an answer whose body never ends: the status is the answer, before the timeout', async () => {
  receiver.answers.set('/stream', (response) => {
    response.writeHead(200);
    response.write('a first chunk, and never the end');
    receiver.hung.push({ response, closed: false });
  });
  const answer = await httpWebhookTransport.post(
    request(`http://127.0.0.1:${receiver.port}/stream`, { timeoutMs: 1_000 }),
  );
  expect(answer).toEqual({ status_code: 200, duration_ms: expect.any(Number) });
  expect(answer.duration_ms).toBeLessThan(1_000);
});

test('a closed port: the connection refused, in words', async () => {
  const port = await closedPort();
  const answer = await httpWebhookTransport.post(request(`http://127.0.0.1:${port}/`));
  expect(answer).toEqual({ error: `Connection refused by 127.0.0.1:${port}`, duration_ms: expect.any(Number) });
});

test('the method, path, query, body and headers arrive byte for byte', async () => {
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'breb-merchant-api-webhooks/1',
    'webhook-id': 'evt_1',
    'webhook-timestamp': '1763892000',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE= v1,bm9wZQ==',
  };
  const answer = await httpWebhookTransport.post(
    request(`http://127.0.0.1:${receiver.port}/hooks/breb?source=breb&n=%C3%B1`, { headers }),
  );
  expect(answer.status_code).toBe(200);
  const [arrival] = receiver.arrivals;
  expect(arrival!.method).toBe('POST');
  expect(arrival!.path).toBe('/hooks/breb?source=breb&n=%C3%B1');
  expect(arrival!.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
  expect(arrival!.headers).toMatchObject({ ...headers, 'content-length': String(Buffer.byteLength(BODY)) });
  expect(Buffer.byteLength(BODY)).toBeGreaterThan(BODY.length);
});

test('each post has a connection of its own', async () => {
  const url = `http://127.0.0.1:${receiver.port}/own`;
  await httpWebhookTransport.post(request(url));
  await httpWebhookTransport.post(request(url));
  const [first, second] = receiver.arrivals;
  expect(first!.remotePort).not.toBe(second!.remotePort);
});

describe('an answer read whole (an approval callback)', () => {
  const reading = (path: string, fields: Partial<WebhookRequest> = {}) =>
    httpWebhookTransport.post(request(`http://127.0.0.1:${receiver.port}${path}`, { maxAnswerBytes: 64, ...fields }));

  test('the body comes with the status, byte for byte, in as many chunks as it was sent', async () => {
    receiver.answers.set('/answer', (response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"accept":');
      setTimeout(() => response.end('true,"note":"ñ"}'), 50);
    });
    expect(await reading('/answer')).toEqual({
      status_code: 200,
      answer: '{"accept":true,"note":"ñ"}',
      duration_ms: expect.any(Number),
    });
  });

  test('a body longer than asked for is refused, not kept', async () => {
    receiver.answers.set('/long', (response) => response.writeHead(200).end('x'.repeat(65)));
    expect(await reading('/long')).toEqual({
      status_code: 200,
      error: 'The answer is longer than 64 bytes',
      duration_ms: expect.any(Number),
    });
  });

  test('the timeout covers the body: a status in time with a body too late is a timeout', async () => {
    receiver.answers.set('/slow-body', (response) => {
      response.writeHead(200);
      response.write('{"accept":');
      setTimeout(() => response.end('true}'), 600).unref();
    });
    expect(await reading('/slow-body', { timeoutMs: 200 })).toEqual({
      timedOut: true,
      duration_ms: expect.any(Number),
    });
  });
});
