/**
 * `npm run bench:reports`: what reading a whole list costs, the way a report reads it, against
 * DynamoDB Local (in memory, started and stopped here). One client's payments (BENCH_ROWS, 10,000),
 * read to the end at one snapshot, pages of 100, in created_at order, over the dates of a report (their
 * month, created_from and created_to, as every report names them), two ways in the same run:
 * - **numbered pages**: page 1, 2, … as a client of GET /v1/payments asks them (listPage), each page
 *   found from the nearer end of the walk by stepping over the keys before it: how reports read
 *   before this benchmark's change;
 * - **walk**: each page read from the key where the last one ended (walkPage), as reports read now.
 * Both must answer the same payments in the same order. Calls and capacity are DynamoDB's own
 * (ReturnConsumedCapacity TOTAL); each way is run BENCH_REPEATS (3) times, alternating, and the
 * medians reported. Writes docs/benchmarks/reports.json and docs/benchmarks/reports.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PageRequest } from '../shared/domain/lists';
import { batchPut, withBenchTable } from './bench-table';
import { machineLine, median } from './run-facts';

const { REPO_ROOT } = await import('../infra/paths');
const { collectionKeys, collectionPartition, itemKeys } = await import('../shared/data/item-keys');
const { counterIncrementsOf } = await import('../shared/data/counters');
const { dynamo } = await import('../shared/data/client');
const { listPage, walkPage } = await import('../shared/data/pagination');
const { MAX_PAGE_SIZE } = await import('../shared/schemas/bounds');

const ROWS = Number(process.env['BENCH_ROWS'] ?? 10_000);
const REPEATS = Number(process.env['BENCH_REPEATS'] ?? 3);
const TENANT = 'bench-client';
const BASE = Date.parse('2026-02-01T12:00:00.000Z');

/** `ROWS` settled payments of one customer, a second apart, as the payments list holds them (and counts them). */
async function seed(): Promise<string[]> {
  const customerId = randomUUID();
  const items = Array.from({ length: ROWS }, (_, i) => {
    const id = randomUUID();
    const at = new Date(BASE + i * 1000).toISOString();
    return {
      ...itemKeys.payment(id),
      ...collectionKeys(TENANT, 'PAYMENT', id, at, at, `CUSTOMER#${customerId}`),
      entity: 'PAYMENT',
      id,
      tenant: TENANT,
      customer_id: customerId,
      account_id: randomUUID(),
      direction: i % 2 === 0 ? 'INBOUND' : 'OUTBOUND',
      status: 'SETTLED',
      amount_cents: 1_00 + i,
      description: `Factura ${i}`,
      counterparty: {
        owner: { identification_type: 'CC', identification_number: String(1000 + i), type: 'PERSON' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: String(i), account_type: 'SAVINGS' },
      },
      created_at: at,
      updated_at: at,
      settled_at: at,
    };
  });
  await batchPut(items);
  // The list's counter, as the payments' own transactions keep it: page 1's total reads it.
  const partitions = [collectionPartition(TENANT, 'PAYMENT')];
  for (const { Update } of counterIncrementsOf(items.map((item) => ({ partitions, itemId: item.id })))) {
    await dynamo().send(new UpdateCommand(Update));
  }
  return items.map((item) => item.id);
}

interface Reading {
  readonly ids: string[];
  readonly calls: number;
  readonly readUnits: number;
  readonly ms: number;
}

const source = { tenant: TENANT, collection: 'PAYMENT' };

const request = (snapshot: string, pageNumber = 1): PageRequest => ({
  pageSize: MAX_PAGE_SIZE,
  pageNumber,
  orderKey: 'created_at',
  direction: 'asc',
  snapshot,
  pinned: pageNumber > 1,
  // A report always names its dates: the month of the payments, as a finance team asks for it.
  created: { from: '2026-02-01T00:00:00.000Z', to: '2026-02-28T23:59:59.999Z' },
  updated: {},
});

async function numberedPages(snapshot: string): Promise<Reading> {
  const started = performance.now();
  const reading = { ids: [] as string[], calls: 0, readUnits: 0 };
  for (let page = 1; ; page += 1) {
    const answer = await listPage({ source, filters: [], request: request(snapshot, page) });
    reading.ids.push(...answer.items.map((item) => String(item['id'])));
    reading.calls += answer.cost.readCalls;
    reading.readUnits += answer.cost.readCapacity;
    if (page >= Math.ceil(answer.total / MAX_PAGE_SIZE)) break;
  }
  return { ...reading, ms: performance.now() - started };
}

async function walk(snapshot: string): Promise<Reading> {
  const started = performance.now();
  const reading = { ids: [] as string[], calls: 0, readUnits: 0 };
  let after: Record<string, unknown> | undefined;
  do {
    const page = await walkPage({ source, filters: [], request: request(snapshot) }, after);
    reading.ids.push(...page.items.map((item) => String(item['id'])));
    reading.calls += page.cost.readCalls;
    reading.readUnits += page.cost.readCapacity;
    after = page.next;
  } while (after);
  return { ...reading, ms: performance.now() - started };
}

const summary = (readings: readonly Reading[]) => ({
  calls: median(readings.map((r) => r.calls)),
  read_units: median(readings.map((r) => r.readUnits)),
  ms: Math.round(median(readings.map((r) => r.ms))),
});

async function main(): Promise<void> {
  const seeding = performance.now();
  const expected = await seed();
  console.log(`Seeded ${ROWS} payments in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);
  const snapshot = new Date().toISOString();
  const readings: Record<'numbered' | 'walk', Reading[]> = { numbered: [], walk: [] };
  for (let i = 0; i < REPEATS; i += 1) {
    for (const [way, read] of [
      ['numbered', numberedPages],
      ['walk', walk],
    ] as const) {
      const reading = await read(snapshot);
      if (reading.ids.join() !== expected.join()) throw new Error(`${way} did not read every payment once, in order`);
      readings[way].push(reading);
      console.log(`${way}: ${reading.calls} calls, ${reading.readUnits} RCU, ${Math.round(reading.ms)} ms`);
    }
  }
  const numbered = summary(readings.numbered);
  const walked = summary(readings.walk);
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  const report = {
    generated_at: new Date().toISOString(),
    machine: machineLine(),
    database: 'DynamoDB Local (in memory), capacity from ReturnConsumedCapacity TOTAL',
    rows: ROWS,
    page_size: MAX_PAGE_SIZE,
    repeats: REPEATS,
    numbered_pages: numbered,
    walk: walked,
    numbered_over_walk: {
      calls: ratio(numbered.calls, walked.calls),
      read_units: ratio(numbered.read_units, walked.read_units),
      ms: ratio(numbered.ms, walked.ms),
    },
  };
  const directory = path.join(REPO_ROOT, 'docs', 'benchmarks');
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'reports.json'), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    path.join(directory, 'reports.md'),
    `# Reading a whole list, as a report does

Generated by \`npm run bench:reports\` (bench/reports.ts) on ${report.generated_at}.
Machine: ${report.machine}. Database: ${report.database}.

One client's ${ROWS.toLocaleString('en')} payments read to the end at one snapshot, ${MAX_PAGE_SIZE} to a
page, in \`created_at\` order, over a report's dates (their month: \`created_from\`, \`created_to\`), two ways in the same run, each ${REPEATS} times (medians):
**numbered pages** (page 1, 2, … as a client of \`GET /v1/payments\` asks them: each page found from the
nearer end of its walk, stepping over the keys before it, its total counted again on every page,
as a date range's is; how report runs read before) and **walk**
(each page read from the key where the last ended: how report runs read now,
[pagination.md](../pagination.md#walks-read-in-order)). Both answered every payment once, in order.

| Way | DynamoDB calls | RCU | ms |
|---|--:|--:|--:|
| numbered pages | ${numbered.calls} | ${numbered.read_units} | ${numbered.ms} |
| walk | ${walked.calls} | ${walked.read_units} | ${walked.ms} |
| numbered / walk | ${report.numbered_over_walk.calls}x | ${report.numbered_over_walk.read_units}x | ${report.numbered_over_walk.ms}x |
`,
  );
  console.log(JSON.stringify(report, null, 2));
}

await withBenchTable(main);
