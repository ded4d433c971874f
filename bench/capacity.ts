/**
 * `npm run bench:capacity`: what every route costs in DynamoDB request units, and in dollars at
 * on-demand prices (issue 31). Every route's sample (bench/functions/samples.ts) is sent REQUESTS
 * times through the local API behind the recording proxy (bench/capacity/measure.ts); for each write,
 * its write units, its floor (bench/capacity/floor.ts) and the ratio; for each route, USD per million
 * calls; and a merchant month (payments, QR codes and the work their events leave: webhooks,
 * settlement). Writes docs/benchmarks/capacity.json and docs/benchmarks/capacity.md.
 *
 * Options (environment): BENCH_REQUESTS (3), BENCH_LATER_WORK_MS (8000).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths';
import { routesFor } from '../functions/routes';
import { missingSamples } from './functions/samples';
import { capacityOf, writeFloor, writesByIndex } from './capacity/floor';
import { measureRoutes, type RouteCapacity } from './capacity/measure';

const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 3);

/**
 * DynamoDB on-demand, us-east-1, Standard table class, as priced from 1 November 2024 (the price list
 * this report uses; check https://aws.amazon.com/dynamodb/pricing/on-demand/ before relying on it).
 * A write unit reported by DynamoDB is one write request unit (WRU), a read unit one RRU.
 */
export const PRICES = {
  region: 'us-east-1',
  asOf: '2024-11-01',
  usdPerMillionWriteUnits: 0.625,
  usdPerMillionReadUnits: 0.125,
} as const;

/** A merchant's month (issue 31): what it does, and the routes that do it. */
const MONTH = [
  { what: 'payments', route: 'createPayment', count: 30_000 },
  { what: 'QR codes', route: 'createQrCode', count: 3_000 },
] as const;

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
const usdPerMillion = (read: number, write: number): number =>
  read * PRICES.usdPerMillionReadUnits + write * PRICES.usdPerMillionWriteUnits;

interface RouteRow {
  readonly name: string;
  readonly method: string;
  readonly callsPerRequest: number;
  readonly readUnits: number;
  readonly writeUnits: number;
  readonly floor: number;
  readonly ratio: number | null;
  readonly writesByIndex: Record<string, number>;
  readonly usdPerMillionCalls: number;
}

function rowOf(route: RouteCapacity): RouteRow {
  const { read, write } = capacityOf(route.calls);
  const floor = writeFloor(route.calls, route.stored) / route.requests;
  const writeUnits = write / route.requests;
  const readUnits = read / route.requests;
  const byIndex = Object.fromEntries(
    Object.entries(writesByIndex(route.calls)).map(([index, units]) => [index, round(units / route.requests)]),
  );
  return {
    name: route.name,
    method: route.method,
    callsPerRequest: round(route.calls.length / route.requests),
    readUnits: round(readUnits),
    writeUnits: round(writeUnits),
    floor: round(floor),
    ratio: floor > 0 ? round(writeUnits / floor) : null,
    writesByIndex: byIndex,
    usdPerMillionCalls: round(usdPerMillion(readUnits, writeUnits)),
  };
}

const started = Date.now();
const load = os.loadavg().map((l) => l.toFixed(2));
// The work a payment and a QR code leave for later is measured apart, with the workers running.
const { routes: measured } = await measureRoutes(REQUESTS, { laterWork: MONTH.map((m) => m.route) });
const rows = measured.map(rowOf);
const month = MONTH.map(({ what, route, count }) => {
  const row = rows.find((r) => r.name === route)!;
  const afterwards = capacityOf(measured.find((r) => r.name === route)!.laterCalls ?? []);
  const laterRead = afterwards.read / REQUESTS;
  const laterWrite = afterwards.write / REQUESTS;
  const usd = (count * (usdPerMillion(row.readUnits, row.writeUnits) + usdPerMillion(laterRead, laterWrite))) / 1e6;
  return {
    what,
    route,
    count,
    readUnits: row.readUnits,
    writeUnits: row.writeUnits,
    laterReadUnits: round(laterRead),
    laterWriteUnits: round(laterWrite),
    usd: round(usd, 4),
  };
});
const report = {
  generatedAt: new Date().toISOString(),
  seconds: round((Date.now() - started) / 1000, 0),
  machine: `${os.cpus()[0]?.model ?? 'unknown'} x${os.cpus().length}, Node ${process.version}, load ${load.join(', ')}`,
  requestsPerRoute: REQUESTS,
  prices: PRICES,
  routes: rows,
  unmeasured: missingSamples(routesFor(true)),
  month,
  monthUsd: round(
    month.reduce((sum, m) => sum + m.usd, 0),
    4,
  ),
};
const dir = path.join(REPO_ROOT, 'docs', 'benchmarks');
writeFileSync(path.join(dir, 'capacity.json'), `${JSON.stringify(report, null, 2)}\n`);

const writes = rows.filter((r) => r.method !== 'GET');
const reads = rows.filter((r) => r.method === 'GET');
const indexCell = (r: RouteRow) =>
  Object.entries(r.writesByIndex)
    .filter(([, units]) => units > 0)
    .map(([index, units]) => `${index} ${units}`)
    .join(', ');
const md = `# Request units and dollars per route

Generated by \`npm run bench:capacity\` (bench/capacity.ts) on ${report.generatedAt}, in ${report.seconds} s.
Machine: ${report.machine}. Figures: [capacity.json](capacity.json).

Every route's sample (bench/functions/samples.ts, the function benchmark's) is sent ${REQUESTS} times, one at a
time, through the local API (the same as \`npm start\`) to DynamoDB Local behind a proxy that records
every call and the capacity DynamoDB Local reports for it, per table and index
(\`ReturnConsumedCapacity: INDEXES\`), while the runtime's later work (stream, dispatcher, queues) is held.
Figures are per request. POSTs carry an \`Idempotency-Key\`, as the samples do. Not measured (no
sample in bench/functions/samples.ts): ${report.unmeasured.join(', ') || 'none'}.

Prices: DynamoDB on-demand, ${PRICES.region}, Standard table class, as priced from ${PRICES.asOf}:
$${PRICES.usdPerMillionWriteUnits} per million write request units, $${PRICES.usdPerMillionReadUnits} per million read
request units (the price list used for this report, on the date above; storage, streams and
backups are not included).

## Writes: units, floor and ratio

The floor (bench/capacity/floor.ts) is what the change itself must write: every item put, updated or
deleted at its size (one unit per started KB, twice in a transaction), guards included, with one
copy in each index the contract reads it from (the client's lists by creation and update, gsi1 and
gsi2) and in \`due\` for work that must recover by itself: a put writes those copies, an update
rewrites them (a move in update order is a delete and a put), a delete takes them out (each item at
its size as stored: after an update, before a delete). Not in it: list counters, idempotency
records, condition checks, the keys-only twins and the scope indexes (gsi3, gsi4). Goal (issue 31):
at most 2x the floor.

| Route | Calls | RCU | WCU | Floor | WCU / floor | WCU by table and index | USD per million calls |
|---|--:|--:|--:|--:|--:|---|--:|
${writes
  .map(
    (r) =>
      `| ${r.name} | ${r.callsPerRequest} | ${r.readUnits} | ${r.writeUnits} | ${r.floor} | ${r.ratio ?? '-'} | ${indexCell(r)} | ${r.usdPerMillionCalls} |`,
  )
  .join('\n')}

## Reads

| Route | Calls | RCU | WCU | USD per million calls |
|---|--:|--:|--:|--:|
${reads.map((r) => `| ${r.name} | ${r.callsPerRequest} | ${r.readUnits} | ${r.writeUnits} | ${r.usdPerMillionCalls} |`).join('\n')}

## A merchant's month

${month.map((m) => `${m.count.toLocaleString('en-US')} ${m.what}`).join(', ')}, and the work their events leave
for later (the outbox's dispatch to a webhook subscribed to every payment and QR code event, its one
delivery attempt, settlement), measured apart: the same requests with the workers running for
${Number(process.env['BENCH_LATER_WORK_MS'] ?? 8000) / 1000} s afterwards (their idle polls included).

| What | Count | RCU + WCU per request | Later work RCU + WCU per request | USD |
|---|--:|--:|--:|--:|
${month
  .map(
    (m) =>
      `| ${m.what} (${m.route}) | ${m.count.toLocaleString('en-US')} | ${m.readUnits} + ${m.writeUnits} | ${m.laterReadUnits} + ${m.laterWriteUnits} | ${m.usd} |`,
  )
  .join('\n')}
| **Month** | | | | **${report.monthUsd}** |
`;
writeFileSync(path.join(dir, 'capacity.md'), md);
console.log(md);
process.exit(0);
