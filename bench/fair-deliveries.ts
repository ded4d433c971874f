/**
 * `npm run bench:fairness`: what one receiver that never answers costs the other clients' webhook
 * deliveries (docs/webhooks.md, "Slow receivers"). The local runtime `npm start` runs (DynamoDB Local in
 * memory, the stream read by the dispatcher, the delivery queue as a fair queue with the deployed
 * batch size, concurrency and visibility timeout, the sender with its breaker per endpoint), with
 * WEBHOOK_TIMEOUT_MS 1000, and FAIRNESS_CLIENTS (100) clients, each its own tenant with one webhook on
 * a receiver on loopback. Every client sends a `webhook.test` event (POST /v1/webhooks/{id}/test, the
 * real route: the event and its delivery committed, read from the stream, queued, sent) once every
 * FAIRNESS_INTERVAL_MS (20000), the clients spread evenly over the interval, for FAIRNESS_SECONDS (60),
 * but the last, which sends one every FAIRNESS_TIMING_OUT_INTERVAL_MS (1000): about 6 events a second
 * in all, and enough attempts at the timing-out receiver (below) to open its breaker. (On the shared 2-core machine the benchmarks run on, 10 a second already
 * outran the local runtime, its answers falling further behind each second: a run then measures the
 * backlog, not the receivers.)
 *
 * Two runs of the same load in this one process, after a warm-up: first every receiver answers 200 at
 * once; then the last client's receiver never answers (it holds the connection until the sender's
 * timeout). Measured, for the other clients (the same 99 in both runs): the time from each event's
 * `created_at` to its arrival at the receiver; p50 and p99 of each run, and p99(with)/p99(without),
 * whose target is at most 2. Writes docs/benchmarks/fairness.json and docs/benchmarks/fairness.md.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { machineLine, median } from './run-facts';
import { apiCall, type Answer } from './api-calls';

process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
const { startLocalRuntime, IN_MEMORY } = await import('../infra/local/runtime');
const { DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS } = await import('../infra/local/dynamodb-local');
const { allScopes } = await import('../functions/routes/definitions');
const { REPO_ROOT } = await import('../infra/paths');
const { DEFAULT_BREAKER_SETTINGS } = await import('../shared/domain/endpoint-breaker');

const CLIENTS = Number(process.env['FAIRNESS_CLIENTS'] ?? 100);
const SECONDS = Number(process.env['FAIRNESS_SECONDS'] ?? 60);
const INTERVAL_MS = Number(process.env['FAIRNESS_INTERVAL_MS'] ?? 20_000);
/** The last client's interval, in both runs: the one whose receiver times out in the second. */
const TIMING_OUT_INTERVAL_MS = Number(process.env['FAIRNESS_TIMING_OUT_INTERVAL_MS'] ?? 1000);
/** One round of events: every client's functions, token and receiver used once before the runs. */
const WARM_UP_SECONDS = Number(process.env['FAIRNESS_WARM_UP_SECONDS'] ?? INTERVAL_MS / 1000);
const WEBHOOK_TIMEOUT_MS = 1000;
/** How long the deliveries of a run may take to arrive after its last event. */
const DRAIN_MS = 60_000;
const TARGET_RATIO = 2;
/** Failed attempts in a row that open an endpoint's breaker (shared/domain/endpoint-breaker.ts). */
const BREAKER_FAILURES = DEFAULT_BREAKER_SETTINGS.failures;
const started = Date.now();

/** The sandbox network answers a day later: no settlement job runs during the measurement. */
const NO_SETTLEMENT = 24 * 60 * 60 * 1000;
const runtime = await startLocalRuntime({
  port: 0,
  dataDir: IN_MEMORY,
  sandboxSettlementDelayMs: NO_SETTLEMENT,
  dynamodbRequestTimeoutMs: DYNAMODB_LOCAL_UNDER_LOAD_TIMEOUT_MS,
  webhookTimeoutMs: WEBHOOK_TIMEOUT_MS,
});

const clientIds = Array.from({ length: CLIENTS }, (_, i) => `fairness-client-${String(i + 1).padStart(3, '0')}`);
/** The client whose receiver never answers in the second run. */
const timingOut = clientIds[CLIENTS - 1]!;

/** When each event arrived at its receiver (Date.now(), the clock its `created_at` was read from), by event id. */
const arrivals = new Map<string, { client: string; ms: number }>();
/** The requests the timing-out receiver took and never answered, until the sender gave up on them. */
const held = new Set<ServerResponse>();
/** When the timing-out receiver took each request (Date.now()). */
const heldAt: number[] = [];
let hanging = false;
const receiver = createServer((request, response) => {
  const client = request.url!.slice(1);
  if (hanging && client === timingOut) {
    heldAt.push(Date.now());
    held.add(response);
    response.on('close', () => held.delete(response));
    request.resume();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const arrived = Date.now();
    response.writeHead(200).end();
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
    arrivals.set(event.id, { client, ms: arrived });
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const call = (method: string, route: string, token: string, body?: unknown): Promise<Answer> =>
  apiCall(runtime.url, token, method, route, body);

// Each client a tenant of its own. The local issuer knows three sandbox clients, and its authorizer
// accepts only their client ids; a token naming its `tenant` works for that tenant, as a dashboard
// person's does (shared/http/middlewares.ts). So each client's token is sandbox-client-a's with the
// client's own tenant: its own data, its own webhook, its own message group.
/** Each client's token and webhook, made ten clients at a time (a hundred at once swamp a cold DynamoDB Local). */
async function clientOf(clientId: string) {
  const token = await runtime.issuer.sign({
    sub: clientId,
    client_id: 'sandbox-client-a',
    tenant: clientId,
    scope: allScopes.join(' '),
    token_use: 'access',
  });
  const webhook = await call('POST', '/v1/webhooks', token, {
    url: `${receiverUrl}/${clientId}`,
    events: ['payment.settled'],
  });
  return { clientId, token, webhookId: webhook['id']! };
}
const clients: Awaited<ReturnType<typeof clientOf>>[] = [];
for (let i = 0; i < clientIds.length; i += 10) {
  clients.push(...(await Promise.all(clientIds.slice(i, i + 10).map(clientOf))));
}

/** One event of a run, once its send was answered: its client, its id, when it was made and answered. */
interface Sent {
  readonly client: string;
  readonly eventId: string;
  readonly createdAtMs: number;
  readonly answeredMs: number;
}

/**
 * Every client sends a test event every INTERVAL_MS for `seconds`, the clients' sends spread evenly
 * over the interval; a send is not waited for before the next (the load does not ease when the API
 * slows). Answers the events sent and the sends that failed.
 */
async function load(seconds: number): Promise<{ sent: Sent[]; failed: number }> {
  const sent: Sent[] = [];
  let failed = 0;
  const start = performance.now() + 50;
  const sends: Promise<void>[] = [];
  await Promise.all(
    clients.map(async ({ clientId, token, webhookId }, i) => {
      const every = i === clients.length - 1 ? TIMING_OUT_INTERVAL_MS : INTERVAL_MS;
      for (let at = (i * INTERVAL_MS) / CLIENTS; at < seconds * 1000; at += every) {
        const wait = start + at - performance.now();
        if (wait > 0) await sleep(wait);
        sends.push(
          call('POST', `/v1/webhooks/${webhookId}/test`, token).then(
            (delivery) =>
              void sent.push({
                client: clientId,
                eventId: delivery['event_id']!,
                createdAtMs: Date.parse(delivery['created_at']!),
                answeredMs: Date.now(),
              }),
            () => void (failed += 1),
          ),
        );
      }
    }),
  );
  await Promise.all(sends);
  return { sent, failed };
}

/** Waits until every event of `healthy` has arrived, or DRAIN_MS has passed. */
async function drained(healthy: readonly Sent[]): Promise<void> {
  const deadline = Date.now() + DRAIN_MS;
  while (Date.now() < deadline && healthy.some((event) => !arrivals.has(event.eventId))) await sleep(100);
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

interface RunFigures {
  readonly events_sent: number;
  readonly sends_failed: number;
  readonly healthy_events: number;
  readonly healthy_arrived: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
  readonly max_ms: number;
  /**
   * From an event's `created_at` to its send's answer, every client's: the API's own part. Flat and
   * short, the runtime kept up with the load; growing, it fell behind and the run measured a backlog.
   */
  readonly send_answer_p50_ms: number;
  readonly send_answer_p99_ms: number;
}

/** One run of the load; the figures of the healthy clients' deliveries (every client but the timing-out one). */
async function run(seconds: number): Promise<RunFigures> {
  const { sent, failed } = await load(seconds);
  const healthy = sent.filter((event) => event.client !== timingOut);
  await drained(healthy);
  const latencies = new Map<string, number[]>();
  for (const event of healthy) {
    const arrival = arrivals.get(event.eventId);
    if (!arrival) continue;
    const own = latencies.get(event.client) ?? [];
    own.push(arrival.ms - event.createdAtMs);
    latencies.set(event.client, own);
  }
  const all = [...latencies.values()].flat();
  const answers = sent.map((event) => event.answeredMs - event.createdAtMs);
  return {
    events_sent: sent.length,
    sends_failed: failed,
    healthy_events: healthy.length,
    healthy_arrived: all.length,
    p50_ms: median(all),
    p99_ms: percentile(all, 99),
    max_ms: Math.max(...all),
    send_answer_p50_ms: median(answers),
    send_answer_p99_ms: percentile(answers, 99),
  };
}

console.log(`${CLIENTS} clients, one event each every ${INTERVAL_MS} ms; warm-up ${WARM_UP_SECONDS} s`);
await run(WARM_UP_SECONDS);
console.log(`Run without the timing-out receiver: ${SECONDS} s`);
const without = await run(SECONDS);
console.log(JSON.stringify(without));
hanging = true;
console.log(`Run with ${timingOut}'s receiver never answering: ${SECONDS} s`);
const hangingFrom = Date.now();
const withBad = await run(SECONDS);
/** The seconds into the second run at which the timing-out receiver took a request (an attempt of the sender). */
const timingOutAttempts = heldAt.map((at) => Math.round((at - hangingFrom) / 100) / 10);
console.log(JSON.stringify(withBad));

await runtime.stop();
for (const response of held) response.destroy();
receiver.closeAllConnections();
receiver.close();

const ratioOf = (a: number, b: number) => Math.round((a / b) * 100) / 100;
const ratio = ratioOf(withBad.p99_ms, without.p99_ms);
const loadAverage = os
  .loadavg()
  .map((value) => value.toFixed(2))
  .join(' ');
const result = {
  generated_at: new Date().toISOString(),
  machine: machineLine(),
  load_average_at_end: loadAverage,
  total_seconds: Math.round((Date.now() - started) / 1000),
  clients: CLIENTS,
  interval_ms: INTERVAL_MS,
  timing_out_client_interval_ms: TIMING_OUT_INTERVAL_MS,
  seconds_per_run: SECONDS,
  warm_up_seconds: WARM_UP_SECONDS,
  webhook_timeout_ms: WEBHOOK_TIMEOUT_MS,
  timing_out_client: timingOut,
  without_timing_out_receiver: without,
  with_timing_out_receiver: { ...withBad, timing_out_receiver_attempts_at_s: timingOutAttempts },
  p50_ratio: ratioOf(withBad.p50_ms, without.p50_ms),
  p99_ratio: ratio,
  target_ratio: TARGET_RATIO,
  within_target: ratio <= TARGET_RATIO,
};

const out = path.join(REPO_ROOT, 'docs', 'benchmarks');
writeFileSync(path.join(out, 'fairness.json'), `${JSON.stringify(result, null, 2)}\n`);
const row = (name: string, figures: RunFigures) =>
  `| ${name} | ${figures.events_sent} | ${figures.sends_failed} | ${figures.healthy_arrived} of ${figures.healthy_events} | ${figures.p50_ms} | ${figures.p99_ms} | ${figures.max_ms} | ${figures.send_answer_p50_ms} | ${figures.send_answer_p99_ms} |`;
writeFileSync(
  path.join(out, 'fairness.md'),
  `# Fair deliveries: one receiver that never answers beside ${CLIENTS - 1} healthy ones

Generated by \`npm run bench:fairness\` (bench/fair-deliveries.ts) on ${result.generated_at}, in ${result.total_seconds} s.
Machine: ${result.machine}; load average ${loadAverage} at the end of the run (the machine is shared:
the latencies move with it). Figures: [fairness.json](fairness.json).

The local runtime \`npm start\` runs, in one process: DynamoDB Local in memory, the dispatcher reading
the table's stream, the delivery queue with the deployed batch size, consumer concurrency and
visibility timeout, taking the waiting messages in turns across their message groups (each client's
deliveries in its own), and the sender, which sends a batch's deliveries at once behind a breaker per
endpoint ([webhooks.md](../webhooks.md#slow-receivers)). The receivers' timeout is ${WEBHOOK_TIMEOUT_MS} ms
(\`WEBHOOK_TIMEOUT_MS\`); the retry backoff and the breaker's cool-down are the deployed ones.

${CLIENTS} clients, each its own tenant with one webhook on a receiver on loopback. Each client sends a
\`webhook.test\` event (\`POST /v1/webhooks/{id}/test\`) every ${INTERVAL_MS} ms, the clients spread
evenly over the interval, without waiting for the previous send; ${timingOut} sends one every
${TIMING_OUT_INTERVAL_MS} ms in both runs: ${Math.round(((CLIENTS - 1) * 1000) / INTERVAL_MS + 1000 / TIMING_OUT_INTERVAL_MS)} events a second. After a
${WARM_UP_SECONDS} s warm-up, two runs of ${SECONDS} s each with the same load: first every receiver answers
\`200\` at once; then ${timingOut}'s receiver never answers (it holds the connection until the sender
times out). Latency: from an event's \`created_at\` to its arrival at the receiver, for the same
${CLIENTS - 1} healthy clients in both runs (${timingOut}'s deliveries are left out of both). Milliseconds.

The rate is below one event a client a second (100 a second): on this shared 2-core machine a trial at 10
events a second outran the local runtime (its answers fell further behind every second, from 0.4 s to
4.5 s within 7 s), and a run past what the runtime can take measures its backlog, not the receivers.

| Run | Events sent | Sends failed | Healthy arrived | p50 | p99 | max | Send answered p50 | Send answered p99 |
|---|--:|--:|--:|--:|--:|--:|--:|--:|
${row(`${CLIENTS} healthy`, without)}
${row(`${CLIENTS - 1} healthy + 1 timing out`, withBad)}

**p99 with / p99 without: ${ratio}** (target: at most ${TARGET_RATIO}; ${result.within_target ? 'met' : 'not met'}); p50 with /
p50 without: ${result.p50_ratio}. "Send answered": from an event's \`created_at\` to its
\`POST\`'s answer, every client's: the API's own part, beside the delivery's. Were the runtime behind
the load, both would grow through the run and measure its backlog rather than the receivers.

The timing-out receiver took ${timingOutAttempts.length} attempts, at ${timingOutAttempts.join(', ')} s into
its run (or the wait for the last deliveries after it): its events' first attempts and retries with
the deployed backoff (the first within a minute), each holding its batch for the ${WEBHOOK_TIMEOUT_MS} ms
timeout while the batch's other deliveries went at once. ${
    timingOutAttempts.length < BREAKER_FAILURES
      ? `Fewer than the ${BREAKER_FAILURES} failures in a row that open an endpoint's breaker: the breaker
played no part in this run.`
      : `After ${BREAKER_FAILURES} failed attempts in a row the breaker holds an endpoint back for its
cool-down (30 s), one attempt let through after it.`
  }

The figures are from this one run, on a shared machine.
`,
);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
