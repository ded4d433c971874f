/**
 * `npm run bench:statements`: what a day's statement costs, measured against DynamoDB Local (in
 * memory, started and stopped here). An account with a year of movements (100,000: 1,000 on the day
 * measured, the rest over the 364 other days, before and after it) against an account opened that
 * day with its 1,000 movements: the statement's reads (shared/data/ledger-repository.ts,
 * readLedgerDay) as DynamoDB reports them (ReturnConsumedCapacity TOTAL), and the real handler's
 * answer for both. The ledger is seeded with BatchWriteItem, as the ledger's writes leave it (the
 * movements, the sealed days with their openings, the account on its last day).
 * Writes docs/benchmarks/statements.json and docs/benchmarks/statements.md.
 *
 * Options (environment): BENCH_MOVEMENTS (100000), BENCH_DAY_MOVEMENTS (1000).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, Context } from 'aws-lambda';
import { SCOPES } from '../functions/routes';
import { batchPut, withBenchTable } from './bench-table';
import { machineLine } from './run-facts';
import { apiEvent } from './api-event';

const { REPO_ROOT } = await import('../infra/paths');
const { itemKeys, collectionKeys } = await import('../shared/data/item-keys');
const { readLedgerDay } = await import('../shared/data/ledger-repository');
const { colombiaDay, dayBounds } = await import('../shared/calendar/colombia-days');

const MOVEMENTS = Number(process.env['BENCH_MOVEMENTS'] ?? 100_000);
const DAY_MOVEMENTS = Number(process.env['BENCH_DAY_MOVEMENTS'] ?? 1000);
const DAYS = 365;
/** The day measured: in the middle of the old account's year, with movements on both sides of it. */
const MEASURED_DAY_INDEX = 180;
const TENANT = 'bench-client';
const FIRST_DAY_START = Date.parse('2025-06-01T05:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

const dayOf = (index: number): string => colombiaDay(new Date(FIRST_DAY_START + index * DAY_MS).toISOString());

/** The account item and its balance item, as linking puts them, the balance on its last ledger day. */
function accountItems(
  id: string,
  createdAt: string,
  balanceCents: number,
  onDay: string,
  openingCents: number,
  count: number,
) {
  return [
    {
      ...itemKeys.account(id),
      ...collectionKeys(TENANT, 'ACCOUNT', id, createdAt, createdAt, `CUSTOMER#bench`),
      entity: 'ACCOUNT',
      id,
      tenant: TENANT,
      customer_id: randomUUID(),
      number: String(Math.floor(Math.random() * 1e12)),
      type: 'ORDINARY',
      account_status: 'ACTIVE',
      account_name: 'Tienda La Esperanza SAS',
      pending_balance_cents: 0,
      customer_status: 'ACTIVE',
      customer_status_version: 0,
      customer_mobile: '+573001234567',
      created_at: createdAt,
      updated_at: createdAt,
    },
    {
      ...itemKeys.accountBalance(id),
      entity: 'BALANCE',
      account_id: id,
      available_balance_cents: balanceCents,
      lday: onDay,
      lday_open: openingCents,
      lsince: colombiaDay(createdAt),
      moves: count,
    },
  ];
}

const movementItem = (accountId: string, at: string, cents: number) => {
  const paymentId = randomUUID();
  return {
    ...itemKeys.movement(accountId, at, paymentId),
    entity: 'MOVEMENT',
    account_id: accountId,
    kind: 'PAYMENT',
    amount_cents: cents,
    payment_id: paymentId,
    created_at: at,
  };
};

/**
 * Seeds an account's ledger: `perDay(i)` movements on day i of `days`, credits of 1.00 and some
 * debits of 0.50, each day sealed with its opening except the last (the day the account is on).
 */
async function seedLedger(firstDay: number, days: number, perDay: (i: number) => number): Promise<string> {
  const id = randomUUID();
  const createdAt = new Date(FIRST_DAY_START + firstDay * DAY_MS).toISOString();
  const items: Record<string, unknown>[] = [];
  let balance = 0;
  let count = 0;
  let opening = 0;
  for (let i = firstDay; i < firstDay + days; i += 1) {
    opening = balance;
    const day = dayOf(i);
    const { start } = dayBounds(day);
    const n = perDay(i);
    for (let k = 0; k < n; k += 1) {
      const at = new Date(Date.parse(start) + Math.floor(((k + 0.5) * DAY_MS) / n)).toISOString();
      const cents = k % 3 === 2 ? -50 : 1_00;
      items.push(movementItem(id, at, cents));
      balance += cents;
      count += 1;
    }
    if (i < firstDay + days - 1) {
      items.push({ ...itemKeys.ledgerDay(id, day), entity: 'LEDGER_DAY', opening_balance_cents: opening });
    }
  }
  await batchPut(items);
  const lastDay = dayOf(firstDay + days - 1);
  await batchPut(accountItems(id, createdAt, balance, lastDay, opening, count));
  return id;
}

type Handler = (
  event: APIGatewayProxyEventV2WithJWTAuthorizer,
  context: Context,
) => Promise<{ statusCode: number; body: string }>;
const context = { awsRequestId: 'bench', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

async function statementThroughHandler(handler: Handler, accountId: string, day: string) {
  const answer = await handler(
    apiEvent({
      method: 'GET',
      path: `/v1/accounts/${accountId}/statements/${day}`,
      route: { path: '/v1/accounts/{id}/statements/{date}', parameters: { id: accountId, date: day } },
      tenant: TENANT,
      scopes: [SCOPES.accountsRead],
      requestId: randomUUID(),
    }),
    context,
  );
  if (answer.statusCode !== 200) throw new Error(`Statement answered ${answer.statusCode}: ${answer.body}`);
  return JSON.parse(answer.body) as { credits: { count: number }; debits: { count: number } };
}

async function main(): Promise<void> {
  const seeding = performance.now();
  const others = MOVEMENTS - DAY_MOVEMENTS;
  const perOtherDay = (i: number) =>
    Math.floor(((i + 1) * others) / (DAYS - 1)) - Math.floor((i * others) / (DAYS - 1));
  const old = await seedLedger(0, DAYS, (i) =>
    i === MEASURED_DAY_INDEX ? DAY_MOVEMENTS : perOtherDay(i < MEASURED_DAY_INDEX ? i : i - 1),
  );
  const fresh = await seedLedger(MEASURED_DAY_INDEX, 1, () => DAY_MOVEMENTS);
  const seededSeconds = (performance.now() - seeding) / 1000;
  console.log(`Seeded ${MOVEMENTS + DAY_MOVEMENTS} movements in ${seededSeconds.toFixed(1)} s`);

  const day = dayOf(MEASURED_DAY_INDEX);
  const handlerFile = 'get-account-statement';
  const { handler } = (await import(`../functions/${handlerFile}.ts`)) as { handler: Handler };
  const rows = [];
  for (const [name, id, total] of [
    [`a year of movements (${MOVEMENTS})`, old, MOVEMENTS],
    ['opened that day', fresh, DAY_MOVEMENTS],
  ] as const) {
    const answer = await statementThroughHandler(handler, id, day);
    const started = performance.now();
    const { cost } = await readLedgerDay(id, day);
    const ms = performance.now() - started;
    rows.push({
      account: name,
      movements: total,
      day_movements: answer.credits.count + answer.debits.count,
      calls: cost.calls,
      rcu: cost.readCapacity,
      ms,
    });
  }
  const ratio = rows[0]!.rcu / rows[1]!.rcu;
  const machine = machineLine();
  const report = {
    generated_at: new Date().toISOString(),
    machine,
    database: 'DynamoDB Local (in memory), capacity from ReturnConsumedCapacity TOTAL',
    day,
    ratio,
    target: { ratio_near_1: Math.abs(ratio - 1) <= 0.1 },
    rows,
  };
  const directory = path.join(REPO_ROOT, 'docs', 'benchmarks');
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'statements.json'), `${JSON.stringify(report, null, 2)}\n`);
  const table = rows
    .map((r) => `| ${r.account} | ${r.day_movements} | ${r.calls} | ${r.rcu} | ${r.ms.toFixed(0)} |`)
    .join('\n');
  writeFileSync(
    path.join(directory, 'statements.md'),
    `# Statement benchmark

Generated by \`npm run bench:statements\` (bench/statements.ts) on ${report.generated_at}.
Machine: ${machine}. Database: ${report.database}.

The statement of ${day} (a Colombian day) of two accounts, each with ${DAY_MOVEMENTS} movements that
day: one with a year of movements (${MOVEMENTS}, over ${DAYS} days, before and after the day), one
opened that day. Its reads, as DynamoDB reports them: the account's ledger day, the first sealed day
from the date on (Query, Limit 1), and the day's movements (docs/reconciliation.md). The route adds
the account's ownership read (one GetItem) to both.

| Account | Movements that day | Calls | RCU | ms |
|---|--:|--:|--:|--:|
${table}

Ratio (a year of movements / opened that day): **${ratio.toFixed(2)}x**.
`,
  );
  console.log(JSON.stringify(report, null, 2));
}

await withBenchTable(main);
