/**
 * `npm run bench:webhooks`: how long an event takes to reach a webhook receiver, locally. The local
 * runtime `npm start` runs (DynamoDB Local in memory, the dispatcher reading the table's stream, the
 * delivery queue and the sender), a receiver on loopback, and payments to another participant: for
 * each, the time from the payment's commit (the moment its POST is answered, which follows the
 * commit) to the receiver's 200 for its `payment.outbound.confirmed` event. First one payment at a
 * time, then bursts of 25 at once. Writes docs/benchmarks/webhooks.json and docs/benchmarks/webhooks.md.
 *
 * Options (environment): BENCH_PAYMENTS (200 one at a time), BENCH_BURSTS (4 bursts of 25).
 */
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { apiCall, type Answer } from './api-calls';

process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
const { startLocalRuntime, IN_MEMORY } = await import('../infra/local/runtime');
const { REPO_ROOT } = await import('../infra/paths');

const PAYMENTS = Number(process.env['BENCH_PAYMENTS'] ?? 200);
const BURSTS = Number(process.env['BENCH_BURSTS'] ?? 4);
const BURST_SIZE = 25;
/** The sandbox network answers a day later: no settlement job runs during the measurement. */
const NO_SETTLEMENT = 24 * 60 * 60 * 1000;

const runtime = await startLocalRuntime({ port: 0, dataDir: IN_MEMORY, sandboxSettlementDelayMs: NO_SETTLEMENT });

/** When each event's delivery was answered 200, by payment id (performance.now() of this process). */
const arrivals = new Map<string, number>();
const waiting = new Map<string, () => void>();
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const event = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { id: string } };
    response.writeHead(200).end();
    if (event.type !== 'payment.outbound.confirmed') return;
    arrivals.set(event.data.id, performance.now());
    waiting.get(event.data.id)?.();
  });
});
receiver.listen(0, '127.0.0.1');
await once(receiver, 'listening');
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

const call = (method: string, route: string, token: string, body?: unknown): Promise<Answer> =>
  apiCall(runtime.url, token, method, route, body);

const tokenAnswer = await fetch(`${runtime.url}/oauth2/token`, {
  method: 'POST',
  headers: {
    authorization: `Basic ${Buffer.from('sandbox-client-a:sandbox-secret-a').toString('base64')}`,
    'content-type': 'application/x-www-form-urlencoded',
  },
  body: 'grant_type=client_credentials',
});
const token = ((await tokenAnswer.json()) as { access_token: string }).access_token;

// A merchant with one funded account, paying the sandbox's Ana María (another participant).
const nit = '812345678';
const number = '0099887766';
await call('POST', '/sandbox/sponsor-bank/merchants', token, {
  identification_type: 'NIT',
  identification_number: nit,
  business_name: 'Comercio Bench SAS',
  accounts: [{ number, available_balance: '100000000.00' }],
});
const customer = await call('POST', '/v1/customers/business/link', token, {
  type: 'BUSINESS',
  business_name: 'Comercio Bench SAS',
  email: 'bench@example.co',
  mobile_phone_number: '3001234567',
  identification_type: 'NIT',
  identification_number: nit,
  address: { line_1: 'Calle 10 # 5-20', city: 'Bogotá', state: 'Cundinamarca', post_code: '110111', country: 'CO' },
  merchant_category_code: '5411',
});
const account = await call('POST', '/v1/accounts', token, { customer_id: customer['id'], type: 'ORDINARY', number });
await call('POST', '/v1/webhooks', token, { url: receiverUrl, events: ['payment.outbound.confirmed'] });

/** One payment; answers the milliseconds from its answer to its event's 200 at the receiver. */
async function paymentToDelivery(): Promise<number> {
  const resolution = await call('POST', '/v1/resolve-key', token, {
    customer_id: customer['id'],
    key: { key_type: 'PHONE', key_value: '3001234567' },
  });
  const body = {
    customer_id: customer['id'],
    account_id: account['id'],
    resolution_id: resolution['id'],
    amount: { value: '1.00', currency: 'COP' },
  };
  const payment = await call('POST', '/v1/payments', token, body);
  const committed = performance.now();
  const id = payment['id'] as string;
  if (!arrivals.has(id)) {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No event of payment ${id} within 30 s`)), 30_000);
      waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return arrivals.get(id)! - committed;
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const round = (ms: number) => Math.round(ms * 10) / 10;
const summary = (values: readonly number[]) => ({
  samples: values.length,
  p50_ms: round(percentile(values, 50)),
  p99_ms: round(percentile(values, 99)),
  max_ms: round(Math.max(...values)),
});

// Warm-up: the functions' first calls, the stream reader's first shard iterator.
for (let i = 0; i < 10; i += 1) await paymentToDelivery();

const sequential: number[] = [];
for (let i = 0; i < PAYMENTS; i += 1) sequential.push(await paymentToDelivery());
const burst: number[] = [];
for (let b = 0; b < BURSTS; b += 1) {
  burst.push(...(await Promise.all(Array.from({ length: BURST_SIZE }, () => paymentToDelivery()))));
}

await runtime.stop();
receiver.close();

const cpuinfo = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
})();
const result = {
  generated_at: new Date().toISOString(),
  machine: {
    nproc: os.availableParallelism(),
    cpu_model: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU',
    memory_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  one_at_a_time: summary(sequential),
  bursts_of_25: summary(burst),
};

const out = path.join(REPO_ROOT, 'docs', 'benchmarks');
mkdirSync(out, { recursive: true });
writeFileSync(path.join(out, 'webhooks.json'), `${JSON.stringify(result, null, 2)}\n`);
const row = (name: string, s: ReturnType<typeof summary>) =>
  `| ${name} | ${s.samples} | ${s.p50_ms} | ${s.p99_ms} | ${s.max_ms} |`;
writeFileSync(
  path.join(out, 'webhooks.md'),
  `# Webhook delivery benchmark

Generated by \`npm run bench:webhooks\` (bench/webhooks.ts) on ${result.generated_at}.
Machine: ${result.machine.cpu_model}, nproc ${result.machine.nproc}, ${result.machine.memory_gib} GiB, Node ${result.machine.node}.

Time from a payment's commit (its \`POST /v1/payments\` answered) to the receiver's \`200\` for its
\`payment.outbound.confirmed\` event, through the local runtime: DynamoDB Local's stream read by the
dispatcher (polled every 50 ms when idle), the delivery queue, the sender's signed POST to a receiver
on loopback. Milliseconds.

| Payments | Samples | p50 | p99 | max |
|---|--:|--:|--:|--:|
${row('one at a time', result.one_at_a_time)}
${row('25 at once', result.bursts_of_25)}

On AWS the path is the same with Lambda's stream polling (about four times a second per shard) and
SQS in place of the local ones; this local figure measures our code and DynamoDB Local, not those.
`,
);
console.log(JSON.stringify(result, null, 2));
process.exit(0);
