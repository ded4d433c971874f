/**
 * The HTTP client of the sponsor bank's connector (the ConnectorTransport port of
 * shared/domain/connector.ts): one request to the configured URL, no redirect followed (a request is
 * never sent on elsewhere), given up after the time limit. The URL is the deployment's own setting,
 * never a client's, so no URL rule applies as for webhooks. An answer's body is read up to 64 KiB:
 * the connector's answers are small, and a larger one is no answer of its. Every request is counted,
 * timed and, when the connector did not take it, counted a failure (CONNECTOR_METRICS), which the
 * stack's alarms watch.
 */
import type { ConnectorAnswer, ConnectorTransport } from '../domain/connector';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { CONNECTOR_METRICS } from '../observability/metric-names';
import { metrics } from '../observability/telemetry';
import { passWriteGate } from './write-gate';

const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * The connector did not take the request: no answer, or one that says it cannot now (a 5xx, a 408 or
 * a 429, which the transfer orders also send again: shared/domain/transfer-orders.ts).
 */
export const isConnectorFailure = (answer: ConnectorAnswer): boolean =>
  'error' in answer || answer.status >= 500 || answer.status === 408 || answer.status === 429;

export const fetchConnector: ConnectorTransport = {
  async send(request) {
    const started = performance.now();
    const answer = await sendOnce(request);
    // With the service dimension alone, from a route as from a worker: what the alarms read.
    const published = metrics.singleMetric();
    published.addMetric(CONNECTOR_METRICS.calls, MetricUnit.Count, 1);
    published.addMetric(CONNECTOR_METRICS.failures, MetricUnit.Count, isConnectorFailure(answer) ? 1 : 0);
    published.addMetric(CONNECTOR_METRICS.latency, MetricUnit.Milliseconds, Math.round(performance.now() - started));
    return answer;
  },
};

async function sendOnce({
  method,
  url,
  headers,
  body,
  timeoutMs,
}: Parameters<ConnectorTransport['send']>[0]): Promise<ConnectorAnswer> {
  // Nothing reaches the bank before the request's checks let it (shared/data/write-gate.ts).
  await passWriteGate();
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
    // By name, not instanceof: the abort's DOMException may come from another realm (a VM context).
    const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
    return { error: timedOut ? `no answer within ${timeoutMs} ms` : String(error) };
  }
}
