/**
 * The sponsor bank's connector as we call it (docs/network.md): its paths under the one base URL a
 * stage names (`networkConnectorUrl`), each request signed with our Ed25519 key (RFC 9421, the
 * message id as the signature's nonce: shared/domain/message-signatures.ts), sent through a transport
 * port (shared/data/network-connector.ts is the HTTP one).
 */
import { signRequest, type SigningKey } from './message-signatures';

/** One request to the connector: its status, body and Retry-After, or why there was no answer. */
export interface ConnectorTransport {
  send(request: {
    readonly method: ConnectorMethod;
    readonly url: string;
    readonly headers: Readonly<Record<string, string>>;
    readonly body: string;
    readonly timeoutMs: number;
  }): Promise<ConnectorAnswer>;
}

export type ConnectorMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export type ConnectorAnswer =
  { readonly status: number; readonly body: string; readonly retryAfter?: string } | { readonly error: string };

/** How we reach the connector: where, signed with what, and when (for the signature's `created`). */
export interface ConnectorClient {
  readonly transport: ConnectorTransport;
  /** The connector's base URL: `<base>/v1/transfers`, `<base>/v1/directory/lookups`, ... */
  readonly url: string;
  /** Our key that signs now (during a rotation, the newest: the bank reads every one we publish). */
  readonly signingKey: () => Promise<SigningKey>;
  readonly nowSeconds: () => number;
}

/** The connector's `path` (`v1/transfers`) under its base URL, whether the base ends in `/` or not. */
export const connectorUrl = (base: string, path: string): string =>
  new URL(path, base.endsWith('/') ? base : `${base}/`).toString();

const CONTENT_TYPE = 'application/json';

/**
 * Sends `body` to the connector's `path`, signed with message id `messageId` as the nonce: an order
 * sent again carries its first id, so that the bank can tell it is the same order.
 */
export async function sendToConnector(
  client: ConnectorClient,
  request: { readonly method: ConnectorMethod; readonly path: string; readonly messageId: string },
  body: string,
  timeoutMs: number,
): Promise<ConnectorAnswer> {
  const url = connectorUrl(client.url, request.path);
  const signed = signRequest(
    { method: request.method, targetUri: url, contentType: CONTENT_TYPE, body },
    await client.signingKey(),
    { created: client.nowSeconds(), nonce: request.messageId },
  );
  return client.transport.send({
    method: request.method,
    url,
    headers: { 'content-type': CONTENT_TYPE, 'user-agent': 'breb-merchant-api', ...signed },
    body,
    timeoutMs,
  });
}

/** Seconds of a Retry-After header (delay-seconds form), at least 1 and at most an hour; 1 when absent or odd. */
export function retryAfterSeconds(header: string | undefined): number {
  const seconds = header === undefined ? Number.NaN : Number(header.trim());
  return Number.isInteger(seconds) && seconds >= 1 ? Math.min(seconds, 3_600) : 1;
}
