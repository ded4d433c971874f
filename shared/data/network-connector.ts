/**
 * The HTTP client of the sponsor bank's connector (the ConnectorTransport port of
 * shared/domain/connector.ts): one request to the configured URL, no redirect followed (a request is
 * never sent on elsewhere), given up after the time limit. The URL is the deployment's own setting,
 * never a client's, so no URL rule applies as for webhooks. An answer's body is read up to 64 KiB:
 * the connector's answers are small, and a larger one is no answer of its.
 */
import type { ConnectorTransport } from '../domain/connector';

const MAX_ANSWER_BYTES = 64 * 1024;

export const fetchConnector: ConnectorTransport = {
  async send({ method, url, headers, body, timeoutMs }) {
    try {
      const response = await fetch(url, {
        method,
        headers,
        // A GET carries no body (fetch refuses one); its signature covers the empty one.
        ...(method === 'GET' ? {} : { body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      const retryAfter = response.headers.get('retry-after') ?? undefined;
      if (Buffer.byteLength(text) > MAX_ANSWER_BYTES) {
        return { error: `an answer of ${Buffer.byteLength(text)} bytes, over ${MAX_ANSWER_BYTES}` };
      }
      return { status: response.status, body: text, ...(retryAfter === undefined ? {} : { retryAfter }) };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return { error: timedOut ? `no answer within ${timeoutMs} ms` : String(error) };
    }
  },
};
