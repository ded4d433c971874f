/**
 * A fake sponsor bank's connector on loopback, speaking only the documented contract (docs/network.md):
 * a real HTTP server that verifies our requests' RFC 9421 signatures with the public keys our API
 * publishes (`GET /network/v1/keys`), signs its own with a key of its own (`publicKeys`), answers each
 * transfer order (202, or as a test says: a failure, or nothing for a while; 400 for one the schema our
 * API publishes does not describe; a return routed to the debtor of the credit it sent, 422 for a
 * credit it never sent: tools/fake-bank-orders.ts), each directory lookup
 * from its directory and each key we publish, suspend, activate or delete there (or as a test says),
 * and calls our status route back, sends credits and pushes its decisions on merchants, signed, as
 * the network would. The connector-mode tests run against it,
 * and `npm run fake-bank` runs it on its own (tools/run-fake-bank.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { SANDBOX_DIRECTORY_KEYS } from '../infra/local/sandbox-fixtures';
import { CreditBook, PublishedOrderSchema, type RoutedReturn, type SentCredit } from './fake-bank-orders';
import {
  generateSigningKey,
  publicJwk,
  signRequest,
  verifyRequest,
  type Jwks,
  type SigningKey,
} from '../shared/domain/message-signatures';

/**
 * A JSON body as the bank reads it, and as the tests that drive it read it: loosely, the tests'
 * assertions being the type check (as eslint allows in test/).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export interface ReceivedOrder {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Json;
  readonly raw: string;
  /** Whether our signature verified with one of the keys our API publishes. */
  readonly signed: boolean;
  /** The signature's nonce: the request's id (an order sent again carries its first). */
  readonly nonce?: string;
  /** When we signed it (the signature's `created`, Unix seconds). */
  readonly created?: number;
}

/** How the bank takes an order: its status (202 takes it), after a wait, after running `before`. */
export interface OrderAnswer {
  readonly status: number;
  readonly delayMs?: number;
  readonly before?: (order: ReceivedOrder) => Promise<void>;
}

export interface FakeBankOptions {
  /** The port on 127.0.0.1; by default any free one. */
  readonly port?: number;
  /** The bank's own signing key (by default a new one): `npm run fake-bank` keeps one across runs. */
  readonly signingKey?: SigningKey;
  /** Who the keys we publish are held by: our sponsor bank (by default the local stage's). */
  readonly participant?: { readonly name: string; readonly identification_number: string };
  /** Answers every order it takes (202) on our status route at `apiUrl`, `delayMs` later (a standalone bank). */
  readonly answerOrders?: { readonly apiUrl: string; readonly delayMs: number };
}

/** A directory entry as the network's directory answers a lookup. */
export type DirectoryAnswer = (typeof SANDBOX_DIRECTORY_KEYS)[number];

/** A key in the bank's directory: whether it resolves, and whether we published it (else another participant). */
export type HeldKey = DirectoryAnswer & { readonly status: 'ACTIVE' | 'SUSPENDED'; readonly ours: boolean };

/** Our participant on the local stage (shared/runtime/config.ts, readParticipant's defaults). */
const LOCAL_PARTICIPANT = { name: 'Banco Patrocinador Sandbox', identification_number: '860000001' };

const KEY_PATH = /^\/v1\/directory\/keys\/([^/]+)\/([^/]+)$/;
const TRANSFER_PATH = /^\/v1\/transfers\/([^/]+)$/;

/** How the bank answers a lookup instead of from its directory: a status, a Retry-After, a body, after a wait. */
export interface LookupAnswer {
  readonly status: number;
  readonly retryAfter?: string;
  readonly body?: string;
  readonly delayMs?: number;
}

/** How a request to our network routes is signed: another key, no signature, or a stale `created`. */
export interface Signing {
  readonly key?: SigningKey;
  readonly unsigned?: boolean;
  readonly ageSeconds?: number;
  /** The bytes sent instead of the ones signed: a body changed in transit. */
  readonly tamper?: (signed: string) => string;
}

/** A request the bank sent us, as sent: its signature's headers and its bytes. */
export interface SentRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface NetworkAnswer {
  readonly status: number;
  readonly body: Json;
  readonly headers: Headers;
}

/** A key as the directory files it: its type and its value. */
const keyOf = (key: { readonly key_type?: string; readonly key_value: string }): string =>
  `${key.key_type}:${key.key_value}`;

export class FakeBank {
  readonly orders: ReceivedOrder[] = [];
  /**
   * The answers to the next orders of an amount (`amount.value`), in turn; once used up, and for any
   * other amount, 202 at once. By amount, so that the sweeper's re-sends of other tests' transfers never
   * take an answer meant for this one.
   */
  readonly plans = new Map<string, OrderAnswer[]>();
  /** The directory lookups received, in order. */
  readonly lookups: ReceivedOrder[] = [];
  /** How the next lookups are answered, in turn; once used up, from the directory. */
  readonly lookupPlans: LookupAnswer[] = [];
  /** Our inquiries about transfers (`GET /v1/transfers/{end_to_end_id}`), in order. */
  readonly inquiries: ReceivedOrder[] = [];
  /** The transfers (by end_to_end_id) whose orders the bank took and still knows. */
  private readonly known = new Set<string>();
  /** What the network answered for a transfer whose callback never reached us (by end_to_end_id). */
  private readonly outcomes = new Map<string, 'SETTLED' | 'REJECTED'>();
  /** What the bank answered each order it received (its status), once it has. */
  private readonly answers = new Map<ReceivedOrder, number>();
  /** The orders refused because the schema our API publishes does not describe them, with why. */
  readonly invalidOrders: { readonly order: ReceivedOrder; readonly errors: readonly string[] }[] = [];
  /** The credits the bank sent and our API accepted, and the returns of them it routed. */
  private readonly credits = new CreditBook();
  /** The schema of orders our API publishes (`GET /network/openapi.json`), every order checked against it. */
  private readonly orderSchema: PublishedOrderSchema;
  /** The bank's requests to us, in order, as sent (signed headers and bytes). */
  readonly sent: SentRequest[] = [];
  /** Our requests that publish, suspend, activate or delete keys, in order. */
  readonly keyChanges: ReceivedOrder[] = [];
  /** How the next of those are answered, in turn; once used up, by the directory. */
  readonly keyChangePlans: LookupAnswer[] = [];
  /** The network's directory: the sandbox's people and businesses at other participants, what `hold` adds, and ours. */
  private readonly directory = new Map<string, HeldKey>(
    SANDBOX_DIRECTORY_KEYS.map((entry) => [keyOf(entry.key), { ...entry, status: 'ACTIVE', ours: false }]),
  );
  private readonly server: Server;
  private waiters: (() => void)[] = [];
  /** The bank's own key: what it signs its requests to us with. */
  private readonly signingKey: SigningKey;

  private constructor(
    server: Server,
    readonly url: string,
    private readonly apiUrl: () => string,
    private readonly options: FakeBankOptions,
  ) {
    this.server = server;
    this.orderSchema = new PublishedOrderSchema(apiUrl);
    this.signingKey = options.signingKey ?? generateSigningKey(`fake-bank-${randomUUID().slice(0, 8)}`);
  }

  /** The bank's public keys: the stage's networkBankKeys (NETWORK_BANK_KEYS for `npm start`). */
  get publicKeys(): Jwks {
    return { keys: [publicJwk(this.signingKey.privateKeyPem, this.signingKey.kid)] };
  }

  /** Our API's public keys as last read where it publishes them. */
  private ourKeys: Jwks | undefined;

  /**
   * Verifies one of our requests with our published keys: read once, and again when a signature does
   * not verify with them (a key we added since, or another run of the API on the same port).
   */
  private async verifyOurs(request: Parameters<typeof verifyRequest>[0]) {
    const now = Math.floor(Date.now() / 1000);
    if (this.ourKeys) {
      const verdict = verifyRequest(request, this.ourKeys, now);
      if (verdict.valid) return verdict;
    }
    this.ourKeys = (await (await fetch(`${this.apiUrl()}/network/v1/keys`)).json()) as Jwks;
    return verifyRequest(request, this.ourKeys, now);
  }

  /** Starts the bank; `apiUrl` is our API's base URL, whose public keys verify our requests. */
  static async start(apiUrl: () => string, options: FakeBankOptions = {}): Promise<FakeBank> {
    // The server answers only once the bank exists, which needs the server's port.
    const started: { bank?: FakeBank } = {};
    const server = createServer((request, response) => {
      started.bank!.take(request, response).catch(() => response.destroy());
    });
    await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', () => ready()));
    const address = server.address() as { port: number };
    // The connector's base URL: orders go to <base>/v1/transfers, lookups to <base>/v1/directory/lookups.
    started.bank = new FakeBank(server, `http://127.0.0.1:${address.port}`, apiUrl, options);
    return started.bank;
  }

  private async take(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const headers = request.headers as Record<string, string | undefined>;
    const check = await this.verifyOurs({
      method: request.method ?? '',
      targetUri: `${this.url}${request.url}`,
      headers,
      body: raw,
    });
    const received: ReceivedOrder = {
      headers,
      body: (raw ? JSON.parse(raw) : {}) as Json,
      raw,
      signed: check.valid,
      ...(check.valid ? { nonce: check.nonce, created: check.created } : {}),
    };
    const route = `${request.method} ${request.url}`;
    if (route === 'POST /v1/transfers') return this.takeOrder(received, response);
    if (route === 'POST /v1/directory/lookups') return this.lookUp(received, response);
    const inquiry = TRANSFER_PATH.exec(request.url ?? '');
    if (request.method === 'GET' && inquiry) return this.inquire(decodeURIComponent(inquiry[1]!), received, response);
    const keyPath = KEY_PATH.exec(request.url ?? '');
    if (route === 'POST /v1/directory/keys' || (keyPath && ['PATCH', 'DELETE'].includes(request.method ?? ''))) {
      const key = keyPath ? `${decodeURIComponent(keyPath[1]!)}:${decodeURIComponent(keyPath[2]!)}` : undefined;
      return this.changeKey(request.method!, key, received, response);
    }
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"reason":"NO_SUCH_ROUTE"}');
  }

  /**
   * A key we publish (POST: 201, or 409 KEY_HELD_ELSEWHERE when another participant, or another
   * account of ours, holds it; the same registration again is 201 and changes nothing), suspend or
   * activate (PATCH `{"status"}`: 200) or delete (DELETE: 204); 404 for a key we do not hold; the
   * next of `keyChangePlans` instead, when there is one; 401 when our signature fails.
   */
  private async changeKey(method: string, key: string | undefined, change: ReceivedOrder, response: ServerResponse) {
    this.keyChanges.push(change);
    const plan = this.keyChangePlans.shift();
    if (plan?.delayMs) await sleep(plan.delayMs);
    const json = { 'content-type': 'application/json' };
    if (!change.signed) return void response.writeHead(401).end();
    if (plan) return void response.writeHead(plan.status, json).end(plan.body ?? '{}');
    if (method === 'POST') {
      const { key: published, account, owner } = change.body;
      const held = this.directory.get(keyOf(published));
      if (held && !(held.ours && held.account.account_number === account.account_number)) {
        return void response.writeHead(409, json).end('{"reason":"KEY_HELD_ELSEWHERE"}');
      }
      const participant = this.options.participant ?? LOCAL_PARTICIPANT;
      const entry: HeldKey = held ?? { key: published, owner, participant, account, status: 'ACTIVE', ours: true };
      this.directory.set(keyOf(published), entry);
      return void response.writeHead(201, json).end(JSON.stringify(entry));
    }
    const held = key === undefined ? undefined : this.directory.get(key);
    if (!held?.ours) return void response.writeHead(404, json).end('{"reason":"KEY_NOT_FOUND"}');
    if (method === 'DELETE') {
      this.directory.delete(key!);
      return void response.writeHead(204).end();
    }
    const changed = { ...held, status: change.body['status'] as HeldKey['status'] };
    this.directory.set(key!, changed);
    response.writeHead(200, json).end(JSON.stringify(changed));
  }

  /** The directory's entry of a key, as it stands (undefined when no participant holds it). */
  entry(key: { readonly key_type: string; readonly key_value: string }): HeldKey | undefined {
    return this.directory.get(keyOf(key));
  }

  /**
   * A directory lookup: the key's entry (200), 404 KEY_NOT_FOUND, or the next of `lookupPlans` (a 429
   * with Retry-After, a 500, a wait, a body outside the contract); 401 when our signature fails.
   */
  private async lookUp(lookup: ReceivedOrder, response: ServerResponse): Promise<void> {
    this.lookups.push(lookup);
    const plan = this.lookupPlans.shift();
    if (plan?.delayMs) await sleep(plan.delayMs);
    if (!lookup.signed) {
      response.writeHead(401).end();
      return;
    }
    const json = { 'content-type': 'application/json' };
    if (plan) {
      const headers = plan.retryAfter === undefined ? json : { ...json, 'retry-after': plan.retryAfter };
      response.writeHead(plan.status, headers).end(plan.body ?? '{}');
      return;
    }
    const entry = this.directory.get(keyOf(lookup.body['key']));
    if (entry?.status !== 'ACTIVE') {
      response.writeHead(404, json).end('{"reason":"KEY_NOT_FOUND"}');
      return;
    }
    const { key, owner, participant, account } = entry;
    response.writeHead(200, json).end(JSON.stringify({ key, owner, participant, account }));
  }

  /**
   * An inquiry: the network's outcome of the transfer when it has one, PENDING for an order taken and
   * not answered, NOT_FOUND for one the bank never took (or forgot); 401 when our signature fails.
   */
  private inquire(endToEndId: string, inquiry: ReceivedOrder, response: ServerResponse): void {
    this.inquiries.push(inquiry);
    if (!inquiry.signed) return void response.writeHead(401).end();
    const status = this.outcomes.get(endToEndId) ?? (this.known.has(endToEndId) ? 'PENDING' : 'NOT_FOUND');
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status }));
  }

  /** The network answered transfer `transferId` with `status`, and its callback to us was lost. */
  answerSilently(transferId: string, status: 'SETTLED' | 'REJECTED'): void {
    this.outcomes.set(this.endToEndIdOf(transferId), status);
  }

  /** The bank loses every trace of transfer `transferId`: an inquiry finds nothing. */
  forget(transferId: string): void {
    this.known.delete(this.endToEndIdOf(transferId));
  }

  /** The end_to_end_id of the order received for `transferId` (or as our orders derive it). */
  private endToEndIdOf(transferId: string): string {
    const order = this.orders.find((received) => received.body['transfer_id'] === transferId);
    return order?.body['end_to_end_id'] ?? `E${transferId.replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 35);
  }

  /** Holds `entry` in the bank's directory: a key of someone at another participant. */
  hold(entry: DirectoryAnswer): void {
    this.directory.set(keyOf(entry.key), { ...entry, status: 'ACTIVE', ours: false });
  }

  /**
   * An order: 401 when our signature fails; 400 `{"reason": "ORDER_INVALID", "errors"}` when the
   * schema our API publishes does not describe it; a return the bank cannot route (a credit it never
   * sent, or more than it credited) 422 with the reason; else 202, or as the test planned.
   */
  private async takeOrder(order: ReceivedOrder, response: ServerResponse): Promise<void> {
    this.orders.push(order);
    for (const wake of this.waiters.splice(0)) wake();
    const planned = this.plans.get(String(order.body['amount']?.value))?.shift() ?? { status: 202 };
    await planned.before?.(order);
    if (planned.delayMs) await sleep(planned.delayMs);
    const { status, body } = await this.answerTo(order, planned.status);
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    this.answers.set(order, status);
    for (const wake of this.waiters.splice(0)) wake();
    if (status === 202) this.known.add(String(order.body['end_to_end_id']));
    if (status === 202 && this.options.answerOrders) this.answerLater(order.body, this.options.answerOrders);
  }

  private async answerTo(order: ReceivedOrder, planned: number): Promise<{ status: number; body: string }> {
    if (!order.signed) return { status: 401, body: '' };
    const errors = await this.orderSchema.problems(order.body);
    if (errors.length > 0) {
      this.invalidOrders.push({ order, errors });
      return { status: 400, body: JSON.stringify({ reason: 'ORDER_INVALID', errors }) };
    }
    if (planned === 202 && order.body['kind'] === 'RETURN') {
      const routed = this.credits.route(order.body);
      if ('refused' in routed) return { status: 422, body: JSON.stringify({ reason: routed.refused }) };
    }
    return { status: planned, body: '{}' };
  }

  /** Waits until the bank has answered the first order for transfer `transferId`: the order and its status. */
  async answeredOrder(transferId: string, timeoutMs = 15_000): Promise<{ order: ReceivedOrder; status: number }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const order = this.orders.find((received) => received.body['transfer_id'] === transferId);
      const status = order && this.answers.get(order);
      if (order && status !== undefined) return { order, status };
      if (Date.now() > deadline) throw new Error(`The bank answered no order for ${transferId}`);
      await Promise.race([new Promise<void>((wake) => this.waiters.push(wake)), sleep(200)]);
    }
  }

  /** The network's answer to a taken order, a moment later: REJECTED for an amount ending in .99, as the sandbox. */
  private answerLater(order: Json, { apiUrl, delayMs }: { apiUrl: string; delayMs: number }): void {
    const rejected = String(order['amount']?.value).endsWith('.99');
    const status = rejected ? { status: 'REJECTED', reason: 'AC04' } : { status: 'SETTLED' };
    setTimeout(() => {
      this.callBack(apiUrl, String(order['transfer_id']), status).then(
        (answer) =>
          console.log(`fake bank: ${order['transfer_id']} ${status.status}, the API answered ${answer.status}`),
        (error: unknown) => console.error(`fake bank: callback failed: ${String(error)}`),
      );
    }, delayMs);
  }

  /** Waits until the bank has received `count` orders for transfer `transferId`; answers them. */
  async ordersFor(transferId: string, count = 1, timeoutMs = 15_000): Promise<ReceivedOrder[]> {
    const deadline = Date.now() + timeoutMs;
    const received = () => this.orders.filter((order) => order.body['transfer_id'] === transferId);
    while (received().length < count) {
      if (Date.now() > deadline) throw new Error(`The bank received ${received().length} of ${count} orders`);
      await Promise.race([new Promise<void>((wake) => this.waiters.push(wake)), sleep(200)]);
    }
    return received().slice(0, count);
  }

  /**
   * Calls our status route for `transferId`, signed with the bank's key unless `signing` says
   * otherwise: another key, no signature, or a `created` `ageSeconds` old. The body names the
   * transfer, as the contract asks: its `transfer_id` and the `end_to_end_id` of the order received for
   * it (or, for one never received, the id derived as our orders derive it), unless `status` names
   * them itself.
   */
  callBack(
    apiUrl: string,
    transferId: string,
    status: Record<string, unknown>,
    signing: Signing = {},
  ): Promise<NetworkAnswer> {
    const body = JSON.stringify({ transfer_id: transferId, end_to_end_id: this.endToEndIdOf(transferId), ...status });
    return this.send(`${apiUrl}/network/v1/transfers/${transferId}/status`, body, signing);
  }

  /**
   * Sends a credit to our credit route (a shopper's bank paying one of our merchants), signed as
   * callBack. One our API accepts is kept: a return of it is routed back to its debtor.
   */
  async credit(
    apiUrl: string,
    credit: Record<string, unknown> | string,
    signing: Signing = {},
  ): Promise<NetworkAnswer> {
    const body = typeof credit === 'string' ? credit : JSON.stringify(credit);
    const answer = await this.send(`${apiUrl}/network/v1/credits`, body, signing);
    if (typeof credit !== 'string' && answer.status === 200 && answer.body?.status === 'ACCEPTED') {
      this.credits.accepted(credit as unknown as SentCredit);
    }
    return answer;
  }

  /** The return the bank routed for our transfer `transferId` (a refund): to whom, of which credit. */
  returnOf(transferId: string): RoutedReturn | undefined {
    return this.credits.returnOf(transferId);
  }

  /** Takes back (part of) a credit it sent: our reversal route (docs/network.md), signed as callBack. */
  reverse(apiUrl: string, endToEndId: string, reversal: Record<string, unknown>, signing: Signing = {}) {
    return this.send(`${apiUrl}/network/v1/credits/${endToEndId}/reversals`, JSON.stringify(reversal), signing);
  }

  /**
   * Pushes the bank's decision on a merchant to our onboarding route (docs/onboarding.md), signed as
   * callBack; `path` names it, by default `NIT/<nit>` of the decision's own `nit`.
   */
  decide(
    apiUrl: string,
    nit: string,
    decision: Record<string, unknown> | string,
    signing: Signing = {},
    path = `NIT/${nit}`,
  ): Promise<NetworkAnswer> {
    const body = typeof decision === 'string' ? decision : JSON.stringify(decision);
    return this.send(`${apiUrl}/network/v1/merchants/${path}`, body, signing, 'PUT');
  }

  /**
   * Sends a Bogotá day's settlement file to our route (docs/network.md, "Settlement files"), signed as
   * callBack: JSON lines, one object a line (or `lines` as given, byte for byte).
   */
  settlementFile(
    apiUrl: string,
    date: string,
    lines: readonly Record<string, unknown>[] | string,
    signing: Signing = {},
    contentType = 'application/x-ndjson',
  ): Promise<NetworkAnswer> {
    const body = typeof lines === 'string' ? lines : lines.map((line) => `${JSON.stringify(line)}\n`).join('');
    return this.send(`${apiUrl}/network/v1/settlement-files/${date}`, body, signing, 'PUT', contentType);
  }

  private async send(
    url: string,
    body: string,
    signing: Signing,
    method = 'POST',
    contentType = 'application/json',
  ): Promise<NetworkAnswer> {
    const created = Math.floor(Date.now() / 1000) - (signing.ageSeconds ?? 0);
    const signed = signing.unsigned
      ? {}
      : signRequest({ method, targetUri: url, contentType, body }, signing.key ?? this.signingKey, {
          created,
          nonce: `msg_${randomUUID()}`,
        });
    const request: SentRequest = {
      url,
      method,
      headers: { 'content-type': contentType, ...signed },
      body: signing.tamper ? signing.tamper(body) : body,
    };
    this.sent.push(request);
    return this.replay(request);
  }

  /** Sends `request` again, byte for byte: what someone who captured it could do within its 5 minutes. */
  async replay(request: SentRequest): Promise<NetworkAnswer> {
    const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
    const text = await response.text();
    // The headers ride along unenumerated, so that a test may compare the answer's status and body whole.
    return Object.defineProperty({ status: response.status, body: text ? JSON.parse(text) : undefined }, 'headers', {
      value: response.headers,
      enumerable: false,
    }) as NetworkAnswer;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }
}
