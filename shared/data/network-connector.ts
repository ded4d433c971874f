/**
 * The HTTP client of the sponsor bank's connector (the ConnectorTransport port of
 * shared/domain/transfer-orders.ts): one POST to the configured URL, no redirect followed (an order
 * is never sent on elsewhere), given up after the time limit. The URL is the deployment's own
 * setting, never a client's, so no URL rule applies as for webhooks.
 */
import type { ConnectorTransport } from '../domain/transfer-orders';

export const fetchConnector: ConnectorTransport = {
  async post({ url, headers, body, timeoutMs }) {
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      await response.body?.cancel();
      return { status: response.status };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return { error: timedOut ? `no answer within ${timeoutMs} ms` : String(error) };
    }
  },
};
