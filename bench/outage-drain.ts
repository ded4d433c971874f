/**
 * `npm run bench:drain`: how long the sweeper takes to drain what a queue outage strands (issue 43,
 * docs/reliability.md, "The sweeper"). For DRAIN_OUTAGE_SECONDS (60) at DRAIN_PAYMENTS_PER_SECOND
 * (1,000) every payment committed with its due entry while its settlement job's SendMessage failed:
 * 60,000 PENDING payments in the index of due work, past their grace, spread over its 32 shards as
 * their ids spread them. They are written straight into a new table in DynamoDB Local (the payments'
 * own writes are not what is measured), then the sweeper's runs take them: the real sweep
 * (shared/domain/sweep.ts) over the real index (shared/data/due-work.ts, every shard each run, as
 * on AWS), each run with the worker table's timeout and margin, one a minute as the schedule starts
 * them. Its restarts' SendMessage is a queue that holds each send DRAIN_SEND_MS (10: SQS's order of
 * magnitude in region) and counts it; nothing else is left out.
 *
 * The drain time is the time from the first run's start to the end of the run that restarted the
 * last payment, with the runs placed a minute apart (a run ends before its timeout, 60 s). Target:
 * under 10 minutes. Writes docs/benchmarks/drain.json and docs/benchmarks/drain.md.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { withBenchTable, benchTableName } from './bench-table';
import { machineLine } from './run-facts';

const { REPO_ROOT } = await import('../infra/paths');
const { dynamo } = await import('../shared/data/client');
const { dueKeys, sweptDueWork, SWEEP_ROUND_MS } = await import('../shared/data/due-work');
const { itemKeys } = await import('../shared/data/item-keys');
const { sweep } = await import('../shared/domain/sweep');
const { workerOf } = await import('../functions/workers');
const { dynamoDeliveryStore } = await import('../shared/data/deliveries-repository');
const { dynamoDispatchedEvents } = await import('../shared/data/events');
const { dynamoWebhookStore } = await import('../shared/data/webhooks-repository');
const { systemClock } = await import('../shared/domain/clock');

const PAYMENTS_PER_SECOND = Number(process.env['DRAIN_PAYMENTS_PER_SECOND'] ?? 1000);
const OUTAGE_SECONDS = Number(process.env['DRAIN_OUTAGE_SECONDS'] ?? 60);
const SEND_MS = Number(process.env['DRAIN_SEND_MS'] ?? 10);
const STRANDED = PAYMENTS_PER_SECOND * OUTAGE_SECONDS;
const { timeoutSeconds, recordSeconds } = workerOf('sweep-stranded-work');
const TARGET_MS = 10 * 60_000;

/** The payments the outage stranded: PENDING, in the index since the outage (an hour ago, past any grace). */
async function strand(count: number): Promise<void> {
  const outageStart = Date.now() - 60 * 60_000;
  const items = Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const at = new Date(outageStart + Math.floor((i / count) * OUTAGE_SECONDS * 1000)).toISOString();
    return {
      ...itemKeys.payment(id),
      ...dueKeys(id, at),
      entity: 'PAYMENT',
      id,
      tenant: 'bench-client',
      status: 'PENDING',
      created_at: at,
    };
  });
  const batches = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, i * 25 + 25));
  let next = 0;
  const writer = async () => {
    while (next < batches.length) {
      let requests = batches[next++]!.map((Item) => ({ PutRequest: { Item } }));
      while (requests.length > 0) {
        const { UnprocessedItems } = await dynamo().send(
          new BatchWriteCommand({ RequestItems: { [benchTableName()]: requests } }),
        );
        requests = (UnprocessedItems?.[benchTableName()] ?? []) as typeof requests;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, writer));
}

interface Run {
  readonly restarted: number;
  readonly seen: number;
  readonly ms: number;
  readonly stoppedForTime: boolean;
}

/** One scheduled run of the sweeper, with its timeout; its sends held SEND_MS each and counted. */
async function sweepRun(sent: Set<string>): Promise<Run> {
  const queue = { schedule: async (id: string) => (await sleep(SEND_MS), void sent.add(id)) };
  const none = { schedule: async () => undefined, send: async () => undefined, run: async () => undefined };
  const started = performance.now();
  const report = await sweep({
    due: sweptDueWork(SWEEP_ROUND_MS),
    settlement: queue,
    refunds: none,
    deliveries: none,
    reports: none,
    reconciliations: none,
    dispatch: {
      webhooks: dynamoWebhookStore,
      deliveries: dynamoDeliveryStore,
      events: dynamoDispatchedEvents,
      queue: none,
      clock: systemClock,
    },
    clock: systemClock,
    graceMs: 120_000,
    // The settlement queue's visibility timeout: what a run holds the work it restarted.
    holdMs: { payment: 10 * 60_000, refund: 0, delivery: 0, report: 0, reconciliation: 0, event: 0 },
    remainingMs: () => timeoutSeconds * 1000 - (performance.now() - started),
    marginMs: recordSeconds * 1000,
  });
  return {
    restarted: Object.values(report.restarted).reduce((sum, n) => sum + n, 0),
    seen: report.seen,
    ms: Math.round(performance.now() - started),
    stoppedForTime: report.stoppedForTime,
  };
}

const result = await withBenchTable(async () => {
  const seeded = performance.now();
  await strand(STRANDED);
  const seedMs = Math.round(performance.now() - seeded);
  console.log(`${STRANDED} stranded payments written in ${(seedMs / 1000).toFixed(1)} s`);
  const sent = new Set<string>();
  const runs: Run[] = [];
  while (sent.size < STRANDED && runs.length < 30) {
    const run = await sweepRun(sent);
    runs.push(run);
    console.log(
      `run ${runs.length}: ${run.restarted} restarted in ${(run.ms / 1000).toFixed(1)} s (${sent.size}/${STRANDED})`,
    );
    if (run.restarted === 0) break;
  }
  // Runs a minute apart: the last run's end, counted from the first's start.
  const drainMs = (runs.length - 1) * 60_000 + runs.at(-1)!.ms;
  return { seedMs, runs, drained: sent.size, drainMs };
});

const perSecond = Math.round(
  result.runs.reduce((sum, run) => sum + run.restarted, 0) / (result.runs.reduce((sum, run) => sum + run.ms, 0) / 1000),
);
const report = {
  date: new Date().toISOString(),
  machine: machineLine(),
  stranded: STRANDED,
  paymentsPerSecond: PAYMENTS_PER_SECOND,
  outageSeconds: OUTAGE_SECONDS,
  sendMs: SEND_MS,
  runTimeoutSeconds: timeoutSeconds,
  drained: result.drained,
  drainMs: result.drainMs,
  restartsPerSecond: perSecond,
  underTarget: result.drained === STRANDED && result.drainMs < TARGET_MS,
  runs: result.runs,
};
const out = path.join(REPO_ROOT, 'docs', 'benchmarks');
writeFileSync(path.join(out, 'drain.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(
  path.join(out, 'drain.md'),
  `# Draining a queue outage

\`npm run bench:drain\` (bench/outage-drain.ts) strands what a ${OUTAGE_SECONDS} s queue outage at
${PAYMENTS_PER_SECOND.toLocaleString('en')} payments a second leaves: ${STRANDED.toLocaleString('en')} PENDING payments in the index of
due work, past their grace. It writes them straight into a new table of DynamoDB Local, then runs the
real sweep over the real index, every shard each run as on AWS, each run with the worker's
${timeoutSeconds} s timeout and its ${recordSeconds} s margin. Each restart's SendMessage is held ${SEND_MS} ms (SQS's order of magnitude).
The runs are placed a minute apart, as the schedule starts them.

Run of ${report.date.slice(0, 10)}: ${report.machine}.

| Stranded | Restarted | Runs | Drain time | Restarts a second | Under 10 minutes |
|---:|---:|---:|---:|---:|---|
| ${STRANDED.toLocaleString('en')} | ${result.drained.toLocaleString('en')} | ${result.runs.length} | ${(result.drainMs / 60_000).toFixed(1)} min | ${perSecond} | ${report.underTarget ? 'yes' : '**no**'} |

| Run | Restarted | Due items read | Time | Stopped for time |
|---:|---:|---:|---:|---|
${result.runs.map((run, i) => `| ${i + 1} | ${run.restarted.toLocaleString('en')} | ${run.seen.toLocaleString('en')} | ${(run.ms / 1000).toFixed(1)} s | ${run.stoppedForTime ? 'yes' : 'no'} |`).join('\n')}

Before the sweeper read while it had time, a run restarted at most 800 items: the same outage took some
75 minutes to drain. DynamoDB Local is slower than DynamoDB for each claim (a conditional UpdateItem):
on AWS the runs go faster still.
`,
);
console.log(JSON.stringify({ ...report, runs: report.runs.length }, null, 2));
