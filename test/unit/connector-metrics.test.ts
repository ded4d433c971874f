/**
 * The connector's requests are counted, timed and, when the connector does not take them, counted
 * failures (shared/data/network-connector.ts, CONNECTOR_METRICS), each on an EMF line with the
 * service dimension alone, from a route as from a worker: what the ConnectorFailureRate and
 * ConnectorLatencyP99 alarms read. Against a real HTTP server on loopback.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jest } from '@jest/globals';
import { CONNECTOR_METRICS } from '../../shared/observability/metric-names';

let server: Server;
let url: string;
let fetchConnector: typeof import('../../shared/data/network-connector').fetchConnector;

beforeAll(async () => {
  // Metrics are silent outside Lambda unless told otherwise (shared/observability/telemetry.ts).
  process.env['POWERTOOLS_METRICS_DISABLED'] = 'false';
  ({ fetchConnector } = await import('../../shared/data/network-connector'));
  server = createServer((request, response) => {
    const status = Number(new URL(request.url!, 'http://x').searchParams.get('status'));
    if (status === 0) return; // never answers
    response.writeHead(status).end('{}');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

afterEach(() => jest.restoreAllMocks());

/** The EMF lines one request writes: each metric's value and the line's dimension sets. */
async function metricsOf(status: number, timeoutMs = 2_000) {
  const lines: string[] = [];
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => lines.push(String(chunk)) > 0);
  const answer = await fetchConnector.send({
    method: 'POST',
    url: `${url}?status=${status}`,
    headers: {},
    body: '{}',
    timeoutMs,
  });
  jest.restoreAllMocks();
  const emf = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => '_aws' in line);
  const value = (name: string) => emf.map((line) => line[name]).find((v) => v !== undefined);
  return {
    answer,
    calls: value(CONNECTOR_METRICS.calls),
    failures: value(CONNECTOR_METRICS.failures),
    latency: value(CONNECTOR_METRICS.latency) as number,
    dimensions: emf.map(
      (line) => (line['_aws'] as { CloudWatchMetrics: { Dimensions: unknown }[] }).CloudWatchMetrics[0]!.Dimensions,
    ),
  };
}

it('an answer taken is a call and no failure, timed, with the service dimension alone', async () => {
  const seen = await metricsOf(202);
  expect(seen.answer).toMatchObject({ status: 202 });
  expect([seen.calls, seen.failures]).toEqual([1, 0]);
  expect(seen.latency).toBeGreaterThanOrEqual(0);
  expect(seen.dimensions).toEqual([[['service']], [['service']], [['service']]]);
});

it.each([
  ['a 5xx', 503],
  ['a 429', 429],
  ['a 408', 408],
])('%s is a failure', async (_what, status) => {
  const seen = await metricsOf(status);
  expect(seen.answer).toMatchObject({ status });
  expect([seen.calls, seen.failures]).toEqual([1, 1]);
});

it('a refusal of ours (a 4xx) is no failure of the connector', async () => {
  expect(await metricsOf(401)).toMatchObject({ calls: 1, failures: 0 });
});

it('no answer within the time limit is a failure, timed at the limit', async () => {
  const seen = await metricsOf(0, 300);
  expect(seen.answer).toEqual({ error: 'no answer within 300 ms' });
  expect([seen.calls, seen.failures]).toEqual([1, 1]);
  expect(seen.latency).toBeGreaterThanOrEqual(290);
});
