/**
 * The webhook sender's HTTP client (the WebhookTransport port of shared/domain/deliveries.ts). The
 * connection goes to the address the sender checked under the URL rules (a pinned lookup), so a name
 * that changed its answer since the check cannot lead the call elsewhere; TLS still verifies the
 * certificate against the URL's host name. No redirect is followed (Node's client never does), no
 * connection is kept or shared between receivers, and the timeout covers the connection and the wait
 * for the status line (and for the whole body, when the caller reads the answer).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../domain/signed-post';
import { passWriteGate } from './write-gate';

/** A lookup that answers `address` whatever it is asked: the connection goes where the check looked. */
const pinnedLookup =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all)
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };

/** The words of a failed connection (no secret or body is ever in them). */
function connectionError(error: NodeJS.ErrnoException, host: string): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${host}`;
    case 'ECONNRESET':
      return `Connection reset by ${host}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host} is unreachable`;
    default:
      return `Connection to ${host} failed: ${error.code ?? error.message}`;
  }
}

function send({ url, address, headers, body, timeoutMs, maxAnswerBytes }: WebhookRequest): Promise<WebhookResponse> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (response: Omit<WebhookResponse, 'duration_ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...response, duration_ms: elapsed() });
    };
    const outgoing = client.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      lookup: pinnedLookup(address),
      // A connection of its own, closed after the answer: nothing is shared between receivers.
      agent: false,
    });
    const timer = setTimeout(() => {
      finish({ timedOut: true });
      outgoing.destroy();
    }, timeoutMs);
    outgoing.on('response', (incoming) => {
      const status_code = incoming.statusCode ?? 0;
      if (maxAnswerBytes === undefined) {
        finish({ status_code });
        // The status is the answer; the body is read and dropped (briefly), never kept.
        incoming.resume();
        setTimeout(() => incoming.destroy(), 1_000).unref();
        return;
      }
      // The body is the answer too: read whole within the same timeout, and no more than asked.
      const chunks: Buffer[] = [];
      let bytes = 0;
      incoming.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxAnswerBytes) {
          finish({ status_code, error: `The answer is longer than ${maxAnswerBytes} bytes` });
          incoming.destroy();
        } else chunks.push(chunk);
      });
      incoming.on('end', () => finish({ status_code, answer: Buffer.concat(chunks).toString('utf8') }));
      incoming.on('error', (error) => finish({ status_code, error: connectionError(error, url.host) }));
    });
    outgoing.on('error', (error) => finish({ error: connectionError(error, url.host) }));
    outgoing.end(body);
  });
}

export const httpWebhookTransport: WebhookTransport = {
  // Nothing reaches a receiver before the request's checks let it (shared/data/write-gate.ts).
  post: async (request) => (await passWriteGate(), send(request)),
};
