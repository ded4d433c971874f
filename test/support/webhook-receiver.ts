/**
 * A webhook receiver on loopback, as a client would run one: every request it gets is recorded with
 * whether its signature verifies under each secret it was told of, checked by the `standardwebhooks`
 * package (the reference library, not our signing code). What it answers is chosen per path: 200,
 * an error status, a redirect, no answer at all (a hung receiver), or an answer chosen per message
 * (an approval callback's decision, late or malformed).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** An answer of one's own (an approval callback's): its status, body, and how long it takes to come. */
export interface Answer {
  readonly status: number;
  readonly body: string;
  readonly afterMs?: number;
}

export type Behaviour = 'ok' | 'fail' | 'hang' | 'redirect' | ((event: Received['event']) => Answer);

export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly event: { id: string; type: string; created_at: string; data: Record<string, any> };
  /** The secrets (by their position in `secrets`) whose signature verified. */
  readonly verifiedBy: readonly string[];
  readonly at: number;
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** The secrets to verify with, by path. */
  readonly secrets = new Map<string, string[]>();
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly hung = new Set<ServerResponse>();
  private readonly late = new Set<NodeJS.Timeout>();
  private waiters: { check: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}`);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () =>
        receiver.handle(request.url ?? '/', request.headers, Buffer.concat(chunks).toString(), response),
      );
    });
    return receiver;
  }

  /** What `path` answers from now on (200 by default). */
  behave(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  private handle(path: string, headers: IncomingHttpHeaders, body: string, response: ServerResponse): void {
    const verifiedBy = (this.secrets.get(path) ?? []).filter((secret) => {
      try {
        new Webhook(secret).verify(body, headers as Record<string, string>);
        return true;
      } catch {
        return false;
      }
    });
    this.received.push({ path, headers, body, event: JSON.parse(body), verifiedBy, at: Date.now() });
    const behaviour = this.behaviours.get(path) ?? 'ok';
    if (typeof behaviour === 'function') {
      const { status, body: answer, afterMs = 0 } = behaviour(this.received.at(-1)!.event);
      const timer = setTimeout(() => {
        this.late.delete(timer);
        response.writeHead(status, { 'content-type': 'application/json' }).end(answer);
      }, afterMs);
      this.late.add(timer);
    } else if (behaviour === 'hang') this.hung.add(response);
    else if (behaviour === 'redirect') response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
    else response.writeHead(behaviour === 'ok' ? 200 : 500).end(behaviour === 'ok' ? 'ok' : 'boom');
    this.waiters = this.waiters.filter((waiter) => (waiter.check() ? (waiter.resolve(), false) : true));
  }

  /** The requests `path` received. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Resolves once `check` holds (checked on every request), or fails after `timeoutMs`. */
  until(check: () => boolean, timeoutMs = 20_000, what = 'the expected requests'): Promise<void> {
    if (check()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Timed out waiting for ${what}`)), timeoutMs);
      this.waiters.push({
        check,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  async stop(): Promise<void> {
    for (const response of this.hung) response.destroy();
    for (const timer of this.late) clearTimeout(timer);
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
